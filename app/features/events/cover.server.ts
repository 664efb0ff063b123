import { createHash } from "node:crypto";
import sharp from "sharp";
import { sniffImage } from "~/features/accounts/avatar.server";
import type { Storage } from "~/server/storage/storage.server";
import { COVER_ASPECT, COVER_WIDTHS, coverKey } from "./cover-urls";

/** Decoding is refused above this many pixels: a small PNG can claim to be 14000 × 14000. */
export const COVER_MAX_PIXELS = 10_000 * 10_000;
export const COVER_MAX_BYTES = 15 * 1024 * 1024;
const COVER_MIN_WIDTH = 640;

export type PreparedCover =
  | { ok: true; hash: string; color: string; files: { key: string; bytes: Buffer; contentType: string }[] }
  | { ok: false; message: string };

/**
 * Turns an uploaded image into the stored cover: cropped to 16:9 around what matters, turned
 * upright, at every width in AVIF and WebP, with all metadata (EXIF, GPS, profiles) left out.
 * The content decides what the file is, never its name or the browser's type. Anything that
 * is not a readable photo gets a message, never an error.
 */
export async function prepareCover(bytes: Uint8Array): Promise<PreparedCover> {
  if (bytes.byteLength > COVER_MAX_BYTES) return { ok: false, message: "Choose an image of at most 15 MB." };
  const kind = sniffImage(bytes);
  if (!kind) return { ok: false, message: "Choose a JPEG, PNG, WebP or HEIC image." };
  try {
    const { width = 0, height = 0 } = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (width * height > COVER_MAX_PIXELS) {
      return {
        ok: false,
        message: `This image is too large (${width} × ${height} pixels). Choose one of at most 10000 × 10000 pixels.`,
      };
    }
    // What counts is the 16:9 crop that will be kept: a tall or very thin image leaves too little.
    if (Math.min(width, (height * 16) / 9) < COVER_MIN_WIDTH) {
      return {
        ok: false,
        message: `This image is too small (${width} × ${height} pixels). Choose one at least 640 × 360 pixels.`,
      };
    }
    const upright = sharp(bytes, { limitInputPixels: COVER_MAX_PIXELS, failOn: "error" }).autoOrient();
    const largest = COVER_WIDTHS[COVER_WIDTHS.length - 1] ?? 1600;
    const master = await upright
      .resize(largest, Math.round(largest / COVER_ASPECT), {
        fit: "cover",
        position: "attention",
        withoutEnlargement: false,
      })
      .toBuffer();
    const { dominant } = await sharp(master).stats();
    const color = `#${[dominant.r, dominant.g, dominant.b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
    const hash = createHash("sha256").update(master).digest("hex").slice(0, 32);
    const files = await Promise.all(
      COVER_WIDTHS.flatMap((width) => {
        const sized = sharp(master).resize(width, Math.round(width / COVER_ASPECT));
        return [
          sized
            .clone()
            .avif({ quality: 50, effort: 4 })
            .toBuffer()
            .then((out) => ({ key: coverKey(hash, width, "avif"), bytes: out, contentType: "image/avif" })),
          sized
            .clone()
            .webp({ quality: 78 })
            .toBuffer()
            .then((out) => ({ key: coverKey(hash, width, "webp"), bytes: out, contentType: "image/webp" })),
        ];
      }),
    );
    return { ok: true, hash, color, files };
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    if (/pixel limit/i.test(message)) return { ok: false, message: "This image is too large. Choose a smaller one." };
    if (kind === "heic")
      return { ok: false, message: "This HEIC image could not be read. Save it as a JPEG and try again." };
    return { ok: false, message: "This image could not be read. It may be damaged: try another one." };
  }
}

export async function storeCover(storage: Storage, cover: Extract<PreparedCover, { ok: true }>) {
  await Promise.all(cover.files.map((file) => storage.put(file.key, file.bytes, file.contentType)));
  return { coverHash: cover.hash, coverColor: cover.color };
}
