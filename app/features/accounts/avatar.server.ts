import { createHash } from "node:crypto";
import { and, eq, ne } from "drizzle-orm";
import sharp from "sharp";
import type { Db } from "~/server/db/client.server";
import type { Storage } from "~/server/storage/storage.server";
import { users } from "../../../db/schema";
import { storedAvatarHash } from "./avatar-urls";

export const AVATAR_SIZE = 256;
/** Decoding is refused above this many pixels (a "decompression bomb" is tiny on disk, huge in memory). */
export const AVATAR_MAX_PIXELS = 8000 * 8000;

type ImageKind = "jpeg" | "png" | "webp" | "heic";

// HEIF brands written by phones and cameras.
const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]);

/** The image kind the bytes really are, whatever name or type the browser gave the file. */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes.length >= 8 && ascii(0, 8) === "\x89PNG\r\n\x1a\n") return "png";
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  if (bytes.length >= 12 && ascii(4, 8) === "ftyp" && HEIF_BRANDS.has(ascii(8, 12))) return "heic";
  return null;
}

export type AvatarImage = { ok: true; webp: Buffer; avif: Buffer; hash: string } | { ok: false; message: string };

/**
 * Turns an uploaded photo into the two stored avatar files: a 256×256 square, WebP and AVIF,
 * turned upright, with every piece of metadata (EXIF, GPS, camera, colour profile) left out.
 * Anything that is not a readable JPEG, PNG, WebP or HEIC photo gets a message, never an error.
 */
export async function prepareAvatar(bytes: Uint8Array): Promise<AvatarImage> {
  const kind = sniffImage(bytes);
  if (!kind) return { ok: false, message: "Choose a JPEG, PNG, WebP or HEIC photo." };
  try {
    // The header alone says how large the image is; nothing is decoded yet.
    const { width = 0, height = 0 } = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (width * height > AVATAR_MAX_PIXELS) return { ok: false, message: tooLarge(width, height) };
    const decoded = sharp(bytes, { limitInputPixels: AVATAR_MAX_PIXELS, failOn: "error" });
    // sharp writes no metadata unless asked to, so EXIF and GPS never reach the stored files.
    const square = decoded.autoOrient().resize(AVATAR_SIZE, AVATAR_SIZE, { fit: "cover", position: "attention" });
    const [webp, avif] = await Promise.all([
      square.clone().webp({ quality: 82 }).toBuffer(),
      square.clone().avif({ quality: 55, effort: 4 }).toBuffer(),
    ]);
    const hash = createHash("sha256").update(webp).digest("hex");
    return { ok: true, webp, avif, hash };
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    if (/pixel limit/i.test(message)) return { ok: false, message: tooLarge() };
    if (kind === "heic") {
      return { ok: false, message: "This HEIC photo could not be read. Save it as a JPEG and choose it again." };
    }
    return { ok: false, message: "This photo could not be read. It may be damaged: try another one." };
  }
}

function tooLarge(width?: number, height?: number) {
  const size = width && height ? ` (${width} × ${height} pixels)` : "";
  return `This photo is too large${size}. Choose one of at most 8000 × 8000 pixels.`;
}

const avatarKeys = (hash: string) => ({ webp: `avatars/${hash}.webp`, avif: `avatars/${hash}.avif` });

/** Stores the prepared avatar and points the member's profile at it; the previous one is removed. */
export async function saveAvatar(
  db: Db,
  storage: Storage,
  userId: string,
  avatar: { webp: Buffer; avif: Buffer; hash: string },
) {
  const keys = avatarKeys(avatar.hash);
  await storage.put(keys.avif, avatar.avif, "image/avif");
  await storage.put(keys.webp, avatar.webp, "image/webp");
  const [previous] = await db.select({ image: users.image }).from(users).where(eq(users.id, userId));
  const image = storage.url(keys.webp);
  await db.update(users).set({ image, updatedAt: new Date() }).where(eq(users.id, userId));
  if (previous?.image !== image) await deleteAvatarFiles(db, storage, previous?.image, userId);
  return image;
}

export async function removeAvatar(db: Db, storage: Storage, userId: string) {
  const [previous] = await db.select({ image: users.image }).from(users).where(eq(users.id, userId));
  await db.update(users).set({ image: null, updatedAt: new Date() }).where(eq(users.id, userId));
  await deleteAvatarFiles(db, storage, previous?.image, userId);
}

/**
 * Deletes a stored avatar's files unless another member uses the same picture (keys are
 * content-addressed, so two members uploading the same photo share its files).
 */
export async function deleteAvatarFiles(db: Db, storage: Storage, image: string | null | undefined, userId: string) {
  const hash = storedAvatarHash(image);
  if (!hash || !image) return;
  const [shared] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.image, image), ne(users.id, userId)))
    .limit(1);
  if (shared) return;
  const keys = avatarKeys(hash);
  await Promise.all([storage.delete(keys.webp), storage.delete(keys.avif)]);
}
