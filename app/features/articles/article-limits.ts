import { isUsableSlug, slugify } from "~/features/forms/slug";

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

/** Addresses under /blog that are not articles. */
const RESERVED_SLUGS = new Set(["feed", "feed-xml", "rss", "atom", "new", "search", "tag", "tags", "page"]);

export function isUsableArticleSlug(slug: string) {
  return isUsableSlug(slug, { max: ARTICLE_LIMITS.slug, reserved: RESERVED_SLUGS });
}

/** "Spring Meet: Report!" → "spring-meet-report", with room left for a number when it is taken. */
export function slugFromTitle(title: string) {
  const slug = slugify(title, { max: ARTICLE_LIMITS.slug - 6, fallback: "article" });
  return RESERVED_SLUGS.has(slug) ? `${slug}-article` : slug;
}
