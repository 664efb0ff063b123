import { type CarPhotoLayout, carPhotoSources } from "~/features/media/car-photo-urls";

export type PicturePhoto = { hash: string; width: number; height: number; color: string; alt: string };
export type CarName = { year: number; make: string; model: string };

/** A photo's alt text: the owner's words, else "2004 Honda S2000, photo 2". */
export function photoAlt(car: CarName, photo: Pick<PicturePhoto, "alt">, index: number) {
  return photo.alt.trim() || `${car.year} ${car.make} ${car.model}, photo ${index + 1}`;
}

/**
 * A car photo as AVIF with a WebP fallback, sized for its layout, with its own dimensions so the
 * page never shifts and its average colour behind it while it loads.
 */
export function CarPicture({
  photo,
  alt,
  layout,
  mediaBase,
  priority = false,
  className = "",
}: {
  photo: PicturePhoto;
  alt: string;
  layout: CarPhotoLayout;
  /** Where the site's media lives: "/media/" locally, the bucket's public address with S3. */
  mediaBase: string;
  priority?: boolean;
  className?: string;
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
