// The <meta> tags that tell search engines and link previews (chats, social apps) what a public
// page is.

/** A catalogue page (the blog, events, the community, the shop): its title and what it holds. */
export function catalogueMeta(title: string, description: string) {
  return [
    { title },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
  ];
}

/** The picture a shared link shows, at the size the page publishes it. */
type PreviewImage = { url: string; width: number; height: number; alt?: string | null };

/**
 * How one page (an event, an article, a product) shows when its link is shared: its own address,
 * name and words, and its picture when it has one (a large card then, a small one without).
 */
export function linkPreviewMeta({
  url,
  title,
  description,
  type,
  site,
  image,
}: {
  url: string;
  title: string;
  description: string;
  /** Open Graph's kind of page: "website", "article", "product". */
  type: string;
  site: string;
  image: PreviewImage | null;
}) {
  return [
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:type", content: type },
    { property: "og:site_name", content: site },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    ...(image
      ? [
          { property: "og:image", content: image.url },
          { property: "og:image:width", content: String(image.width) },
          { property: "og:image:height", content: String(image.height) },
          ...(image.alt ? [{ property: "og:image:alt", content: image.alt }] : []),
          { name: "twitter:image", content: image.url },
        ]
      : []),
  ];
}
