import { type AttemptRule, limitAttempts } from "~/features/accounts/attempts.server";
import { ipKey } from "~/features/accounts/ip-key";
import type { Db } from "~/server/db/client.server";

/**
 * Car photos come in batches (a car has up to 20), so their limit is wider than the avatar's, but
 * each one is decoded and encoded at five widths in two formats: counted per member and per
 * network before that work starts. A new blur makes the ten public sizes again from the
 * original, so it costs nearly as much as an upload and is counted the same way, on a count of
 * its own.
 */
const CAR_PHOTO_UPLOAD_RULES = {
  byMember: { max: 60, windowSeconds: 10 * 60 },
  byIp: { max: 150, windowSeconds: 10 * 60 },
} satisfies Record<string, AttemptRule>;

export async function limitCarPhotoUploads(db: Db, who: { userId: string; ip: string }, count = 1) {
  for (let i = 0; i < count; i++) {
    await limitAttempts(db, [
      [`car-photo-upload:${who.userId}`, CAR_PHOTO_UPLOAD_RULES.byMember],
      [`car-photo-upload-ip:${ipKey(who.ip)}`, CAR_PHOTO_UPLOAD_RULES.byIp],
    ]);
  }
}

/** Each new blur of a photo, like an upload: throws TooManyAttempts past the limit. */
export async function limitCarPhotoBlurs(db: Db, who: { userId: string; ip: string }) {
  await limitAttempts(db, [
    [`car-photo-blur:${who.userId}`, CAR_PHOTO_UPLOAD_RULES.byMember],
    [`car-photo-blur-ip:${ipKey(who.ip)}`, CAR_PHOTO_UPLOAD_RULES.byIp],
  ]);
}
