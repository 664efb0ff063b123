import { Clock } from "lucide-react";
import { Link } from "react-router";
import type { EventCover } from "~/features/events/catalogue.server";
import { CoverPicture } from "~/features/events/cover-picture";
import { Card } from "~/ui/card";
import { formatDay } from "~/ui/day";
import { useSite } from "~/ui/site";
import type { ArticleCard, ArticleCover } from "./catalogue.server";
import { tagLabel } from "./tags";

/** "12 November 2026", in the site's time zone. */
export const formatArticleDate = formatDay;

/** An article's cover in the event covers' picture (same 16:9 renditions); a gradient without one. */
export function articleCover(cover: ArticleCover | null): EventCover {
  return { hash: cover?.hash ?? null, color: cover?.color ?? null, alt: cover?.alt ?? "" };
}

/** A column of the cards' grid: one, two, then three across a page 1200 px wide at most. */
const CARD_SIZES =
  "(min-width: 1200px) 371px, (min-width: 1024px) calc(33.3vw - 29px), (min-width: 640px) calc(50vw - 34px), calc(100vw - 32px)";

/** Cover, first tag, title linking to the article, excerpt, date and reading time. */
function ArticleCardView({
  article,
  priority = false,
  headingLevel = 3,
}: {
  article: ArticleCard;
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
        <CoverPicture
          cover={articleCover(article.cover)}
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
  firstPriority = false,
  headingLevel = 3,
}: {
  articles: ArticleCard[];
  /** The first card's cover is the page's largest image: loaded first. */
  firstPriority?: boolean;
  headingLevel?: 2 | 3;
}) {
  return (
    <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
      {articles.map((article, index) => (
        <li key={article.slug}>
          <ArticleCardView article={article} priority={firstPriority && index === 0} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  );
}
