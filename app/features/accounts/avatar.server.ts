import { createHash } from "node:crypto";
import { and, eq, ne } from "drizzle-orm";
import { cropMaster, encodeRendition, prepareUpload, sniffImage } from "~/features/media/pipeline.server";
import type { Db } from "~/server/db/client.server";
import type { Storage } from "~/server/storage/storage.server";
import { users } from "../../../db/schema";
import { storedAvatarHash } from "./avatar-urls";

const AVATAR_SIZE = 256;
/** Decoding is refused above this many pixels (a "decompression bomb" is tiny on disk, huge in memory). */
const AVATAR_MAX_PIXELS = 8000 * 8000;

export { sniffImage };

export type AvatarImage = { ok: true; webp: Buffer; avif: Buffer; hash: string } | { ok: false; message: string };

/**
 * Turns an uploaded photo into the two stored avatar files through the media pipeline
 * (docs/media.md): a 256×256 square, WebP and AVIF, turned upright, with every piece of
 * metadata (EXIF, GPS, camera, colour profile) left out. Anything that is not a readable JPEG,
 * PNG, WebP or HEIC photo gets a message, never an error.
 */
export async function prepareAvatar(bytes: Uint8Array): Promise<AvatarImage> {
  const prepared = await prepareUpload(bytes, { maxPixels: AVATAR_MAX_PIXELS, maxSide: 2048, noun: "photo" });
  if (!prepared.ok) return prepared;
  const square = await cropMaster(prepared.master, AVATAR_SIZE, AVATAR_SIZE);
  const [webp, avif] = await Promise.all([
    encodeRendition(square, AVATAR_SIZE, "webp"),
    encodeRendition(square, AVATAR_SIZE, "avif"),
  ]);
  const hash = createHash("sha256").update(webp).digest("hex");
  return { ok: true, webp, avif, hash };
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
