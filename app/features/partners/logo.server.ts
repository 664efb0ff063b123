import sharp from "sharp";
import {
  encodeRenditions,
  type Master,
  type MediaFile,
  prepareUpload,
  putAll,
  renditionHash,
  toMaster,
} from "~/features/media/pipeline.server";
import type { Storage } from "~/server/storage/storage.server";
import { LOGO_BOX, LOGO_WIDTHS, logoKey } from "./logo-urls";

/** Under the site's 1 MB form limit with room for the rest of the form: logos are small files. */
const LOGO_MAX_BYTES = 900 * 1024;
const LOGO_MAX_PIXELS = 6000 * 6000;
const LOGO_MIN_SIDE = 64;

export type PreparedLogo =
  | { ok: true; hash: string; color: string; files: MediaFile[] }
  | { ok: false; message: string };

/** The whole master, fitted into the logo box with transparent margins: never cropped. */
async function fitLogo(master: Master): Promise<Master> {
  const image = sharp(master.data, { raw: { width: master.width, height: master.height, channels: master.channels } })
    .ensureAlpha()
    .resize(LOGO_BOX.width, LOGO_BOX.height, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } });
  return toMaster(image);
}

/**
 * An uploaded logo through the one media pipeline (docs/media.md): checked by content, decoded
 * under a pixel cap, metadata dropped, then fitted into the 2:1 box and encoded as AVIF and WebP
 * with their alpha channel. A file that is not a usable picture gets a message, never an error.
 */
export async function prepareLogo(bytes: Uint8Array): Promise<PreparedLogo> {
  const prepared = await prepareUpload(bytes, {
    maxBytes: LOGO_MAX_BYTES,
    maxPixels: LOGO_MAX_PIXELS,
    maxSide: 2000,
    noun: "image",
    checkSize: (width, height) =>
      Math.max(width, height) < LOGO_MIN_SIDE
        ? `This logo is too small (${width} × ${height} pixels). Choose one at least ${LOGO_MIN_SIDE} pixels wide.`
        : null,
  });
  if (!prepared.ok) return prepared;
  const master = await fitLogo(prepared.master);
  const hash = renditionHash(master);
  const files = await encodeRenditions(master, LOGO_WIDTHS, (width, format) => logoKey(hash, width, format));
  return { ok: true, hash, color: prepared.master.color, files };
}

export async function storeLogo(storage: Storage, logo: Extract<PreparedLogo, { ok: true }>) {
  await putAll(storage, logo.files);
}
