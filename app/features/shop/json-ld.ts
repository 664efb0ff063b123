import type { ProductPage } from "./catalogue.server";

type Site = { name: string; url: string; currency: string };

const AVAILABILITY = {
  "Sold out": "https://schema.org/OutOfStock",
  "Few left": "https://schema.org/LimitedAvailability",
  none: "https://schema.org/InStock",
} as const;

/**
 * schema.org Product for a product page, one Offer per variant on sale (its price, the site's
 * currency, its availability and SKU), so search engines can show price and stock.
 */
export function productJsonLd(page: ProductPage, site: Site, imageUrls: string[]) {
  const url = `${site.url}/shop/${page.slug}`;
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: page.title,
    description: page.summary || undefined,
    url,
    image: imageUrls.length > 0 ? imageUrls : undefined,
    category: page.category,
    brand: { "@type": "Brand", name: site.name },
    offers: page.variants.map((variant) => ({
      "@type": "Offer",
      name: variant.options.length > 0 ? `${page.title} — ${variant.options.join(" / ")}` : page.title,
      sku: variant.sku,
      price: (variant.price / 100).toFixed(2),
      priceCurrency: site.currency,
      availability: AVAILABILITY[variant.badge ?? "none"],
      url,
    })),
  };
}
