// The editor's limits and addresses, shared by the form in the browser and the rules on the server.

/** The article editor's limits (docs/articles.md). */
export const ARTICLE_LIMITS = {
  title: 140,
  slug: 80,
  excerpt: 300,
  tags: 300,
  coverAlt: 200,
  /** Longer bodies are refused with a message: nobody writes more, and rendering stays fast. */
  body: 100_000,
} as const;

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Addresses under /blog that are not articles. */
const RESERVED_SLUGS = new Set(["feed", "feed-xml", "rss", "atom", "new", "search", "tag", "tags", "page"]);

export function isUsableArticleSlug(slug: string) {
  return SLUG_PATTERN.test(slug) && slug.length <= ARTICLE_LIMITS.slug && !RESERVED_SLUGS.has(slug);
}

/** "Spring Meet: Report!" → "spring-meet-report". */
export function slugFromTitle(title: string) {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, ARTICLE_LIMITS.slug - 6)
    .replace(/-+$/g, "");
  return RESERVED_SLUGS.has(slug) ? `${slug}-article` : slug || "article";
}
