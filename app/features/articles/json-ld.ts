import { coverImageUrl } from "~/features/events/json-ld";
import type { ArticleCover } from "./catalogue.server";

export { serializeJsonLd } from "~/features/events/json-ld";

export type JsonLdArticle = {
  slug: string;
  title: string;
  excerpt: string;
  cover: ArticleCover | null;
  tags: string[];
  publishedAt: Date | null;
  updatedAt: Date;
  author: { name: string; handle: string | null } | null;
};

/** schema.org Article data for search engines, built from what the article page shows. */
export function articleJsonLd(article: JsonLdArticle, site: { name: string; url: string }) {
  const url = `${site.url}/blog/${article.slug}`;
  return {
    "@context": "https://schema.org",
    "@type": "Article",
    headline: article.title.slice(0, 110),
    description: article.excerpt || undefined,
    url,
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    image: article.cover ? [coverImageUrl(site.url, article.cover.hash)] : undefined,
    datePublished: article.publishedAt?.toISOString(),
    dateModified: article.updatedAt.toISOString(),
    keywords: article.tags.length > 0 ? article.tags.join(", ") : undefined,
    author: article.author
      ? {
          "@type": "Person",
          name: article.author.name,
          url: article.author.handle ? `${site.url}/community/${article.author.handle}` : undefined,
        }
      : { "@type": "Organization", name: site.name, url: site.url },
    publisher: {
      "@type": "Organization",
      name: site.name,
      url: site.url,
      logo: { "@type": "ImageObject", url: `${site.url}/icons/icon-512.png` },
    },
  };
}
