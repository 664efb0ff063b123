import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import type { Db } from "~/server/db/client.server";
import { isUuid } from "~/server/db/uuid";
import type { Storage } from "~/server/storage/storage.server";
import { carPhotos, cars } from "../../../db/schema";
import type { BlurRegion } from "../../../db/schema/garage";
import { capMessages, carLabel, type GarageCaps, lockGarage, NOT_FOUND, type NotFound } from "./cars.server";

// A car's photos: adding (through the media pipeline), order, cover, description, blur areas,
// removing, and removing the car itself with its files.

/** `bytes`: what the photo's files take in storage. */
type StoredCarPhoto = { hash: string; sourceKey: string; width: number; height: number; color: string; bytes: number };
export type PhotoFiles = { hash: string; sourceKey: string };

type Refusal = { ok: false; message: string };
/** `busy`: the site could not take the picture just now; the same file may be sent again shortly. */
type BusyRefusal = Refusal & { busy?: true };

/**
 * The media pipeline's car-photo calls, handed in so the rules do not depend on how images are
 * made. `member` is whose share of the image workers the work counts against.
 */
export type CarPhotoMedia = {
  maxBytes: number;
  store(
    storage: Storage,
    bytes: Uint8Array,
    options: { blur?: BlurRegion[]; member?: string },
  ): Promise<{ ok: true; photo: StoredCarPhoto } | BusyRefusal>;
  reblur(
    storage: Storage,
    files: PhotoFiles,
    blur: BlurRegion[],
    member?: string,
  ): Promise<StoredCarPhoto | BusyRefusal>;
  /** `keep` names the files another photo still uses. */
  deleteFiles(storage: Storage, files: PhotoFiles, keep?: { renditions?: boolean; original?: boolean }): Promise<void>;
};

type PhotoCall = { db: Db; storage: Storage; media: CarPhotoMedia };

async function ownedCar(db: Db, ownerId: string, carId: string, lock = false) {
  if (!isUuid(carId)) return null;
  const query = db
    .select({ id: cars.id, year: cars.year, make: cars.make, model: cars.model, coverPhotoId: cars.coverPhotoId })
    .from(cars)
    .where(and(eq(cars.id, carId), eq(cars.ownerId, ownerId)));
  const [car] = lock ? await query.for("update") : await query;
  return car ?? null;
}

/**
 * Deletes files no photo row uses any more. Keys are content-addressed, so the same upload on two
 * cars (or twice on one) shares its files; they go only with the last photo that uses them.
 */
export async function deleteUnusedPhotoFiles(call: PhotoCall, files: PhotoFiles[]) {
  const seen = new Set<string>();
  for (const file of files) {
    const id = `${file.hash}:${file.sourceKey}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const renditions = await isUsed(call.db, eq(carPhotos.hash, file.hash));
    const original = await isUsed(call.db, eq(carPhotos.sourceKey, file.sourceKey));
    if (renditions && original) continue;
    await call.media.deleteFiles(call.storage, file, { renditions, original });
  }
}

async function isUsed(db: Db, where: SQL) {
  const [row] = await db.select({ id: carPhotos.id }).from(carPhotos).where(where).limit(1);
  return Boolean(row);
}

/**
 * Adds one uploaded photo at the end of the car's photos. The image is checked and stored first
 * (slow, outside any transaction); the counts are then checked again under the member's and the
 * car's locks, so two uploads at once never take a car or a member past their caps. Whatever is
 * refused leaves nothing stored.
 */
export async function addCarPhoto(
  call: PhotoCall,
  input: { ownerId: string; carId: string; bytes: Uint8Array; alt?: string; caps: GarageCaps },
): Promise<{ ok: true; photoId: string } | BusyRefusal | NotFound> {
  const { db, media } = call;
  const { caps } = input;
  const car = await ownedCar(db, input.ownerId, input.carId);
  if (!car) return NOT_FOUND;
  if (input.bytes.byteLength === 0) return { ok: false, message: "The file is empty. Choose a photo." };
  if (input.bytes.byteLength > media.maxBytes) {
    return { ok: false, message: `A photo can be at most ${Math.round(media.maxBytes / 1024 / 1024)} MB.` };
  }
  const full = overCap(await photoCounts(db, input.ownerId, input.carId), caps);
  if (full) return full;
  const stored = await media.store(call.storage, input.bytes, { member: input.ownerId });
  if (!stored.ok) return stored;
  const outcome = await db.transaction(async (tx) => {
    await lockGarage(tx, input.ownerId);
    const locked = await ownedCar(tx, input.ownerId, input.carId, true);
    if (!locked) return NOT_FOUND;
    const counts = await photoCounts(tx, input.ownerId, input.carId);
    const refused = overCap(counts, caps);
    if (refused) return refused;
    const [photo] = await tx
      .insert(carPhotos)
      .values({ carId: input.carId, ...stored.photo, alt: input.alt ?? "", position: counts.last + 1 })
      .returning({ id: carPhotos.id });
    await tx.update(cars).set({ updatedAt: new Date() }).where(eq(cars.id, input.carId));
    await recordAudit(tx, {
      actorId: input.ownerId,
      action: "car.photo.add",
      subjectType: "car",
      subjectId: input.carId,
      details: { car: carLabel(locked), photoId: photo!.id },
    });
    return { ok: true as const, photoId: photo!.id };
  });
  if (!outcome.ok) await deleteUnusedPhotoFiles(call, [stored.photo]);
  return outcome;
}

type PhotoCounts = { onCar: number; last: number; ofMember: number };

function overCap(counts: PhotoCounts, caps: GarageCaps): Refusal | null {
  if (counts.onCar >= caps.photosPerCar) return { ok: false, message: capMessages.photosPerCar(caps.photosPerCar) };
  if (counts.ofMember >= caps.photos) return { ok: false, message: capMessages.photos(caps.photos) };
  return null;
}

/** The car's photos and last position, and the member's photos on all their cars, in one query. */
async function photoCounts(db: Db, ownerId: string, carId: string): Promise<PhotoCounts> {
  const [row] = await db
    .select({
      onCar: sql<number>`count(*) filter (where ${carPhotos.carId} = ${carId})::int`,
      last: sql<number>`coalesce(max(${carPhotos.position}) filter (where ${carPhotos.carId} = ${carId}), -1)::int`,
      ofMember: sql<number>`count(*)::int`,
    })
    .from(carPhotos)
    .innerJoin(cars, eq(cars.id, carPhotos.carId))
    .where(eq(cars.ownerId, ownerId));
  return { onCar: Number(row?.onCar ?? 0), last: Number(row?.last ?? -1), ofMember: Number(row?.ofMember ?? 0) };
}

async function photoOf(db: Db, carId: string, photoId: string) {
  if (!isUuid(photoId)) return null;
  const [photo] = await db
    .select({ id: carPhotos.id, hash: carPhotos.hash, sourceKey: carPhotos.sourceKey, blur: carPhotos.blur })
    .from(carPhotos)
    .where(and(eq(carPhotos.id, photoId), eq(carPhotos.carId, carId)));
  return photo ?? null;
}

/** Puts the car's photos in the given order; photos left out keep their turn after those named. */
export async function orderCarPhotos(db: Db, input: { ownerId: string; carId: string; order: string[] }) {
  return db.transaction(async (tx) => {
    const car = await ownedCar(tx, input.ownerId, input.carId, true);
    if (!car) return NOT_FOUND;
    const photos = await tx
      .select({ id: carPhotos.id })
      .from(carPhotos)
      .where(eq(carPhotos.carId, input.carId))
      .orderBy(asc(carPhotos.position), asc(carPhotos.createdAt));
    const known = new Set(photos.map((photo) => photo.id));
    const named = [...new Set(input.order.filter((id) => known.has(id)))];
    const order = [...named, ...photos.map((photo) => photo.id).filter((id) => !named.includes(id))];
    await renumber(tx, input.carId, order);
    await recordAudit(tx, {
      actorId: input.ownerId,
      action: "car.photo.order",
      subjectType: "car",
      subjectId: input.carId,
      details: { car: carLabel(car), order },
    });
    return { ok: true as const };
  });
}

/** Moves one photo a place earlier or later (the keyboard's and the no-JavaScript way to reorder). */
export async function moveCarPhoto(
  db: Db,
  input: { ownerId: string; carId: string; photoId: string; direction: "up" | "down" },
) {
  const car = await ownedCar(db, input.ownerId, input.carId);
  if (!car) return NOT_FOUND;
  const photos = await db
    .select({ id: carPhotos.id })
    .from(carPhotos)
    .where(eq(carPhotos.carId, input.carId))
    .orderBy(asc(carPhotos.position), asc(carPhotos.createdAt));
  const order = photos.map((photo) => photo.id);
  const from = order.indexOf(input.photoId);
  if (from < 0) return NOT_FOUND;
  const to = input.direction === "up" ? from - 1 : from + 1;
  if (to < 0 || to >= order.length) return { ok: true as const };
  [order[from], order[to]] = [order[to]!, order[from]!];
  return orderCarPhotos(db, { ownerId: input.ownerId, carId: input.carId, order });
}

async function renumber(tx: Db, carId: string, order: string[]) {
  if (order.length === 0) return;
  await tx.execute(sql`
    update ${carPhotos} set position = o.position
    from (select * from unnest(${sql`array[${sql.join(
      order.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}]`}) with ordinality as t(id, position)) as o
    where ${carPhotos.id} = o.id and ${carPhotos.carId} = ${carId}`);
}

export async function setCarCover(db: Db, input: { ownerId: string; carId: string; photoId: string }) {
  return db.transaction(async (tx) => {
    const car = await ownedCar(tx, input.ownerId, input.carId, true);
    if (!car) return NOT_FOUND;
    const photo = await photoOf(tx, input.carId, input.photoId);
    if (!photo) return NOT_FOUND;
    await tx.update(cars).set({ coverPhotoId: photo.id, updatedAt: new Date() }).where(eq(cars.id, input.carId));
    await recordAudit(tx, {
      actorId: input.ownerId,
      action: "car.photo.cover",
      subjectType: "car",
      subjectId: input.carId,
      details: { car: carLabel(car), photoId: photo.id },
    });
    return { ok: true as const };
  });
}

export async function describeCarPhoto(
  db: Db,
  input: { ownerId: string; carId: string; photoId: string; alt: string },
) {
  const car = await ownedCar(db, input.ownerId, input.carId);
  if (!car) return NOT_FOUND;
  const [changed] = await db
    .update(carPhotos)
    .set({ alt: input.alt })
    .where(and(eq(carPhotos.id, input.photoId), eq(carPhotos.carId, input.carId)))
    .returning({ id: carPhotos.id });
  if (!changed) return NOT_FOUND;
  return { ok: true as const };
}

/**
 * Blurs the marked areas of a photo in every stored size. The new renditions have a new
 * content hash; the old ones are deleted once no photo uses them, so the unblurred plate is
 * no longer served.
 */
export async function blurCarPhoto(
  call: PhotoCall,
  input: { ownerId: string; carId: string; photoId: string; regions: BlurRegion[] },
): Promise<{ ok: true } | NotFound | BusyRefusal> {
  const car = await ownedCar(call.db, input.ownerId, input.carId);
  if (!car) return NOT_FOUND;
  const photo = await photoOf(call.db, input.carId, input.photoId);
  if (!photo) return NOT_FOUND;
  let stored: StoredCarPhoto | BusyRefusal;
  try {
    stored = await call.media.reblur(call.storage, photo, input.regions, input.ownerId);
  } catch {
    return { ok: false, message: "The blur could not be applied. Try again in a moment." };
  }
  if ("ok" in stored) return stored;
  await call.db.transaction(async (tx) => {
    await tx
      .update(carPhotos)
      .set({ ...stored, blur: input.regions })
      .where(eq(carPhotos.id, photo.id));
    await recordAudit(tx, {
      actorId: input.ownerId,
      action: "car.photo.blur",
      subjectType: "car",
      subjectId: input.carId,
      details: { car: carLabel(car), photoId: photo.id, areas: input.regions.length },
    });
  });
  if (stored.hash !== photo.hash) await deleteUnusedRenditions(call, photo);
  return { ok: true };
}

/** The old renditions of a re-blurred photo, when no other photo shows them; its original stays. */
async function deleteUnusedRenditions(call: PhotoCall, old: PhotoFiles) {
  if (await isUsed(call.db, eq(carPhotos.hash, old.hash))) return;
  await call.media.deleteFiles(call.storage, old, { original: true });
}

export async function removeCarPhoto(call: PhotoCall, input: { ownerId: string; carId: string; photoId: string }) {
  const removed = await call.db.transaction(async (tx) => {
    const car = await ownedCar(tx, input.ownerId, input.carId, true);
    if (!car) return null;
    const [photo] = await tx
      .delete(carPhotos)
      .where(and(eq(carPhotos.id, input.photoId), eq(carPhotos.carId, input.carId)))
      .returning({ id: carPhotos.id, hash: carPhotos.hash, sourceKey: carPhotos.sourceKey });
    if (!photo) return null;
    if (car.coverPhotoId === photo.id) {
      await tx.update(cars).set({ coverPhotoId: null }).where(eq(cars.id, input.carId));
    }
    await recordAudit(tx, {
      actorId: input.ownerId,
      action: "car.photo.remove",
      subjectType: "car",
      subjectId: input.carId,
      details: { car: carLabel(car), photoId: photo.id },
    });
    return photo;
  });
  if (!removed) return NOT_FOUND;
  await deleteUnusedPhotoFiles(call, [removed]);
  return { ok: true as const };
}

/** Deletes a car, its photos, likes, reports and applications' link to it; then its files. */
export async function deleteCar(call: PhotoCall, input: { ownerId: string; carId: string }) {
  if (!isUuid(input.carId)) return NOT_FOUND;
  const files = await call.db.transaction(async (tx) => {
    const car = await ownedCar(tx, input.ownerId, input.carId, true);
    if (!car) return null;
    const photos = await tx
      .select({ hash: carPhotos.hash, sourceKey: carPhotos.sourceKey })
      .from(carPhotos)
      .where(eq(carPhotos.carId, input.carId));
    await tx.delete(cars).where(eq(cars.id, input.carId));
    await recordAudit(tx, {
      actorId: input.ownerId,
      action: "car.delete",
      subjectType: "car",
      subjectId: input.carId,
      details: { car: carLabel(car), photos: photos.length },
    });
    return photos;
  });
  if (!files) return NOT_FOUND;
  await deleteUnusedPhotoFiles(call, files);
  return { ok: true as const };
}
