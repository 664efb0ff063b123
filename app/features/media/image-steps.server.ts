import { createHash } from "node:crypto";
import sharp, { type Sharp } from "sharp";
import type { BlurRegion } from "../../../db/schema/garage";
import { checkImageStructure, type ImageKind, sniffImage } from "./image-checks.server";

// The work of turning uploads into stored pictures, step by step: checks, decoding, crops,
// blurs, encodings. Each step takes and gives plain data (bytes, numbers, raw pixels), so it can
// run in an image worker (image-worker.server.ts) as well as here; pipeline.server.ts is how the
// rest of the site calls them. Relative imports only: a worker loads this file on its own.

/** What is checked before any pixel is decoded. */
type UploadCheck = {
  maxBytes?: number;
  /** Decoding is refused above this many pixels: a small PNG can claim to be 14000 × 14000. */
  maxPixels: number;
  /** How messages name the upload: "photo" (members) or "image" (organizers). */
  noun: "photo" | "image";
};

/** A decoded picture: upright, sRGB, 8-bit, raw pixels with no metadata at all. */
export type Master = { data: Buffer; width: number; height: number; channels: 1 | 2 | 3 | 4; color: string };

type Refused = { ok: false; message: string };
/** An upload that passed every check but the layout's own size rule: its kind and upright size. */
type Inspected = { ok: true; kind: ImageKind; width: number; height: number } | Refused;
export type Prepared = { ok: true; kind: ImageKind; master: Master } | Refused;

const RENDITION_FORMATS = ["avif", "webp"] as const;
export type RenditionFormat = (typeof RENDITION_FORMATS)[number];
/** One encoded size of a picture, before it is named and stored. */
export type Rendition = { width: number; format: RenditionFormat; bytes: Buffer };

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

/** libheif in WebAssembly is loaded by the first HEIC, not by every process that reads a JPEG. */
const openHeic = async (bytes: Uint8Array) => (await import("./heic.server")).openHeic(bytes);

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
 * Every check of an upload that needs no decoded pixel, in order: a file too heavy, not a
 * picture (whatever its name), claiming more pixels than the cap, cut short, or carrying a web
 * page or an archive besides the picture. Every refusal is a message for the person uploading.
 * HEIC's size comes from its container, read by libheif (heic.server.ts).
 */
async function inspectUpload(bytes: Uint8Array, check: UploadCheck): Promise<Inspected> {
  const { noun } = check;
  if (check.maxBytes && bytes.byteLength > check.maxBytes) {
    return { ok: false, message: uploadMessages.tooHeavy(noun, check.maxBytes) };
  }
  const kind = sniffImage(bytes);
  if (!kind) return { ok: false, message: uploadMessages.notAnImage(noun) };
  if (kind === "heic") {
    const structure = checkImageStructure(bytes, "heic");
    if (structure === "hidden") return { ok: false, message: uploadMessages.hidden(noun) };
    const { image, close } = await openHeic(bytes);
    close();
    if (!image.ok || structure === "truncated") return { ok: false, message: uploadMessages.heic(noun) };
    if (image.width * image.height > check.maxPixels) {
      return { ok: false, message: uploadMessages.tooLarge(noun, check.maxPixels, image.width, image.height) };
    }
    return { ok: true, kind, width: image.width, height: image.height };
  }
  const size = await headerSize(bytes);
  if (size && size.width * size.height > check.maxPixels) {
    return { ok: false, message: uploadMessages.tooLarge(noun, check.maxPixels, size.width, size.height) };
  }
  const structure = checkImageStructure(bytes, kind);
  if (structure === "hidden") return { ok: false, message: uploadMessages.hidden(noun) };
  if (structure === "truncated" || !size) return { ok: false, message: uploadMessages.damaged(noun) };
  return { ok: true, kind, width: size.width, height: size.height };
}

/**
 * Decodes an inspected upload into a master: turned upright, scaled down to fit `maxSide`,
 * every piece of metadata left behind. libheif applies a HEIC's own rotation and mirroring and
 * hands over bare pixels, so nothing of its metadata survives either.
 */
async function decodeUpload(
  bytes: Uint8Array,
  options: { kind: ImageKind; maxPixels: number; maxSide: number; noun: "photo" | "image" },
): Promise<Prepared> {
  const { kind, maxPixels, maxSide, noun } = options;
  if (kind === "heic") return decodeHeic(bytes, options);
  try {
    const decoded = sharp(bytes, { limitInputPixels: maxPixels, failOn: "error" })
      .autoOrient()
      .resize(maxSide, maxSide, { fit: "inside", withoutEnlargement: true });
    return { ok: true, kind, master: await toMaster(decoded) };
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    if (/pixel limit/i.test(message)) return { ok: false, message: uploadMessages.tooLarge(noun, maxPixels) };
    return { ok: false, message: uploadMessages.damaged(noun) };
  }
}

async function decodeHeic(bytes: Uint8Array, options: { maxPixels: number; maxSide: number; noun: "photo" | "image" }) {
  const { image, close } = await openHeic(bytes);
  const refused: Refused = { ok: false, message: uploadMessages.heic(options.noun) };
  try {
    if (!image.ok) return refused;
    if (image.width * image.height > options.maxPixels) {
      return { ok: false, message: uploadMessages.tooLarge(options.noun, options.maxPixels) } satisfies Refused;
    }
    const pixels = await image.decode();
    const decoded = sharp(pixels, { raw: { width: image.width, height: image.height, channels: 4 } }).resize(
      options.maxSide,
      options.maxSide,
      { fit: "inside", withoutEnlargement: true },
    );
    return { ok: true, kind: "heic", master: await toMaster(decoded) } satisfies Prepared;
  } catch {
    return refused;
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
async function cropMaster(master: Master, width: number, height: number): Promise<Master> {
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
async function applyBlur(master: Master, regions: BlurRegion[]): Promise<Master> {
  if (regions.length === 0) return master;
  const raw = { width: master.width, height: master.height, channels: master.channels };
  const patches = [];
  for (const region of regions) {
    const area = regionPixels(region, master.width, master.height);
    const block = Math.max(8, Math.round(Math.max(area.width, area.height) / 10));
    const small = {
      width: Math.max(1, Math.ceil(area.width / block)),
      height: Math.max(1, Math.ceil(area.height / block)),
    };
    const pixelated = await fromMaster(master)
      .extract(area)
      .resize(small.width, small.height, { fit: "fill" })
      .raw()
      .toBuffer();
    const patch = await sharp(pixelated, { raw: { ...small, channels: master.channels } })
      .resize(area.width, area.height, { fit: "fill", kernel: "nearest" })
      .blur(Math.max(2, block / 3))
      .raw()
      .toBuffer();
    patches.push({ input: patch, raw: { width: area.width, height: area.height, channels: master.channels }, ...area });
  }
  // Compositing adds an alpha channel; a picture that had none keeps none.
  const composed = sharp(master.data, { raw }).composite(
    patches.map(({ input, raw: patchRaw, left, top }) => ({ input, raw: patchRaw, left, top })),
  );
  const blurred = await toMaster(master.channels % 2 === 1 ? composed.removeAlpha() : composed);
  return { ...blurred, color: master.color };
}

/** One rendition: at most `width` wide (never enlarged), the master's aspect kept. */
function encodeRendition(master: Master, width: number, format: RenditionFormat) {
  const sized = fromMaster(master).resize({ width: Math.min(width, master.width) });
  return format === "avif"
    ? sized.avif({ quality: 50, effort: 3 }).toBuffer()
    : sized.webp({ quality: 78, effort: 4 }).toBuffer();
}

/**
 * Every width in AVIF and WebP. They are encoded side by side on libuv's threads (sharp), as
 * they were before workers: that never held up the request thread, and it halves the time a
 * photo takes on two cores. What had to leave that thread is the decoding (HEIC's WebAssembly)
 * and the checks and hashes that read every byte.
 */
function encodeRenditions(master: Master, widths: readonly number[]): Promise<Rendition[]> {
  return Promise.all(
    widths.flatMap((width) =>
      RENDITION_FORMATS.map(async (format) => ({ width, format, bytes: await encodeRendition(master, width, format) })),
    ),
  );
}

/** The metadata-free master as a private original: WebP at high quality. */
function encodeOriginal(master: Master) {
  return fromMaster(master).webp({ quality: 90, effort: 4 }).toBuffer();
}

/** A stored picture (an original, a rendition) decoded back into a master. */
function decodeStored(bytes: Uint8Array) {
  return toMaster(sharp(bytes, { failOn: "error" }));
}

/** The public sizes of a car photo made from its original, with the blur applied, named by their pixels. */
async function carPhotoRenditions(original: Master, blur: BlurRegion[], widths: readonly number[]) {
  const blurred = await applyBlur(original, blur);
  return {
    hash: renditionHash(blurred),
    width: blurred.width,
    height: blurred.height,
    color: blurred.color,
    renditions: await encodeRenditions(blurred, widths),
  };
}

type CarPhotoUpload = {
  check: UploadCheck & { maxSide: number; minSide: number };
  blur: BlurRegion[];
  widths: readonly number[];
};

type CarPhotoFiles = Awaited<ReturnType<typeof carPhotoRenditions>> & { original: Buffer };

/**
 * A car photo from upload to files, in one go: checked, decoded, kept as a private original,
 * then every public size made from that original decoded back (so sizes made now and after a
 * later new blur come from exactly the same pixels). Nothing is stored here.
 */
async function carPhotoFiles(
  bytes: Uint8Array,
  upload: CarPhotoUpload,
): Promise<({ ok: true } & CarPhotoFiles) | Refused> {
  const { check } = upload;
  const inspected = await inspectUpload(bytes, check);
  if (!inspected.ok) return inspected;
  if (Math.min(inspected.width, inspected.height) < check.minSide) {
    return {
      ok: false,
      message: `This photo is too small (${inspected.width} × ${inspected.height} pixels). Choose one at least ${check.minSide} pixels on each side.`,
    };
  }
  const prepared = await decodeUpload(bytes, { ...check, kind: inspected.kind });
  if (!prepared.ok) return prepared;
  const originalBytes = await encodeOriginal(prepared.master);
  const original = await decodeStored(originalBytes);
  const made = await carPhotoRenditions(original, upload.blur, upload.widths);
  return { ok: true, ...made, original: originalBytes };
}

/** New public sizes of a car photo from its stored original, with a new set of blur regions. */
async function reblurredFiles(originalBytes: Uint8Array, blur: BlurRegion[], widths: readonly number[]) {
  return carPhotoRenditions(await decodeStored(originalBytes), blur, widths);
}

/**
 * The steps an image worker runs, by name. Each takes and answers only what can be copied
 * between threads: numbers, strings, bytes and plain objects of them.
 */
export const imageSteps = {
  inspectUpload,
  decodeUpload,
  cropMaster,
  encodeRendition,
  encodeRenditions,
  carPhotoFiles,
  reblurredFiles,
};
export type ImageSteps = typeof imageSteps;
export type ImageStep = keyof ImageSteps;

/**
 * Bytes copied between threads arrive as plain Uint8Arrays: turned back into Buffers (the same
 * memory, no copy), so both sides see the types they sent.
 */
export function withBuffers<T>(value: T): T {
  if (value instanceof Uint8Array) {
    return (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)) as T;
  }
  if (Array.isArray(value)) return value.map(withBuffers) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withBuffers(item)])) as T;
  }
  return value;
}
