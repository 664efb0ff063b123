import {
  cropMaster,
  encodeRenditions,
  type MediaFile,
  prepareUpload,
  putAll,
  renditionHash,
} from "~/features/media/pipeline.server";
import type { Storage } from "~/server/storage/storage.server";
import { PRODUCT_IMAGE_ASPECT, PRODUCT_IMAGE_WIDTHS, productImageKey } from "./product-image-urls";

/** Decoding is refused above this many pixels: a small PNG can claim to be 14000 × 14000. */
const PRODUCT_IMAGE_MAX_PIXELS = 10_000 * 10_000;
const PRODUCT_IMAGE_MAX_BYTES = 15 * 1024 * 1024;
const MIN_WIDTH = 480;
const LARGEST_WIDTH = PRODUCT_IMAGE_WIDTHS[PRODUCT_IMAGE_WIDTHS.length - 1] ?? 1200;

export type PreparedProductImage =
  | { ok: true; hash: string; color: string; files: MediaFile[] }
  | { ok: false; message: string };

/**
 * An uploaded product photo through the media pipeline (docs/media.md): checked by content,
 * turned upright, cropped to 4:5 around what matters, every width in AVIF and WebP, no metadata.
 * Anything that is not a readable photo gets a message, never an error.
 */
export async function prepareProductImage(bytes: Uint8Array): Promise<PreparedProductImage> {
  const prepared = await prepareUpload(bytes, {
    maxBytes: PRODUCT_IMAGE_MAX_BYTES,
    maxPixels: PRODUCT_IMAGE_MAX_PIXELS,
    maxSide: 4000,
    noun: "image",
    checkSize: (width, height) =>
      Math.min(width, height * PRODUCT_IMAGE_ASPECT) < MIN_WIDTH
        ? `This image is too small (${width} × ${height} pixels). Choose one at least 480 × 600 pixels.`
        : null,
  });
  if (!prepared.ok) return prepared;
  const master = await cropMaster(prepared.master, LARGEST_WIDTH, Math.round(LARGEST_WIDTH / PRODUCT_IMAGE_ASPECT));
  const hash = renditionHash(master);
  const files = await encodeRenditions(master, PRODUCT_IMAGE_WIDTHS, (width, format) =>
    productImageKey(hash, width, format),
  );
  return { ok: true, hash, color: master.color, files };
}

export async function storeProductImage(storage: Storage, image: Extract<PreparedProductImage, { ok: true }>) {
  await putAll(storage, image.files);
  return { hash: image.hash, color: image.color };
}
