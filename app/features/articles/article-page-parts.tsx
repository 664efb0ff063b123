import { Clock, Eye } from "lucide-react";
import { Link } from "react-router";
import { Avatar } from "~/features/accounts/avatar";
import { CoverPicture } from "~/features/events/cover-picture";
import { ArticleCards, articleCover, formatArticleDate } from "./article-cards";
import type { ArticleCard, ArticlePage } from "./catalogue.server";
import { tagLabel } from "./tags";

/** The article's cover fills the column: full width on a phone, 768 px at most beside nothing. */
const COVER_SIZES = "(min-width: 832px) 768px, calc(100vw - 32px)";

/** What the hero needs of an article (dates may arrive as strings from a preview). */
type HeroArticle = Pick<ArticlePage, "title" | "excerpt" | "cover" | "tags" | "readingMinutes" | "author"> & {
  publishedAt: Date | null;
};

/** Staff looking at an article the public cannot see yet. */
export function PreviewBanner({
  status,
  publishedAt,
  timeZone,
}: {
  status: string;
  publishedAt: Date | null;
  timeZone: string;
}) {
  const scheduled = status === "published" && publishedAt;
  return (
    <div
      role="status"
      className="border-b border-amber-300 bg-amber-100 text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="mx-auto flex max-w-3xl items-center gap-2 px-4 py-3 font-semibold sm:px-6">
        <Eye aria-hidden className="size-5 shrink-0" />
        <span>
          Preview:{" "}
          {scheduled
            ? `scheduled for ${formatArticleDate(publishedAt, timeZone)}, ${new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone }).format(publishedAt)}. Visitors cannot see it yet.`
            : "this is a draft. Visitors cannot see it."}
        </span>
      </p>
    </div>
  );
}

/** Tags, title, excerpt, author with avatar, date and reading time, then the cover. */
export function ArticleHero({ article, timeZone }: { article: HeroArticle; timeZone: string }) {
  return (
    <header className="mx-auto max-w-3xl px-4 pt-10 sm:px-6 md:pt-14">
      {article.tags.length > 0 ? (
        <ul aria-label="Tags" className="flex flex-wrap gap-2">
          {article.tags.map((tag) => (
            <li key={tag}>
              <Link
                to={`/blog?tag=${tag}`}
                className="inline-flex h-8 items-center rounded-full px-3 text-xs font-bold uppercase tracking-[0.14em] text-accent-ink ring-1 ring-line hover:bg-surface-sunken"
              >
                {tagLabel(tag)}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      <h1 className="wide mt-4 text-3xl font-black leading-tight sm:text-5xl">{article.title}</h1>
      {article.excerpt ? <p className="mt-4 text-xl leading-relaxed text-muted">{article.excerpt}</p> : null}
      <div className="mt-6 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-muted">
        {article.author ? (
          <p className="flex items-center gap-3">
            <Avatar image={article.author.image} name={article.author.name} size="sm" alt="" />
            <span>
              By{" "}
              {article.author.handle ? (
                <Link to={`/community/${article.author.handle}`} className="font-semibold text-text underline">
                  {article.author.name}
                </Link>
              ) : (
                <span className="font-semibold text-text">{article.author.name}</span>
              )}
            </span>
          </p>
        ) : null}
        {article.publishedAt ? (
          <time dateTime={article.publishedAt.toISOString()}>{formatArticleDate(article.publishedAt, timeZone)}</time>
        ) : (
          <span>Not published</span>
        )}
        <span className="inline-flex items-center gap-1">
          <Clock aria-hidden className="size-4" />
          {article.readingMinutes} min read
        </span>
      </div>
      {article.cover ? (
        <div className="mt-8 overflow-hidden rounded-2xl bg-asphalt-900">
          <CoverPicture
            cover={articleCover(article.cover)}
            sizes={COVER_SIZES}
            priority
            className="aspect-video w-full"
          />
        </div>
      ) : null}
    </header>
  );
}

/**
 * The body, rendered from Markdown on the server with raw HTML escaped. Headings carry a "#"
 * link to themselves that shows on hover or focus; tables scroll sideways on a phone; code
 * blocks sit on the sunken surface in a monospaced font.
 */
export function ArticleBody({ html }: { html: string }) {
  return (
    <div
      className="prose-pitlane mx-auto max-w-3xl px-4 text-lg sm:px-6 [&_blockquote]:my-6 [&_blockquote]:border-l-4 [&_blockquote]:border-accent [&_blockquote]:pl-4 [&_blockquote]:text-muted [&_blockquote]:italic [&_code]:rounded [&_code]:bg-surface-sunken [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.9em] [&_h2]:scroll-mt-24 [&_h3]:scroll-mt-24 [&_h4]:font-bold [&_hr]:my-8 [&_hr]:border-line [&_img]:my-6 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-xl [&_pre]:my-6 [&_pre]:overflow-x-auto [&_pre]:rounded-xl [&_pre]:bg-surface-sunken [&_pre]:p-4 [&_pre]:text-sm [&_pre]:leading-relaxed [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_.heading-anchor]:ml-2 [&_.heading-anchor]:text-muted [&_.heading-anchor]:no-underline [&_.heading-anchor]:opacity-0 [&_.heading-anchor:focus]:opacity-100 [&_:is(h2,h3,h4):hover_.heading-anchor]:opacity-100"
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

export function RelatedArticles({ articles }: { articles: ArticleCard[] }) {
  if (articles.length === 0) return null;
  return (
    <section aria-labelledby="related" className="mx-auto mt-16 max-w-[1200px] border-t border-line px-4 py-12 sm:px-6">
      <h2 id="related" className="wide mb-6 text-2xl font-extrabold">
        Read next
      </h2>
      <ArticleCards articles={articles} />
    </section>
  );
}
