import type { Storage } from "~/server/storage/storage.server";
import type { BlurRegion } from "../../../db/schema/garage";
import { CAR_PHOTO_WIDTHS, carPhotoKey } from "./car-photo-urls";
import { ImageWorkBusy, imagePool } from "./image-pool.server";
import type { Rendition } from "./image-steps.server";
import { namedFiles, originalKey, putAll } from "./pipeline.server";

export type { BlurRegion };

export const CAR_PHOTO_MAX_BYTES = 15 * 1024 * 1024;
/** Decoding is refused above this many pixels (a 100-megapixel camera still fits). */
const CAR_PHOTO_MAX_PIXELS = 10_000 * 10_000;
const CAR_PHOTO_MIN_SIDE = 320;
/** The private original is kept at most this wide or high: enough for every public size and a new blur. */
const ORIGINAL_MAX_SIDE = 3200;

const STORAGE_TROUBLE = "The photo could not be saved just now. Try again in a moment.";

/** A stored car photo; `bytes` is what its files take in storage, the original and every rendition. */
export type StoredCarPhoto = {
  hash: string;
  sourceKey: string;
  width: number;
  height: number;
  color: string;
  bytes: number;
};
/** `busy`: the image workers are full; the same photo may simply be sent again shortly. */
export type CarPhotoResult = { ok: true; photo: StoredCarPhoto } | { ok: false; message: string; busy?: true };

const renditionKeys = (hash: string) =>
  CAR_PHOTO_WIDTHS.flatMap((width) => (["avif", "webp"] as const).map((format) => carPhotoKey(hash, width, format)));

const renditionFiles = (hash: string, renditions: Rendition[]) =>
  namedFiles(renditions, (width, format) => carPhotoKey(hash, width, format));

const totalBytes = (files: { bytes: Uint8Array }[]) => files.reduce((sum, file) => sum + file.bytes.byteLength, 0);

/**
 * Checks, rotates, strips, stores the private clean original and the public renditions (blur
 * applied). The picture is made in an image worker, as one step counted against `member`'s
 * share; then this thread stores the files. Nothing is left in storage when it fails.
 */
export async function storeCarPhoto(
  storage: Storage,
  bytes: Uint8Array,
  options?: { blur?: BlurRegion[]; member?: string },
): Promise<CarPhotoResult> {
  let made: Awaited<ReturnType<typeof makeCarPhoto>>;
  try {
    made = await makeCarPhoto(bytes, options?.blur ?? [], options?.member);
  } catch (error) {
    if (error instanceof ImageWorkBusy) return { ok: false, message: error.message, busy: true };
    throw error;
  }
  if (!made.ok) return made;
  const original = { key: originalKey("cars", made.original), bytes: made.original };
  const files = [{ ...original, contentType: "image/webp" }, ...renditionFiles(made.hash, made.renditions)];
  try {
    await putAll(storage, files);
  } catch {
    // A storage outage: what this upload wrote is gone again (putAll), and the member may retry.
    return { ok: false, message: STORAGE_TROUBLE };
  }
  const { hash, width, height, color } = made;
  return { ok: true, photo: { hash, sourceKey: original.key, width, height, color, bytes: totalBytes(files) } };
}

function makeCarPhoto(bytes: Uint8Array, blur: BlurRegion[], member: string | undefined) {
  const check = {
    maxBytes: CAR_PHOTO_MAX_BYTES,
    maxPixels: CAR_PHOTO_MAX_PIXELS,
    maxSide: ORIGINAL_MAX_SIDE,
    minSide: CAR_PHOTO_MIN_SIDE,
    noun: "photo" as const,
  };
  return imagePool().run("carPhotoFiles", [bytes, { check, blur, widths: CAR_PHOTO_WIDTHS }], { member });
}

/**
 * Applies a new set of blur regions to every public size, from the private original; answers
 * the new hash (old renditions deleted unless still used). The sizes are made in an image
 * worker, counted against `member`'s share: ImageWorkBusy when it is full.
 */
export async function reblurCarPhoto(
  storage: Storage,
  photo: { hash: string; sourceKey: string },
  blur: BlurRegion[],
  options?: { keepOld?: boolean; member?: string },
): Promise<StoredCarPhoto> {
  const original = await storage.get(photo.sourceKey);
  if (!original) throw new Error(`The original ${photo.sourceKey} is not in storage`);
  const made = await imagePool().run("reblurredFiles", [original.bytes, blur, CAR_PHOTO_WIDTHS], {
    member: options?.member,
  });
  const files = renditionFiles(made.hash, made.renditions);
  await putAll(storage, files);
  if (made.hash !== photo.hash && !options?.keepOld) {
    await Promise.all(renditionKeys(photo.hash).map((key) => storage.delete(key)));
  }
  const { hash, width, height, color } = made;
  const bytes = original.bytes.byteLength + totalBytes(files);
  return { hash, sourceKey: photo.sourceKey, width, height, color, bytes };
}

/**
 * Deletes the photo's renditions and private original from storage. Keys are content-addressed:
 * when another car_photos row has the same hash or source key, delete only what no row shares
 * (`keep`).
 */
export async function deleteCarPhotoFiles(
  storage: Storage,
  photo: { hash: string; sourceKey: string },
  keep?: { renditions?: boolean; original?: boolean },
): Promise<void> {
  const keys = [...(keep?.renditions ? [] : renditionKeys(photo.hash)), ...(keep?.original ? [] : [photo.sourceKey])];
  await Promise.all(keys.map((key) => storage.delete(key)));
}

/** Every stored key of a photo, public and private (account export, tests). */
export function carPhotoFileKeys(photo: { hash: string; sourceKey: string }) {
  return [...renditionKeys(photo.hash), photo.sourceKey];
}
