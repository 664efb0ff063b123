import { and, asc, desc, eq, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import type { Db } from "~/server/db/client.server";
import { isUuid } from "~/server/db/uuid";
import { carPhotos, cars, users } from "../../../db/schema";
import type { CarVisibility } from "../../../db/schema/garage";
import { carDetailColumns } from "./car-columns";
import type { CarInput } from "./schemas";

// A member's own cars. Every query names the owner next to the car's id, so an id taken from an
// address or a form never reaches another member's car: it is simply "not found".

export type NotFound = { ok: false; notFound: true };
export const NOT_FOUND: NotFound = { ok: false, notFound: true };

/**
 * How much one member may keep in their garage: cars, photos on one car, photos across all
 * their cars. The site's settings (GARAGE_MAX_CARS, GARAGE_MAX_PHOTOS_PER_CAR,
 * GARAGE_MAX_PHOTOS; docs/garage.md); staff accounts have the same.
 */
export type GarageCaps = { cars: number; photosPerCar: number; photos: number };

export function garageCapsOf(settings: {
  GARAGE_MAX_CARS: number;
  GARAGE_MAX_PHOTOS_PER_CAR: number;
  GARAGE_MAX_PHOTOS: number;
}): GarageCaps {
  return {
    cars: settings.GARAGE_MAX_CARS,
    photosPerCar: settings.GARAGE_MAX_PHOTOS_PER_CAR,
    photos: settings.GARAGE_MAX_PHOTOS,
  };
}

export const capMessages = {
  cars: (max: number) =>
    `You can keep at most ${max} ${max === 1 ? "car" : "cars"} in your garage. Delete one to add another.`,
  photosPerCar: (max: number) =>
    `A car can have at most ${max} ${max === 1 ? "photo" : "photos"}. Remove one to add another.`,
  photos: (max: number) =>
    `You can keep at most ${max} ${max === 1 ? "photo" : "photos"} across your cars. Remove one to add another.`,
};

/**
 * Takes the member's garage for the rest of the transaction: the caps are counted under this
 * lock on the member's row, so two forms sent at once never take a member past one.
 */
export async function lockGarage(tx: Db, ownerId: string) {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, ownerId)).for("no key update");
}

export type GarageCar = {
  id: string;
  make: string;
  model: string;
  year: number;
  variant: string;
  visibility: CarVisibility;
  likeCount: number;
  hidden: boolean;
  photoCount: number;
  cover: { hash: string; width: number; height: number; color: string; alt: string } | null;
};

/**
 * The cover of a car: the photo its owner chose, or else its first photo. A hidden photo is
 * never a cover.
 */
// Qualified by hand: drizzle leaves columns unqualified in a one-table select, where "id" would
// name the photo's id inside these subqueries.
const coverPhotoId = sql`coalesce(
  (select p.id from car_photos p where p.id = "cars"."cover_photo_id" and p.hidden_at is null),
  (select p.id from car_photos p where p.car_id = "cars"."id" and p.hidden_at is null order by p.position, p.created_at limit 1)
)`;
/** The member's garage, newest first, each car with its cover and number of photos, in one query. */
export async function listMyCars(db: Db, ownerId: string): Promise<GarageCar[]> {
  const rows = await db
    .select({
      id: cars.id,
      make: cars.make,
      model: cars.model,
      year: cars.year,
      variant: cars.variant,
      visibility: cars.visibility,
      likeCount: cars.likeCount,
      hiddenAt: cars.hiddenAt,
      photoCount: sql<number>`(select count(*)::int from car_photos p where p.car_id = "cars"."id")`,
      coverHash: carPhotos.hash,
      coverWidth: carPhotos.width,
      coverHeight: carPhotos.height,
      coverColor: carPhotos.color,
      coverAlt: carPhotos.alt,
    })
    .from(cars)
    .leftJoin(carPhotos, eq(carPhotos.id, coverPhotoId))
    .where(eq(cars.ownerId, ownerId))
    .orderBy(desc(cars.createdAt), desc(cars.id));
  return rows.map((row) => ({
    id: row.id,
    make: row.make,
    model: row.model,
    year: row.year,
    variant: row.variant,
    visibility: row.visibility,
    likeCount: row.likeCount,
    hidden: row.hiddenAt !== null,
    photoCount: Number(row.photoCount),
    cover: row.coverHash
      ? {
          hash: row.coverHash,
          width: row.coverWidth!,
          height: row.coverHeight!,
          color: row.coverColor!,
          alt: row.coverAlt ?? "",
        }
      : null,
  }));
}

export type GaragePhoto = {
  id: string;
  hash: string;
  width: number;
  height: number;
  color: string;
  alt: string;
  position: number;
  blur: { x: number; y: number; w: number; h: number }[];
  hidden: boolean;
};

export type MyCar = CarInput & {
  id: string;
  likeCount: number;
  hiddenReason: string | null;
  hidden: boolean;
  coverPhotoId: string | null;
  photos: GaragePhoto[];
};

/** One of the member's cars with its photos in order, or null when it is not theirs (or not a car). */
export async function getMyCar(db: Db, ownerId: string, carId: string): Promise<MyCar | null> {
  if (!isUuid(carId)) return null;
  const [car] = await db
    .select({
      ...carDetailColumns,
      hiddenReason: cars.hiddenReason,
      coverPhotoId: coverPhotoId.mapWith(String),
    })
    .from(cars)
    .where(and(eq(cars.id, carId), eq(cars.ownerId, ownerId)));
  if (!car) return null;
  const photos = await db
    .select({
      id: carPhotos.id,
      hash: carPhotos.hash,
      width: carPhotos.width,
      height: carPhotos.height,
      color: carPhotos.color,
      alt: carPhotos.alt,
      position: carPhotos.position,
      blur: carPhotos.blur,
      hiddenAt: carPhotos.hiddenAt,
    })
    .from(carPhotos)
    .where(eq(carPhotos.carId, carId))
    .orderBy(asc(carPhotos.position), asc(carPhotos.createdAt));
  const { hiddenAt, ...rest } = car;
  return {
    ...rest,
    powerBhp: car.powerBhp ?? undefined,
    drivetrain: car.drivetrain ?? undefined,
    gearbox: car.gearbox ?? undefined,
    coverPhotoId: car.coverPhotoId ?? null,
    hidden: hiddenAt !== null,
    photos: photos.map(({ hiddenAt: photoHidden, ...photo }) => ({ ...photo, hidden: photoHidden !== null })),
  };
}

function carValues(car: CarInput) {
  return {
    make: car.make,
    model: car.model,
    year: car.year,
    variant: car.variant,
    colour: car.colour,
    engine: car.engine,
    powerBhp: car.powerBhp ?? null,
    drivetrain: car.drivetrain ?? null,
    gearbox: car.gearbox ?? null,
    modifications: car.modifications,
    story: car.story,
    plate: car.plate,
    // A plate can only be public when there is one.
    platePublic: Boolean(car.plate) && car.platePublic,
    visibility: car.visibility,
  };
}

/** "1991 Mazda MX-5": how a car is named in lists, messages and the audit log. */
export function carLabel(car: { year: number; make: string; model: string }) {
  return `${car.year} ${car.make} ${car.model}`;
}

/** Adds a car to the member's garage, unless they have `caps.cars` already. */
export async function createCar(
  db: Db,
  input: { ownerId: string; car: CarInput; caps: GarageCaps },
): Promise<{ ok: true; id: string } | { ok: false; message: string }> {
  return db.transaction(async (tx) => {
    await lockGarage(tx, input.ownerId);
    const [{ count } = { count: 0 }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(cars)
      .where(eq(cars.ownerId, input.ownerId));
    if (Number(count) >= input.caps.cars) return { ok: false as const, message: capMessages.cars(input.caps.cars) };
    const [created] = await tx
      .insert(cars)
      .values({ ownerId: input.ownerId, ...carValues(input.car) })
      .returning({ id: cars.id });
    await recordAudit(tx, {
      actorId: input.ownerId,
      action: "car.create",
      subjectType: "car",
      subjectId: created!.id,
      details: { car: carLabel(input.car), visibility: input.car.visibility },
    });
    return { ok: true as const, id: created!.id };
  });
}

export async function updateCar(db: Db, input: { ownerId: string; carId: string; car: CarInput }) {
  if (!isUuid(input.carId)) return NOT_FOUND;
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ visibility: cars.visibility })
      .from(cars)
      .where(and(eq(cars.id, input.carId), eq(cars.ownerId, input.ownerId)))
      .for("update");
    if (!before) return NOT_FOUND;
    await tx
      .update(cars)
      .set({ ...carValues(input.car), updatedAt: new Date() })
      .where(and(eq(cars.id, input.carId), eq(cars.ownerId, input.ownerId)));
    await recordAudit(tx, {
      actorId: input.ownerId,
      action: "car.update",
      subjectType: "car",
      subjectId: input.carId,
      details: { car: carLabel(input.car), visibility: input.car.visibility, was: before.visibility },
    });
    return { ok: true as const };
  });
}

/** Who may see the car, on its own (the list's quick switch). */
export async function setCarVisibility(db: Db, input: { ownerId: string; carId: string; visibility: CarVisibility }) {
  if (!isUuid(input.carId)) return NOT_FOUND;
  return db.transaction(async (tx) => {
    const [changed] = await tx
      .update(cars)
      .set({ visibility: input.visibility, updatedAt: new Date() })
      .where(and(eq(cars.id, input.carId), eq(cars.ownerId, input.ownerId)))
      .returning({ id: cars.id });
    if (!changed) return NOT_FOUND;
    await recordAudit(tx, {
      actorId: input.ownerId,
      action: "car.visibility",
      subjectType: "car",
      subjectId: input.carId,
      details: { visibility: input.visibility },
    });
    return { ok: true as const };
  });
}
