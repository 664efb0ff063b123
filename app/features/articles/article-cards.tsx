import { Clock } from "lucide-react";
import { Link } from "react-router";
import { coverSources } from "~/features/events/cover-urls";
import { Card } from "~/ui/card";
import { useSite } from "~/ui/site";
import type { ArticleCard, ArticleCover } from "./catalogue.server";
import { tagLabel } from "./tags";

/** "12 November 2026", in the site's time zone. */
export function formatArticleDate(date: Date, timeZone: string) {
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone }).format(date);
}

/**
 * An article's 16:9 cover at the size its slot needs (the event covers' renditions, AVIF and
 * WebP), with explicit dimensions and its dominant colour behind it while it loads. Without a
 * cover, the floodlit gradient stands in.
 */
export function ArticleCoverPicture({
  cover,
  mediaBase,
  sizes,
  priority = false,
  className = "",
}: {
  cover: ArticleCover | null;
  mediaBase: string;
  sizes: string;
  priority?: boolean;
  className?: string;
}) {
  if (!cover?.hash) {
    return (
      <div
        aria-hidden="true"
        className={`bg-[radial-gradient(ellipse_at_20%_0%,rgb(255_122_26/0.4),transparent_60%),linear-gradient(160deg,#1f2226,#0b0c0e)] ${className}`}
      />
    );
  }
  const sources = coverSources(cover.hash, mediaBase);
  return (
    <picture>
      <source type="image/avif" srcSet={sources.avif} sizes={sizes} />
      <source type="image/webp" srcSet={sources.webp} sizes={sizes} />
      <img
        src={sources.src}
        width={sources.width}
        height={sources.height}
        alt={cover.alt}
        loading={priority ? "eager" : "lazy"}
        decoding={priority ? "sync" : "async"}
        fetchPriority={priority ? "high" : "auto"}
        className={`object-cover ${className}`}
        style={cover.color ? { backgroundColor: cover.color } : undefined}
      />
    </picture>
  );
}

/** A column of the cards' grid: one, two, then three across a page 1200 px wide at most. */
const CARD_SIZES =
  "(min-width: 1200px) 371px, (min-width: 1024px) calc(33.3vw - 29px), (min-width: 640px) calc(50vw - 34px), calc(100vw - 32px)";

/** Cover, first tag, title linking to the article, excerpt, date and reading time. */
export function ArticleCardView({
  article,
  mediaBase,
  priority = false,
  headingLevel = 3,
}: {
  article: ArticleCard;
  mediaBase: string;
  priority?: boolean;
  headingLevel?: 2 | 3;
}) {
  const { timeZone } = useSite();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const tag = article.tags[0];
  return (
    <Card
      as="article"
      className="group relative flex h-full flex-col overflow-hidden transition duration-200 focus-within:border-accent hover:-translate-y-0.5 hover:border-accent hover:shadow-[0_12px_40px_-12px_rgb(255_122_26/0.35)]"
    >
      <div className="relative aspect-video overflow-hidden bg-asphalt-900">
        <ArticleCoverPicture
          cover={article.cover}
          mediaBase={mediaBase}
          sizes={CARD_SIZES}
          priority={priority}
          className="size-full transition duration-500 group-hover:scale-[1.03]"
        />
      </div>
      <div className="flex flex-1 flex-col gap-2 p-5">
        {tag ? <p className="text-xs font-bold uppercase tracking-[0.18em] text-accent-ink">{tagLabel(tag)}</p> : null}
        <Heading className="wide text-lg font-extrabold leading-snug">
          <Link
            to={`/blog/${article.slug}`}
            prefetch="intent"
            className="rounded outline-none after:absolute after:inset-0 after:content-[''] focus-visible:underline"
          >
            {article.title}
          </Link>
        </Heading>
        {article.excerpt ? <p className="line-clamp-3 text-sm text-muted">{article.excerpt}</p> : null}
        <p className="mt-auto flex flex-wrap items-center gap-x-3 gap-y-1 pt-3 text-sm text-muted">
          <time dateTime={article.publishedAt.toISOString()}>{formatArticleDate(article.publishedAt, timeZone)}</time>
          <span aria-hidden="true">·</span>
          <span className="inline-flex items-center gap-1">
            <Clock aria-hidden className="size-4" />
            {article.readingMinutes} min read
          </span>
        </p>
      </div>
    </Card>
  );
}

/** A responsive grid of article cards, for /blog and the home page. */
export function ArticleCards({
  articles,
  mediaBase,
  firstPriority = false,
  headingLevel = 3,
}: {
  articles: ArticleCard[];
  mediaBase: string;
  /** The first card's cover is the page's largest image: loaded first. */
  firstPriority?: boolean;
  headingLevel?: 2 | 3;
}) {
  return (
    <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
      {articles.map((article, index) => (
        <li key={article.slug}>
          <ArticleCardView
            article={article}
            mediaBase={mediaBase}
            priority={firstPriority && index === 0}
            headingLevel={headingLevel}
          />
        </li>
      ))}
    </ul>
  );
}
