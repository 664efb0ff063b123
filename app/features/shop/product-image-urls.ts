/**
 * Where a product photo's renditions live, and the `srcset`/`sizes` each layout uses. Client
 * safe. Product photos are cropped to 4:5 (portrait, like a garment laid flat or a boxed model),
 * stored content-addressed at several widths in AVIF and WebP under `products/`.
 */
export const PRODUCT_IMAGE_WIDTHS = [320, 480, 800, 1200] as const;
export const PRODUCT_IMAGE_ASPECT = 4 / 5;
export type ProductImageFormat = "avif" | "webp";
export type ProductImageLayout = "tile" | "gallery" | "thumb";

export const productImageKey = (hash: string, width: number, format: ProductImageFormat) =>
  `products/${hash}-${width}.${format}`;

/**
 * Per layout: the widths offered and the slot the photo fills.
 * - tile: a shop grid card, a quarter of the page from 1024 px, a third from 640 px, half on phones;
 * - gallery: the product page's main photo, half the page from 768 px, the full width on phones;
 * - thumb: the gallery's 80 px thumbnails and the admin list.
 */
const LAYOUTS: Record<ProductImageLayout, { widths: readonly number[]; sizes: string; src: number }> = {
  tile: {
    widths: [320, 480, 800],
    sizes: "(min-width: 1280px) 300px, (min-width: 1024px) 25vw, (min-width: 640px) 33vw, 50vw",
    src: 480,
  },
  gallery: { widths: [480, 800, 1200], sizes: "(min-width: 1280px) 600px, (min-width: 768px) 50vw, 100vw", src: 800 },
  thumb: { widths: [320], sizes: "80px", src: 320 },
};

export type ProductImageSources = {
  avifSrcSet: string;
  webpSrcSet: string;
  src: string;
  sizes: string;
  width: number;
  height: number;
};

export function productImageSources(
  hash: string,
  layout: ProductImageLayout,
  mediaBase = "/media/",
): ProductImageSources {
  const { widths, sizes, src } = LAYOUTS[layout];
  const base = mediaBase.endsWith("/") ? mediaBase : `${mediaBase}/`;
  const set = (format: ProductImageFormat) =>
    widths.map((width) => `${base}${productImageKey(hash, width, format)} ${width}w`).join(", ");
  return {
    avifSrcSet: set("avif"),
    webpSrcSet: set("webp"),
    src: `${base}${productImageKey(hash, src, "webp")}`,
    sizes,
    width: src,
    height: Math.round(src / PRODUCT_IMAGE_ASPECT),
  };
}

/** The absolute address of a photo's largest WebP (Open Graph, JSON-LD), from the site's origin. */
export function productImageShareUrl(hash: string, siteUrl: string, mediaBase = "/media/") {
  const base = mediaBase.endsWith("/") ? mediaBase : `${mediaBase}/`;
  const largest = PRODUCT_IMAGE_WIDTHS[PRODUCT_IMAGE_WIDTHS.length - 1] ?? 1200;
  return new URL(`${base}${productImageKey(hash, largest, "webp")}`, siteUrl).href;
}
