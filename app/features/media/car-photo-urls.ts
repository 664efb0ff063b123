/**
 * Where a car photo's public renditions live, and the `srcset`/`sizes` each layout uses. Client
 * safe. Car photos are always served by the site at /media/ (with S3 too): who may see one can
 * change, so the site checks each request (app/routes/system/media.ts).
 *
 * A photo keeps its own aspect ratio; each rendition is at most `width` pixels wide (a smaller
 * original is not enlarged, so the file may be narrower than its name says).
 */
export const CAR_PHOTO_WIDTHS = [160, 320, 640, 960, 1600] as const;
type CarPhotoWidth = (typeof CAR_PHOTO_WIDTHS)[number];
export type CarPhotoFormat = "avif" | "webp";
export type CarPhotoLayout = "tile" | "gallery" | "thumb";

export const carPhotoKey = (hash: string, width: number, format: CarPhotoFormat) => `cars/${hash}-${width}.${format}`;

/**
 * Per layout: the widths offered and the slot the photo fills.
 * - tile: a community grid card, a third of the page from 1024 px (at most 400 px), half from
 *   640 px, the full width on phones;
 * - gallery: the full width of the page, up to 1200 px;
 * - thumb: a 160 px thumbnail (the uploader, the gate scanner, the gallery strip).
 */
const LAYOUTS: Record<CarPhotoLayout, { widths: readonly CarPhotoWidth[]; sizes: string; src: CarPhotoWidth }> = {
  tile: {
    widths: [320, 640, 960],
    sizes: "(min-width: 1280px) 400px, (min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw",
    src: 640,
  },
  gallery: { widths: [640, 960, 1600], sizes: "(min-width: 1200px) 1200px, 100vw", src: 960 },
  thumb: { widths: [160, 320], sizes: "160px", src: 160 },
};

export type CarPhotoSources = { avifSrcSet: string; webpSrcSet: string; src: string; sizes: string };

const BASE = "/media/";

export function carPhotoSources(hash: string, layout: CarPhotoLayout): CarPhotoSources {
  const { widths, sizes, src } = LAYOUTS[layout];
  const set = (format: CarPhotoFormat) =>
    widths.map((width) => `${BASE}${carPhotoKey(hash, width, format)} ${width}w`).join(", ");
  return { avifSrcSet: set("avif"), webpSrcSet: set("webp"), src: `${BASE}${carPhotoKey(hash, src, "webp")}`, sizes };
}

/** The absolute address of a photo's 1600 px WebP (an Open Graph image), from the site's origin. */
export function carPhotoShareUrl(hash: string, siteUrl: string) {
  return new URL(`${BASE}${carPhotoKey(hash, 1600, "webp")}`, siteUrl).href;
}

const CAR_PHOTO_KEY = /^cars\/([0-9a-f]{16,64})-\d+\.(?:avif|webp)$/;

/** The photo hash a public car-photo key names (`cars/<hash>-<width>.<format>`), or null. */
export function carPhotoHashOf(key: string): string | null {
  return CAR_PHOTO_KEY.exec(key)?.[1] ?? null;
}
