import { type CarPhotoLayout, carPhotoSources } from "~/features/media/car-photo-urls";

/**
 * A car photo at the layout's widths, AVIF first then WebP, with its own dimensions (no layout
 * shift) and its average colour showing while it loads.
 */
export function CarPicture({
  photo,
  layout,
  mediaBase,
  alt,
  className = "",
  priority = false,
}: {
  photo: { hash: string; width: number; height: number; color: string };
  layout: CarPhotoLayout;
  mediaBase: string;
  alt: string;
  className?: string;
  priority?: boolean;
}) {
  const sources = carPhotoSources(photo.hash, layout, mediaBase);
  return (
    <picture>
      <source type="image/avif" srcSet={sources.avifSrcSet} sizes={sources.sizes} />
      <source type="image/webp" srcSet={sources.webpSrcSet} sizes={sources.sizes} />
      <img
        src={sources.src}
        alt={alt}
        width={photo.width}
        height={photo.height}
        loading={priority ? "eager" : "lazy"}
        decoding="async"
        fetchPriority={priority ? "high" : undefined}
        style={{ backgroundColor: photo.color }}
        className={className}
      />
    </picture>
  );
}
