/**
 * Where a partner logo's renditions live. Every logo is fitted, whole and uncropped, into the
 * same 2:1 box on a transparent background, so the LogoBanner's row lines up and a logo with
 * its own transparency keeps it. Stored content-addressed in AVIF and WebP at two widths.
 */
export const LOGO_WIDTHS = [160, 320] as const;
export const LOGO_BOX = { width: 320, height: 160 } as const;

export const logoKey = (hash: string, width: number, format: "avif" | "webp") => `partners/${hash}-${width}.${format}`;

export type LogoSources = { avif: string; webp: string; src: string; width: number; height: number };

/** `srcset` strings for a stored logo, shown 160 × 80 CSS pixels (320 wide on sharp screens). */
export function logoSources(hash: string, mediaBase = "/media/"): LogoSources {
  const set = (format: "avif" | "webp") =>
    LOGO_WIDTHS.map((width) => `${mediaBase}${logoKey(hash, width, format)} ${width}w`).join(", ");
  return {
    avif: set("avif"),
    webp: set("webp"),
    src: `${mediaBase}${logoKey(hash, 320, "webp")}`,
    width: 160,
    height: 80,
  };
}
