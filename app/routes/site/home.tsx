import { ArrowRight, CalendarDays, Car, Newspaper, ShoppingBag, Trophy } from "lucide-react";
import { lazy, Suspense } from "react";
import { Link } from "react-router";
import { DiscoverEvents, HeadlineHero } from "~/features/events/home-page-events";
import { homeSections } from "~/features/home/home.server";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext } from "~/server/context.server";
import { MobileBanner } from "~/ui/mobile-banner";
import { TrackArt } from "~/ui/track-art";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  const { env, db, storage } = context.get(runtimeContext);
  const now = new Date();
  return {
    siteName: env.SITE_NAME,
    ...(await homeSections(db, now)),
    now: now.getTime(),
    mediaBase: storage.publicBase,
  };
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

// The sections under the events are in the server's HTML; in the browser their code is a chunk
// of its own, loaded after the page's, and React hydrates them when it arrives (docs/home.md).
const loadBelowTheFold = () => import("~/features/home/below-the-fold");
const BelowTheFold = import.meta.env.SSR ? (await loadBelowTheFold()).default : lazy(loadBelowTheFold);

/** Moving here from another page: the sections' code arrives with the data, so nothing pops in. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), loadBelowTheFold()]);
  return data;
}

const areas = [
  {
    to: "/events",
    title: "Events",
    text: "Meets, shows, cruises and track days. Tickets in seconds, QR at the gate.",
    icon: CalendarDays,
  },
  {
    to: "/giveaways",
    title: "Giveaways",
    text: "Prize draws with provably fair results: the seed is published before the draw.",
    icon: Trophy,
  },
  {
    to: "/community",
    title: "Community",
    text: "Members' builds, specs and stories. Like the ones you would park next to.",
    icon: Car,
  },
  { to: "/shop", title: "Shop", text: "Club merch, stickers and apparel, shipped from the club.", icon: ShoppingBag },
  { to: "/blog", title: "Blog", text: "Event reports, build diaries and news from the paddock.", icon: Newspaper },
];

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <main id="main">
      {loaderData.headline ? (
        <HeadlineHero event={loaderData.headline} />
      ) : (
        <section className="dark-band relative isolate overflow-hidden bg-asphalt-950 text-white">
          <TrackArt className="absolute inset-0 -z-10 size-full" />
          <div className="mx-auto flex min-h-[34rem] max-w-[1200px] flex-col justify-end px-4 pb-16 pt-32 sm:px-6 md:min-h-[40rem] md:pb-24">
            <p className="mb-4 text-sm font-bold uppercase tracking-[0.25em] text-accent-strong">
              {loaderData.siteName}
            </p>
            <h1 className="wide max-w-3xl text-4xl font-black leading-[1.02] sm:text-6xl md:text-7xl">
              Where car people meet.
            </h1>
            <p className="mt-6 max-w-xl text-lg text-asphalt-300">
              Tickets for the next meet, a shot at the prize car, and a garage to show what you drive.
            </p>
            <div className="mt-9 flex flex-wrap gap-3">
              <Link
                to="/events"
                className="inline-flex items-center gap-2 rounded-full bg-accent px-6 py-3.5 font-bold text-on-accent hover:bg-accent-strong"
              >
                See what's on <ArrowRight aria-hidden className="size-5" />
              </Link>
              <Link
                to="/signUp"
                className="inline-flex items-center rounded-full px-6 py-3.5 font-bold text-white ring-1 ring-white/30 hover:bg-white/10"
              >
                Join the club
              </Link>
            </div>
          </div>
        </section>
      )}

      {loaderData.upcoming.length > 0 ? <DiscoverEvents events={loaderData.upcoming} /> : null}

      <Suspense fallback={null}>
        <BelowTheFold
          draws={loaderData.draws}
          now={loaderData.now}
          articles={loaderData.articles}
          featured={loaderData.featured}
          partners={loaderData.partners}
          mediaBase={loaderData.mediaBase}
        />
      </Suspense>

      <MobileBanner />

      <section aria-labelledby="explore" className="mx-auto max-w-[1200px] px-4 py-16 sm:px-6 md:py-24">
        <h2 id="explore" className="wide text-2xl font-extrabold sm:text-3xl">
          Everything in one garage
        </h2>
        <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {areas.map(({ to, title, text, icon: Icon }) => (
            <li key={to}>
              <Link
                to={to}
                prefetch="intent"
                className="group flex h-full flex-col gap-3 rounded-2xl border border-line bg-surface-raised p-6 transition hover:-translate-y-0.5 hover:border-accent"
              >
                <Icon aria-hidden className="size-7 text-muted transition-colors group-hover:text-text" />
                <h3 className="text-xl font-bold">{title}</h3>
                <p className="text-muted">{text}</p>
                <span className="mt-auto inline-flex items-center gap-1 pt-2 text-sm font-semibold">
                  Open {title.toLowerCase()} <ArrowRight aria-hidden className="size-4" />
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data }) => {
  const name = data?.siteName ?? "Pitlane";
  const description = `${name}: car meets, shows and track days, prize draws, club merch and members' cars.`;
  return [
    { title: `${name} · Car meets, shows, track days and giveaways` },
    { name: "description", content: description },
    { property: "og:title", content: name },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
  ];
};
