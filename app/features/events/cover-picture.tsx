import { useMediaBase } from "~/ui/site";
import type { EventCover } from "./catalogue.server";
import { coverSources } from "./cover-urls";

/**
 * An event's cover at the size its slot needs: AVIF or WebP at four widths, explicit
 * dimensions so nothing moves as it loads, and the cover's dominant colour behind it meanwhile.
 * Without a cover, a floodlit gradient in that colour stands in.
 */
export function CoverPicture({
  cover,
  sizes,
  priority = false,
  className = "",
}: {
  cover: EventCover;
  sizes: string;
  /** The page's largest image: loaded first, never lazily. */
  priority?: boolean;
  className?: string;
}) {
  const mediaBase = useMediaBase();
  if (!cover.hash) {
    return (
      <div
        aria-hidden="true"
        className={`bg-[radial-gradient(ellipse_at_80%_0%,rgb(255_122_26/0.45),transparent_60%),linear-gradient(160deg,#1f2226,#0b0c0e)] ${className}`}
      />
    );
  }
  const sources = coverSources(cover.hash, mediaBase);
  return (
    <picture>
      <source type="image/avif" srcSet={sources.avif} sizes={sizes} />
      <source type="image/webp" srcSet={sources.webp} sizes={sizes} />
      <img
        src={sources.src}
        width={sources.width}
        height={sources.height}
        alt={cover.alt}
        loading={priority ? "eager" : "lazy"}
        decoding={priority ? "sync" : "async"}
        fetchPriority={priority ? "high" : "auto"}
        className={`object-cover ${className}`}
        style={cover.color ? { backgroundColor: cover.color } : undefined}
      />
    </picture>
  );
}
