import { createHash } from "node:crypto";
import { PRIVATE_PREFIX, type Storage } from "~/server/storage/storage.server";
import { sniffImage } from "./image-checks.server";
import { ImageWorkBusy, imagePool } from "./image-pool.server";
import type { Master, Prepared, RenditionFormat } from "./image-steps.server";

// The one way an uploaded picture becomes stored media (avatars, event covers, prize photos,
// car photos): checked by content, decoded under a pixel cap, turned upright, every piece of
// metadata left behind, then encoded as AVIF and WebP at the widths a layout uses under a key
// made from the picture itself. See docs/media.md. Every step that decodes or encodes runs in
// an image worker (image-pool.server.ts): this thread only hands bytes over and stores files.

export { renditionHash, toMaster } from "./image-steps.server";
export type { Master, Prepared, RenditionFormat };
export { sniffImage };

export type UploadLimits = {
  maxBytes?: number;
  /** Decoding is refused above this many pixels: a small PNG can claim to be 14000 × 14000. */
  maxPixels: number;
  /** A layout's own rule on the upright size (too small for it, say): a message refuses the upload. */
  checkSize?: (width: number, height: number) => string | null;
  /** The decoded picture is scaled down to fit this many pixels on its longer side. */
  maxSide: number;
  /** How messages name the upload: "photo" (members) or "image" (organizers). */
  noun: "photo" | "image";
  /** Whose upload it is, for their share of the image workers' queue. */
  member?: string;
};

/**
 * Checks an upload and decodes it into a master. Every refusal is a message for the person
 * uploading, never an error: a file too heavy, not a picture (whatever its name), claiming
 * more pixels than the cap (refused before any pixel is decoded), cut short, carrying a web
 * page or an archive besides the picture, or too small; and, when the image workers are full,
 * a message to try again.
 */
export async function prepareUpload(bytes: Uint8Array, limits: UploadLimits): Promise<Prepared> {
  const { checkSize, member, ...check } = limits;
  const pool = imagePool();
  try {
    const inspected = await pool.run("inspectUpload", [bytes, check], { member });
    if (!inspected.ok) return inspected;
    const sizeProblem = checkSize?.(inspected.width, inspected.height);
    if (sizeProblem) return { ok: false, message: sizeProblem };
    return await pool.run("decodeUpload", [bytes, { ...check, kind: inspected.kind }], { follows: true });
  } catch (error) {
    if (error instanceof ImageWorkBusy) return { ok: false, message: error.message };
    throw error;
  }
}

/** Crops a master to a fixed shape around what matters most in it (covers, avatars). */
export function cropMaster(master: Master, width: number, height: number): Promise<Master> {
  return imagePool().run("cropMaster", [master, width, height], { follows: true });
}

export type MediaFile = { key: string; bytes: Buffer; contentType: string };
const CONTENT_TYPES = { avif: "image/avif", webp: "image/webp" } as const;

/** One rendition: at most `width` wide (never enlarged), the master's aspect kept. */
export function encodeRendition(master: Master, width: number, format: RenditionFormat): Promise<Buffer> {
  return imagePool().run("encodeRendition", [master, width, format], { follows: true });
}

/** Every width in AVIF and WebP, named by `keyOf`. */
export async function encodeRenditions(
  master: Master,
  widths: readonly number[],
  keyOf: (width: number, format: RenditionFormat) => string,
): Promise<MediaFile[]> {
  const renditions = await imagePool().run("encodeRenditions", [master, widths], { follows: true });
  return namedFiles(renditions, keyOf);
}

/** Encoded renditions named by `keyOf`, ready to store. */
export function namedFiles(
  renditions: { width: number; format: RenditionFormat; bytes: Buffer }[],
  keyOf: (width: number, format: RenditionFormat) => string,
): MediaFile[] {
  return renditions.map(({ width, format, bytes }) => ({
    key: keyOf(width, format),
    bytes,
    contentType: CONTENT_TYPES[format],
  }));
}

/**
 * Stores every file, or none: when one write fails, the files this call created are deleted
 * again (a file already there, under its content-addressed key, may belong to someone else).
 */
export async function putAll(storage: Storage, files: MediaFile[]) {
  const existed = new Set(
    (await Promise.all(files.map(async (file) => ((await storage.exists(file.key)) ? file.key : null)))).filter(
      Boolean,
    ),
  );
  const results = await Promise.allSettled(files.map((file) => storage.put(file.key, file.bytes, file.contentType)));
  const failed = results.find((result) => result.status === "rejected");
  if (failed) {
    await Promise.allSettled(files.filter((file) => !existed.has(file.key)).map((file) => storage.delete(file.key)));
    throw failed.reason;
  }
}

/** Where a private original is kept: `private/<area>/<hash of its bytes>.webp`. */
export function originalKey(area: string, bytes: Uint8Array) {
  return `${PRIVATE_PREFIX}${area}/${createHash("sha256").update(bytes).digest("hex").slice(0, 32)}.webp`;
}
