import { createHash } from "node:crypto";
import sharp, { type Sharp } from "sharp";
import { sniffImage } from "~/features/accounts/avatar.server";
import type { Storage } from "~/server/storage/storage.server";
import { COVER_ASPECT, COVER_WIDTHS, coverKey } from "./cover-urls";

/** Decoding is refused above this many pixels: a small PNG can claim to be 14000 × 14000. */
export const COVER_MAX_PIXELS = 10_000 * 10_000;
export const COVER_MAX_BYTES = 15 * 1024 * 1024;
const COVER_MIN_WIDTH = 640;
const LARGEST_WIDTH = COVER_WIDTHS[COVER_WIDTHS.length - 1] ?? 1600;
const FORMATS = ["avif", "webp"] as const;
const CONTENT_TYPES = { avif: "image/avif", webp: "image/webp" } as const;

/** One stored rendition of a cover: `width` wide, 16:9, from an image of the same aspect. */
function encodeRendition(image: Sharp, width: number, format: (typeof FORMATS)[number]) {
  const sized = image.resize(width, Math.round(width / COVER_ASPECT));
  return format === "avif" ? sized.avif({ quality: 50, effort: 4 }).toBuffer() : sized.webp({ quality: 78 }).toBuffer();
}

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
    const master = await upright
      .resize(LARGEST_WIDTH, Math.round(LARGEST_WIDTH / COVER_ASPECT), {
        fit: "cover",
        position: "attention",
        withoutEnlargement: false,
      })
      .toBuffer();
    const { dominant } = await sharp(master).stats();
    const color = `#${[dominant.r, dominant.g, dominant.b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
    const hash = createHash("sha256").update(master).digest("hex").slice(0, 32);
    const files = await Promise.all(
      COVER_WIDTHS.flatMap((width) =>
        FORMATS.map(async (format) => ({
          key: coverKey(hash, width, format),
          bytes: await encodeRendition(sharp(master), width, format),
          contentType: CONTENT_TYPES[format],
        })),
      ),
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
  const bytes = await encodeRendition(sharp(source.bytes, { failOn: "error" }), width, rendition);
  await storage.put(key, bytes, CONTENT_TYPES[rendition]);
  return { bytes: new Uint8Array(bytes), contentType: CONTENT_TYPES[rendition] };
}
