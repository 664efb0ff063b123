import { ArticleBody, ArticleHero, PreviewBanner, RelatedArticles } from "~/features/articles/article-page-parts";
import { articleBySlug, relatedArticles } from "~/features/articles/catalogue.server";
import { articleJsonLd, serializeJsonLd } from "~/features/articles/json-ld";
import { renderMarkdown } from "~/features/content/markdown.server";
import { coverImageUrl } from "~/features/events/json-ld";
import { hasRole } from "~/server/auth/session.server";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext, userContext } from "~/server/context.server";
import { useNonce } from "~/ui/nonce";
import { notFound } from "~/ui/not-found";
import { linkPreviewMeta } from "~/ui/page-meta";
import { pageTitle, siteNameOf } from "~/ui/page-title";
import { useSite } from "~/ui/site";
import type { Route } from "./+types/article";

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const { db, env } = context.get(runtimeContext);
  const user = context.get(userContext);
  // Drafts and scheduled articles are staff-only, and only when asked for: anyone else gets the 404.
  const preview = url.searchParams.get("preview") === "1" && user !== null && hasRole(user, "organizer");
  const now = new Date();
  const article = await articleBySlug(db, params.slug, { now, preview });
  if (!article) notFound();
  const related = await relatedArticles(db, article, { now, limit: 3 });
  const pageUrl = `${env.SITE_URL}/blog/${article.slug}`;
  const { body: _body, ...shown } = article;
  return {
    article: shown,
    html: renderMarkdown(article.body, { article: true, siteOrigin: env.SITE_URL }),
    related,
    preview: article.unpublished,
    pageUrl,
    imageUrl: article.cover ? coverImageUrl(env.SITE_URL, article.cover.hash) : null,
    jsonLd: serializeJsonLd(articleJsonLd(article, { name: env.SITE_NAME, url: env.SITE_URL })),
  };
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export default function ArticleRoute({ loaderData }: Route.ComponentProps) {
  const { article, html, related, preview } = loaderData;
  const nonce = useNonce();
  const { timeZone } = useSite();
  return (
    <main id="main">
      {preview ? <PreviewBanner status={article.status} publishedAt={article.publishedAt} timeZone={timeZone} /> : null}
      <article>
        {/* A data block, not a script: serialised with "<" escaped so it cannot end the element. */}
        <script type="application/ld+json" nonce={nonce} dangerouslySetInnerHTML={{ __html: loaderData.jsonLd }} />
        <ArticleHero article={article} timeZone={timeZone} />
        <div className="mt-10">
          <ArticleBody html={html} />
        </div>
      </article>
      <RelatedArticles articles={related} />
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data: page, matches }) => {
  const site = siteNameOf(matches);
  if (!page) return [{ title: pageTitle(matches, "Article not found") }];
  const { article } = page;
  const description = article.excerpt || `${article.title}, on the ${site} blog.`;
  return [
    { title: pageTitle(matches, page.preview ? `Preview: ${article.title}` : article.title, "Blog") },
    { name: "description", content: description },
    ...(page.preview ? [{ name: "robots", content: "noindex, nofollow" }] : []),
    ...linkPreviewMeta({
      url: page.pageUrl,
      title: article.title,
      description,
      type: "article",
      site,
      image: page.imageUrl ? { url: page.imageUrl, width: 1600, height: 900, alt: article.cover?.alt } : null,
    }),
    ...(article.publishedAt
      ? [{ property: "article:published_time", content: article.publishedAt.toISOString() }]
      : []),
    { property: "article:modified_time", content: article.updatedAt.toISOString() },
    ...(article.author ? [{ property: "article:author", content: article.author.name }] : []),
    ...article.tags.map((tag) => ({ property: "article:tag", content: tag })),
  ];
};
