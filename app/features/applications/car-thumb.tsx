import { Car } from "lucide-react";
import { carPhotoSources } from "~/features/media/car-photo-urls";

/** A car's cover photo as a small square (the review list, the gate), or a car icon without one. */
export function CarThumb({ hash, label, size = "size-16" }: { hash: string | null; label: string; size?: string }) {
  if (!hash) {
    return (
      <span className={`grid shrink-0 place-items-center rounded-xl bg-asphalt-100 text-muted ${size}`}>
        <Car aria-hidden className="size-1/2" />
      </span>
    );
  }
  const sources = carPhotoSources(hash, "thumb");
  return (
    <picture className="shrink-0">
      <source type="image/avif" srcSet={sources.avifSrcSet} sizes={sources.sizes} />
      <img
        src={sources.src}
        srcSet={sources.webpSrcSet}
        sizes={sources.sizes}
        alt={label}
        loading="lazy"
        className={`rounded-xl object-cover ${size}`}
      />
    </picture>
  );
}
