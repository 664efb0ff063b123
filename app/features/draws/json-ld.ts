import { coverImageUrl } from "~/features/events/json-ld";
import type { DrawPage } from "./catalogue.server";

/**
 * schema.org data for a draw's page: the entry as a Product with its Offer (the price of one
 * entry, available while the draw is open), and the prize's photos.
 */
export function drawJsonLd(
  page: DrawPage,
  site: { pageUrl: string; siteName: string; siteUrl: string; currency: string },
) {
  const open = page.phase === "open";
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: page.title,
    description: page.summary || page.prize,
    url: site.pageUrl,
    image: page.images.map((image) => coverImageUrl(site.siteUrl, image.hash)),
    brand: { "@type": "Organization", name: site.siteName },
    offers: {
      "@type": "Offer",
      url: site.pageUrl,
      price: (page.price / 100).toFixed(2),
      priceCurrency: site.currency,
      availability: open
        ? page.allocated >= page.totalEntries
          ? "https://schema.org/SoldOut"
          : "https://schema.org/InStock"
        : "https://schema.org/Discontinued",
      validThrough: page.closesAt,
    },
  };
}
