/**
 * Where an event cover's renditions live. Covers are 16:9,
 * stored content-addressed at several widths in AVIF and WebP, so a page picks the smallest
 * file that fills its slot. 768 is what a full-width cover needs on a common phone (412 px wide at
 * 1.75 device pixels per px: 721), and an event tile there (665).
 */
export const COVER_WIDTHS = [480, 768, 960, 1600] as const;
export const COVER_ASPECT = 16 / 9;

export const coverKey = (hash: string, width: number, format: "avif" | "webp") => `events/${hash}-${width}.${format}`;

export type CoverSources = {
  avif: string;
  webp: string;
  /** The fallback `src`: 960 wide in WebP. */
  src: string;
  width: number;
  height: number;
};

/** `srcset` strings for a stored cover, given the media base path (`/media/`). */
export function coverSources(hash: string, mediaBase = "/media/"): CoverSources {
  const set = (format: "avif" | "webp") =>
    COVER_WIDTHS.map((width) => `${mediaBase}${coverKey(hash, width, format)} ${width}w`).join(", ");
  const width = 960;
  return {
    avif: set("avif"),
    webp: set("webp"),
    src: `${mediaBase}${coverKey(hash, width, "webp")}`,
    width,
    height: Math.round(width / COVER_ASPECT),
  };
}
