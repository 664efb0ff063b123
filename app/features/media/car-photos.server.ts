import type { Storage } from "~/server/storage/storage.server";
import type { BlurRegion } from "../../../db/schema/garage";
import { CAR_PHOTO_WIDTHS, carPhotoKey } from "./car-photo-urls";
import {
  applyBlur,
  encodeRenditions,
  type Master,
  masterFromStored,
  prepareUpload,
  putAll,
  renditionHash,
  storeOriginal,
} from "./pipeline.server";

export type { BlurRegion };

export const CAR_PHOTO_MAX_BYTES = 15 * 1024 * 1024;
export const CAR_PHOTOS_PER_CAR = 20;
/** Decoding is refused above this many pixels (a 100-megapixel camera still fits). */
const CAR_PHOTO_MAX_PIXELS = 10_000 * 10_000;
const CAR_PHOTO_MIN_SIDE = 320;
/** The private original is kept at most this wide or high: enough for every public size and a new blur. */
const ORIGINAL_MAX_SIDE = 3200;

const STORAGE_TROUBLE = "The photo could not be saved just now. Try again in a moment.";

export type StoredCarPhoto = { hash: string; sourceKey: string; width: number; height: number; color: string };
export type CarPhotoResult = { ok: true; photo: StoredCarPhoto } | { ok: false; message: string };

const renditionKeys = (hash: string) =>
  CAR_PHOTO_WIDTHS.flatMap((width) => (["avif", "webp"] as const).map((format) => carPhotoKey(hash, width, format)));

async function storeRenditions(storage: Storage, master: Master, blur: BlurRegion[]) {
  const blurred = await applyBlur(master, blur);
  const hash = renditionHash(blurred);
  const files = await encodeRenditions(blurred, CAR_PHOTO_WIDTHS, (width, format) => carPhotoKey(hash, width, format));
  await putAll(storage, files);
  return { hash, width: blurred.width, height: blurred.height, color: blurred.color };
}

/** Checks, rotates, strips, stores the private clean original and the public renditions (blur applied). Nothing is left in storage when it fails. */
export async function storeCarPhoto(
  storage: Storage,
  bytes: Uint8Array,
  options?: { blur?: BlurRegion[] },
): Promise<CarPhotoResult> {
  const prepared = await prepareUpload(bytes, {
    maxBytes: CAR_PHOTO_MAX_BYTES,
    maxPixels: CAR_PHOTO_MAX_PIXELS,
    checkSize: (width, height) =>
      Math.min(width, height) < CAR_PHOTO_MIN_SIDE
        ? `This photo is too small (${width} × ${height} pixels). Choose one at least ${CAR_PHOTO_MIN_SIDE} pixels on each side.`
        : null,
    maxSide: ORIGINAL_MAX_SIDE,
    noun: "photo",
  });
  if (!prepared.ok) return prepared;
  const written: string[] = [];
  const tracked: Storage = {
    ...storage,
    // Keys are content-addressed: a file already there may belong to another photo, so only
    // files this upload created are taken back on failure.
    async put(key, data, contentType) {
      if (!(await storage.exists(key))) written.push(key);
      await storage.put(key, data, contentType);
    },
  };
  try {
    const original = await storeOriginal(tracked, prepared.master, "cars");
    const stored = await storeRenditions(tracked, original.master, options?.blur ?? []);
    return { ok: true, photo: { ...stored, sourceKey: original.key } };
  } catch {
    // A storage outage: whatever was written goes again, and the member may simply retry.
    await Promise.allSettled(written.map((key) => storage.delete(key)));
    return { ok: false, message: STORAGE_TROUBLE };
  }
}

/** Applies a new set of blur regions to every public size, from the private original; answers the new hash (old renditions deleted unless still used). */
export async function reblurCarPhoto(
  storage: Storage,
  photo: { hash: string; sourceKey: string },
  blur: BlurRegion[],
  options?: { keepOld?: boolean },
): Promise<StoredCarPhoto> {
  const master = await masterFromStored(storage, photo.sourceKey);
  const stored = await storeRenditions(storage, master, blur);
  if (stored.hash !== photo.hash && !options?.keepOld) {
    await Promise.all(renditionKeys(photo.hash).map((key) => storage.delete(key)));
  }
  return { ...stored, sourceKey: photo.sourceKey };
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
