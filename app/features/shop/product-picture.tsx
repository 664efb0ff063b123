import { useMediaBase } from "~/ui/site";
import type { ProductImage } from "../../../db/schema";
import { type ProductImageLayout, productImageSources } from "./product-image-urls";

/**
 * A product photo at the size its slot needs: AVIF or WebP at several widths, explicit 4:5
 * dimensions so nothing moves as it loads, and the photo's dominant colour behind it meanwhile.
 * Without a photo, a plain panel in the site's colours stands in.
 */
export function ProductPicture({
  image,
  layout,
  priority = false,
  className = "",
}: {
  image: ProductImage | null;
  layout: ProductImageLayout;
  /** The page's largest image: loaded first, never lazily. */
  priority?: boolean;
  className?: string;
}) {
  const mediaBase = useMediaBase();
  if (!image) {
    return (
      <div
        aria-hidden="true"
        className={`bg-[radial-gradient(ellipse_at_80%_0%,rgb(255_122_26/0.3),transparent_60%),linear-gradient(160deg,#e5e7eb,#cbd5e1)] ${className}`}
      />
    );
  }
  const sources = productImageSources(image.hash, layout, mediaBase);
  return (
    <picture>
      <source type="image/avif" srcSet={sources.avifSrcSet} sizes={sources.sizes} />
      <source type="image/webp" srcSet={sources.webpSrcSet} sizes={sources.sizes} />
      <img
        src={sources.src}
        width={sources.width}
        height={sources.height}
        alt={image.alt}
        loading={priority ? "eager" : "lazy"}
        decoding={priority ? "sync" : "async"}
        fetchPriority={priority ? "high" : "auto"}
        className={`object-cover ${className}`}
        style={{ backgroundColor: image.color }}
      />
    </picture>
  );
}
