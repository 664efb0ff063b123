import { ArrowRight } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { ArticleCards } from "~/features/articles/article-cards";
import type { ArticleCard } from "~/features/articles/catalogue.server";
import type { DrawTile } from "~/features/draws/catalogue.server";
import { DrawTiles } from "~/features/draws/draw-tiles";
import { logoSources } from "~/features/partners/logo-urls";
import { PartnerLogo } from "~/features/partners/partner-logo";

/** A home page section below the fold: its eyebrow and title, the way to the whole list, and its tiles. */
function HomeSection({
  id,
  eyebrow,
  title,
  to,
  more,
  children,
}: {
  id: string;
  eyebrow: string;
  title: string;
  to: string;
  more: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="mx-auto max-w-[1200px] px-4 pt-16 sm:px-6 md:pt-24">
      <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm font-bold uppercase tracking-[0.2em] text-accent-ink">{eyebrow}</p>
          <h2 id={id} className="wide mt-1 text-2xl font-extrabold sm:text-3xl">
            {title}
          </h2>
        </div>
        <Link
          to={to}
          prefetch="intent"
          className="inline-flex items-center gap-1.5 rounded-full px-4 py-2 font-bold ring-1 ring-line hover:bg-surface-sunken"
        >
          {more} <ArrowRight aria-hidden className="size-4" />
        </Link>
      </div>
      {children}
    </section>
  );
}

/** Live competitions: the open draws closing soonest, % sold and time left by the server's clock. */
export function LiveCompetitions({ draws, now }: { draws: DrawTile[]; now: number }) {
  if (draws.length === 0) return null;
  return (
    <HomeSection
      id="live-competitions"
      eyebrow="Closing soon"
      title="Live competitions"
      to="/giveaways"
      more="All competitions"
    >
      <DrawTiles tiles={draws} now={now} />
    </HomeSection>
  );
}

/** Latest articles: the newest published articles. */
export function DiscoverArticles({ articles }: { articles: ArticleCard[] }) {
  if (articles.length === 0) return null;
  return (
    <HomeSection
      id="discover-articles"
      eyebrow="From the paddock"
      title="Latest articles"
      to="/blog"
      more="All articles"
    >
      <ArticleCards articles={articles} />
    </HomeSection>
  );
}

export type BannerPartner = { id: string; name: string; url: string; logoHash: string };

/**
 * Our partners: the club's partners, logos in grey that take their colours on hover or focus.
 * Sponsored links (`rel="sponsored"`), in the same tab; each logo's text is the partner's name.
 */
export function LogoBanner({ partners, mediaBase }: { partners: BannerPartner[]; mediaBase: string }) {
  if (partners.length === 0) return null;
  return (
    <section aria-labelledby="partners" className="border-y border-line bg-surface-raised">
      <div className="mx-auto max-w-[1200px] px-4 py-10 sm:px-6">
        <h2 id="partners" className="text-center text-sm font-bold uppercase tracking-[0.2em] text-muted">
          Our partners
        </h2>
        <ul className="mt-6 flex flex-wrap items-center justify-center gap-3 sm:gap-4">
          {partners.map((partner) => (
            <li key={partner.id}>
              <a
                href={partner.url}
                rel="noopener sponsored"
                className="group block rounded-xl bg-white p-1.5 ring-1 ring-line transition hover:ring-accent focus-visible:ring-accent"
              >
                <PartnerLogo
                  sources={logoSources(partner.logoHash, mediaBase)}
                  alt={partner.name}
                  className="opacity-75 grayscale transition duration-200 group-hover:opacity-100 group-hover:grayscale-0 group-focus-visible:opacity-100 group-focus-visible:grayscale-0 motion-reduce:transition-none"
                />
              </a>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
