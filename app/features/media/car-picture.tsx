import { type CarPhotoLayout, carPhotoSources } from "./car-photo-urls";

/**
 * A car photo as AVIF with a WebP fallback at its layout's widths, with its own dimensions so the
 * page never shifts and its average colour behind it while it loads. Used by the garage, the
 * community and moderation alike.
 */
export function CarPicture({
  photo,
  alt,
  layout,
  priority = false,
  className = "",
}: {
  photo: { hash: string; width: number; height: number; color: string };
  alt: string;
  layout: CarPhotoLayout;
  priority?: boolean;
  className?: string;
}) {
  const sources = carPhotoSources(photo.hash, layout);
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
