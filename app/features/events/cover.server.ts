import sharp from "sharp";
import {
  cropMaster,
  encodeRendition,
  encodeRenditions,
  type MediaFile,
  prepareUpload,
  putAll,
  renditionHash,
  toMaster,
} from "~/features/media/pipeline.server";
import type { Storage } from "~/server/storage/storage.server";
import { COVER_ASPECT, COVER_WIDTHS, coverKey } from "./cover-urls";

/** Decoding is refused above this many pixels: a small PNG can claim to be 14000 × 14000. */
const COVER_MAX_PIXELS = 10_000 * 10_000;
export const COVER_MAX_BYTES = 15 * 1024 * 1024;
const COVER_MIN_WIDTH = 640;
const LARGEST_WIDTH = COVER_WIDTHS[COVER_WIDTHS.length - 1] ?? 1600;
const CONTENT_TYPES = { avif: "image/avif", webp: "image/webp" } as const;

export type PreparedCover =
  | { ok: true; hash: string; color: string; files: MediaFile[] }
  | { ok: false; message: string };

/**
 * Turns an uploaded image into the stored cover through the media pipeline (docs/media.md):
 * checked by content, turned upright, cropped to 16:9 around what matters, at every width in
 * AVIF and WebP, with all metadata (EXIF, GPS, profiles) left out. Anything that is not a
 * readable photo gets a message, never an error.
 */
export async function prepareCover(bytes: Uint8Array): Promise<PreparedCover> {
  const prepared = await prepareUpload(bytes, {
    maxBytes: COVER_MAX_BYTES,
    maxPixels: COVER_MAX_PIXELS,
    maxSide: 4000,
    noun: "image",
    // What counts is the 16:9 crop that will be kept: a tall or very thin image leaves too little.
    checkSize: (width, height) =>
      Math.min(width, (height * 16) / 9) < COVER_MIN_WIDTH
        ? `This image is too small (${width} × ${height} pixels). Choose one at least 640 × 360 pixels.`
        : null,
  });
  if (!prepared.ok) return prepared;
  const master = await cropMaster(prepared.master, LARGEST_WIDTH, Math.round(LARGEST_WIDTH / COVER_ASPECT));
  const hash = renditionHash(master);
  const files = await encodeRenditions(master, COVER_WIDTHS, (width, format) => coverKey(hash, width, format));
  return { ok: true, hash, color: master.color, files };
}

export async function storeCover(storage: Storage, cover: Extract<PreparedCover, { ok: true }>) {
  await putAll(storage, cover.files);
  return { coverHash: cover.hash, coverColor: cover.color };
}

const RENDITION_KEY = /^events\/([0-9a-f]{32})-(\d+)\.(avif|webp)$/;

/**
 * A rendition of a cover stored before its width joined COVER_WIDTHS (768 came later): made
 * once, when first asked for, from the cover's largest WebP, and stored. Null when `key` names
 * no rendition of COVER_WIDTHS or no such cover is stored.
 */
export async function missingCoverRendition(storage: Storage, key: string) {
  const match = RENDITION_KEY.exec(key);
  if (!match) return null;
  const [, hash = "", digits, format = "webp"] = match;
  const width = Number(digits);
  if (width === LARGEST_WIDTH || !COVER_WIDTHS.some((known) => known === width)) return null;
  const source = await storage.get(coverKey(hash, LARGEST_WIDTH, "webp"));
  if (!source) return null;
  const rendition = format === "avif" ? "avif" : "webp";
  const master = await toMaster(sharp(source.bytes, { failOn: "error" }));
  const bytes = await encodeRendition(master, width, rendition);
  await storage.put(key, bytes, CONTENT_TYPES[rendition]);
  return { bytes: new Uint8Array(bytes), contentType: CONTENT_TYPES[rendition] };
}
