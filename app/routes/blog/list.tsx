import { ArticleCards } from "~/features/articles/article-cards";
import { type BlogFilters, BlogHeader, blogHref, describeArticles, NoArticles } from "~/features/articles/blog-parts";
import { listArticles, normaliseQuery, tagsInUse } from "~/features/articles/catalogue.server";
import { isTag } from "~/features/articles/tags";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext } from "~/server/context.server";
import { CatalogueResults } from "~/ui/catalogue-results";
import { catalogueMeta } from "~/ui/page-meta";
import { pageTitle, siteNameOf } from "~/ui/page-title";
import type { Route } from "./+types/list";

export async function loader({ context, url }: Route.LoaderArgs) {
  const { db, env } = context.get(runtimeContext);
  const params = url.searchParams;
  // Whatever the address says, the page answers: unknown values are ignored, not refused.
  const tag = params.get("tag");
  const filters: BlogFilters = { q: normaliseQuery(params.get("q")), tag: isTag(tag) ? tag : "" };
  const now = new Date();
  const [list, tags] = await Promise.all([
    listArticles(db, {
      q: filters.q,
      tag: filters.tag || undefined,
      page: Number.parseInt(params.get("page") ?? "1", 10),
      now,
    }),
    tagsInUse(db, now),
  ]);
  return { ...list, tags, filters, siteUrl: env.SITE_URL };
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export default function ArticlesList({ loaderData }: Route.ComponentProps) {
  const { articles, total, page, pageCount, tags, filters } = loaderData;
  const filtered = Boolean(filters.q || filters.tag);
  return (
    <main id="main">
      <BlogHeader filters={filters} tags={tags} />
      <CatalogueResults
        summary={describeArticles(total, filters)}
        clearHref={filtered ? "/blog" : null}
        page={page}
        pageCount={pageCount}
        pageHref={(n) => blogHref({ ...filters, page: n })}
      >
        {articles.length > 0 ? <ArticleCards articles={articles} firstPriority /> : <NoArticles filters={filters} />}
      </CatalogueResults>
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const site = siteNameOf(matches);
  const title = pageTitle(matches, data?.filters.tag ? `Articles tagged ${data.filters.tag}` : "Blog");
  const description = `Event reports, build diaries, guides and news from ${site}.`;
  const pages = data
    ? [
        ...(data.page > 1
          ? [{ tagName: "link", rel: "prev", href: blogHref({ ...data.filters, page: data.page - 1 }) }]
          : []),
        ...(data.page < data.pageCount
          ? [{ tagName: "link", rel: "next", href: blogHref({ ...data.filters, page: data.page + 1 }) }]
          : []),
      ]
    : [];
  return [
    ...catalogueMeta(title, description),
    // Searches are not pages of their own for search engines.
    ...(data?.filters.q ? [{ name: "robots", content: "noindex, follow" }] : []),
    {
      tagName: "link",
      rel: "alternate",
      type: "application/atom+xml",
      title: `${site}: articles`,
      href: data?.siteUrl ? `${data.siteUrl}/blog/feed.xml` : "/blog/feed.xml",
    },
    ...pages,
  ];
};
