import { createHash } from "node:crypto";
import sharp, { type Sharp } from "sharp";
import { PRIVATE_PREFIX, type Storage } from "~/server/storage/storage.server";
import type { BlurRegion } from "../../../db/schema/garage";
import { openHeic } from "./heic.server";
import { checkImageStructure, type ImageKind, sniffImage } from "./image-checks.server";

// The one way an uploaded picture becomes stored media (avatars, event covers, prize photos,
// car photos): checked by content, decoded under a pixel cap, turned upright, every piece of
// metadata left behind, then encoded as AVIF and WebP at the widths a layout uses under a key
// made from the picture itself. See docs/media.md.

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
};

/** A decoded picture: upright, sRGB, 8-bit, raw pixels with no metadata at all. */
export type Master = { data: Buffer; width: number; height: number; channels: 1 | 2 | 3 | 4; color: string };

export type Prepared = { ok: true; kind: ImageKind; master: Master } | { ok: false; message: string };

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;
const side = (pixels: number) => Math.floor(Math.sqrt(pixels));

const uploadMessages = {
  notAnImage: (noun: string) => `Choose a JPEG, PNG, WebP or HEIC ${noun}.`,
  tooHeavy: (noun: string, maxBytes: number) =>
    `Choose ${noun === "image" ? "an image" : "a photo"} of at most ${megabytes(maxBytes)}.`,
  tooLarge: (noun: string, maxPixels: number, width?: number, height?: number) =>
    `This ${noun} is too large${width && height ? ` (${width} × ${height} pixels)` : ""}. Choose one of at most ${side(maxPixels)} × ${side(maxPixels)} pixels.`,
  damaged: (noun: string) => `This ${noun} could not be read. It may be damaged: try another one.`,
  heic: (noun: string) => `This HEIC ${noun} could not be read. Save it as a JPEG and choose it again.`,
  hidden: (noun: string) =>
    `This ${noun} carries something else inside it (a web page, a script or an archive). Save the picture again as a plain JPEG, PNG or WebP and choose it again.`,
};

/** The picture's size as its header states it, read without decoding any pixels. */
async function headerSize(bytes: Uint8Array) {
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    const turned = (meta.orientation ?? 1) >= 5;
    const width = meta.width ?? 0;
    const height = meta.height ?? 0;
    return turned ? { width: height, height: width } : { width, height };
  } catch {
    return null;
  }
}

/**
 * Checks an upload and decodes it into a master. Every refusal is a message for the person
 * uploading, never an error: a file too heavy, not a picture (whatever its name), claiming
 * more pixels than the cap (refused before any pixel is decoded), cut short, carrying a web
 * page or an archive besides the picture, or too small.
 */
export async function prepareUpload(bytes: Uint8Array, limits: UploadLimits): Promise<Prepared> {
  const { noun } = limits;
  if (limits.maxBytes && bytes.byteLength > limits.maxBytes) {
    return { ok: false, message: uploadMessages.tooHeavy(noun, limits.maxBytes) };
  }
  const kind = sniffImage(bytes);
  if (!kind) return { ok: false, message: uploadMessages.notAnImage(noun) };
  if (kind === "heic") return prepareHeic(bytes, limits);
  const size = await headerSize(bytes);
  if (size && size.width * size.height > limits.maxPixels) {
    return { ok: false, message: uploadMessages.tooLarge(noun, limits.maxPixels, size.width, size.height) };
  }
  const structure = checkImageStructure(bytes, kind);
  if (structure === "hidden") return { ok: false, message: uploadMessages.hidden(noun) };
  if (structure === "truncated" || !size) {
    return { ok: false, message: uploadMessages.damaged(noun) };
  }
  const sizeProblem = limits.checkSize?.(size.width, size.height);
  if (sizeProblem) return { ok: false, message: sizeProblem };
  try {
    const decoded = sharp(bytes, { limitInputPixels: limits.maxPixels, failOn: "error" })
      .autoOrient()
      .resize(limits.maxSide, limits.maxSide, { fit: "inside", withoutEnlargement: true });
    return { ok: true, kind, master: await toMaster(decoded) };
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    if (/pixel limit/i.test(message)) return { ok: false, message: uploadMessages.tooLarge(noun, limits.maxPixels) };
    return { ok: false, message: uploadMessages.damaged(noun) };
  }
}

/**
 * HEIC through libheif (heic.server.ts): the same checks in the same order, with the size read
 * from the container before decoding. libheif applies the picture's own rotation and mirroring,
 * and hands over bare pixels, so nothing of its metadata survives either.
 */
async function prepareHeic(bytes: Uint8Array, limits: UploadLimits): Promise<Prepared> {
  const { noun } = limits;
  const structure = checkImageStructure(bytes, "heic");
  if (structure === "hidden") return { ok: false, message: uploadMessages.hidden(noun) };
  const { image, close } = await openHeic(bytes);
  try {
    if (!image.ok || structure === "truncated") return { ok: false, message: uploadMessages.heic(noun) };
    if (image.width * image.height > limits.maxPixels) {
      return { ok: false, message: uploadMessages.tooLarge(noun, limits.maxPixels, image.width, image.height) };
    }
    const sizeProblem = limits.checkSize?.(image.width, image.height);
    if (sizeProblem) return { ok: false, message: sizeProblem };
    const pixels = await image.decode();
    const decoded = sharp(pixels, { raw: { width: image.width, height: image.height, channels: 4 } }).resize(
      limits.maxSide,
      limits.maxSide,
      { fit: "inside", withoutEnlargement: true },
    );
    return { ok: true, kind: "heic", master: await toMaster(decoded) };
  } catch {
    return { ok: false, message: uploadMessages.heic(noun) };
  } finally {
    close();
  }
}

/** Raw pixels of a pipeline: nothing of the source's metadata survives this step. */
export async function toMaster(image: Sharp): Promise<Master> {
  const { data, info } = await image
    .toColourspace("srgb")
    .raw({ depth: "uchar" })
    .toBuffer({ resolveWithObject: true });
  const master = { data, width: info.width, height: info.height, channels: info.channels, color: "#000000" };
  master.color = await averageColour(master);
  return master;
}

const fromMaster = (master: Master) =>
  sharp(master.data, { raw: { width: master.width, height: master.height, channels: master.channels } });

async function averageColour(master: Master) {
  const { data } = await fromMaster(master)
    .removeAlpha()
    .toColourspace("srgb")
    .resize(1, 1, { fit: "fill" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const [r = 0, g = r, b = r] = data;
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

/** A name made from the pixels themselves: the same picture always gets the same keys. */
export function renditionHash(master: Master) {
  return createHash("sha256")
    .update(`${master.width}x${master.height}x${master.channels}\n`)
    .update(master.data)
    .digest("hex")
    .slice(0, 32);
}

/** Crops a master to a fixed shape around what matters most in it (covers, avatars). */
export async function cropMaster(master: Master, width: number, height: number): Promise<Master> {
  return toMaster(fromMaster(master).resize(width, height, { fit: "cover", position: "attention" }));
}

/** Clamps a blur region to the picture and turns its fractions into whole pixels. */
function regionPixels(region: BlurRegion, width: number, height: number) {
  const clamp = (value: number) => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0);
  const x0 = clamp(region.x);
  const y0 = clamp(region.y);
  const x1 = clamp(region.x + region.w);
  const y1 = clamp(region.y + region.h);
  const left = Math.min(width - 1, Math.floor(x0 * width));
  const top = Math.min(height - 1, Math.floor(y0 * height));
  return {
    left,
    top,
    width: Math.max(1, Math.min(width - left, Math.ceil(x1 * width) - left)),
    height: Math.max(1, Math.min(height - top, Math.ceil(y1 * height) - top)),
  };
}

/**
 * Hides each region for good: pixelated into blocks about a tenth of the region's longer side,
 * then blurred, so neither a plate's characters nor a face can be read back from any size made
 * from the result.
 */
export async function applyBlur(master: Master, regions: BlurRegion[]): Promise<Master> {
  if (regions.length === 0) return master;
  const raw = { width: master.width, height: master.height, channels: master.channels };
  const patches = await Promise.all(
    regions.map(async (region) => {
      const area = regionPixels(region, master.width, master.height);
      const block = Math.max(8, Math.round(Math.max(area.width, area.height) / 10));
      const small = await fromMaster(master)
        .extract(area)
        .resize(Math.max(1, Math.ceil(area.width / block)), Math.max(1, Math.ceil(area.height / block)), {
          fit: "fill",
        })
        .raw()
        .toBuffer();
      const patch = await sharp(small, {
        raw: {
          width: Math.max(1, Math.ceil(area.width / block)),
          height: Math.max(1, Math.ceil(area.height / block)),
          channels: master.channels,
        },
      })
        .resize(area.width, area.height, { fit: "fill", kernel: "nearest" })
        .blur(Math.max(2, block / 3))
        .raw()
        .toBuffer();
      return { input: patch, raw: { width: area.width, height: area.height, channels: master.channels }, ...area };
    }),
  );
  // Compositing adds an alpha channel; a picture that had none keeps none.
  const composed = sharp(master.data, { raw }).composite(
    patches.map(({ input, raw: patchRaw, left, top }) => ({ input, raw: patchRaw, left, top })),
  );
  const blurred = await toMaster(master.channels % 2 === 1 ? composed.removeAlpha() : composed);
  return { ...blurred, color: master.color };
}

export type MediaFile = { key: string; bytes: Buffer; contentType: string };
const RENDITION_FORMATS = ["avif", "webp"] as const;
export type RenditionFormat = (typeof RENDITION_FORMATS)[number];
const CONTENT_TYPES = { avif: "image/avif", webp: "image/webp" } as const;

/** One rendition: at most `width` wide (never enlarged), the master's aspect kept. */
export function encodeRendition(master: Master, width: number, format: RenditionFormat) {
  const sized = fromMaster(master).resize({ width: Math.min(width, master.width) });
  return format === "avif"
    ? sized.avif({ quality: 50, effort: 3 }).toBuffer()
    : sized.webp({ quality: 78, effort: 4 }).toBuffer();
}

/** Every width in AVIF and WebP, named by `keyOf`. */
export function encodeRenditions(
  master: Master,
  widths: readonly number[],
  keyOf: (width: number, format: RenditionFormat) => string,
): Promise<MediaFile[]> {
  return Promise.all(
    widths.flatMap((width) =>
      RENDITION_FORMATS.map(async (format) => ({
        key: keyOf(width, format),
        bytes: await encodeRendition(master, width, format),
        contentType: CONTENT_TYPES[format],
      })),
    ),
  );
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

/**
 * Keeps the metadata-free master as the private original a new blur is made from: WebP at high
 * quality, under `private/<area>/<hash>.webp`. Answers its key and the master decoded back from
 * it, so renditions made now and after a later new blur come from exactly the same pixels.
 */
export async function storeOriginal(storage: Storage, master: Master, area: string) {
  const bytes = await fromMaster(master).webp({ quality: 90, effort: 4 }).toBuffer();
  const key = `${PRIVATE_PREFIX}${area}/${createHash("sha256").update(bytes).digest("hex").slice(0, 32)}.webp`;
  await storage.put(key, bytes, "image/webp");
  return { key, master: await toMaster(sharp(bytes)) };
}

/** The master again, from a stored private original. */
export async function masterFromStored(storage: Storage, key: string): Promise<Master> {
  const file = await storage.get(key);
  if (!file) throw new Error(`The original ${key} is not in storage`);
  return toMaster(sharp(file.bytes, { failOn: "error" }));
}
