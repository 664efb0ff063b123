import { and, asc, desc, eq, inArray, isNotNull, or } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "~/server/db/client.server";
import { carPhotos, carReports, cars, users } from "../../../db/schema";

const reporters = alias(users, "reporters");

/**
 * The moderation queue: every car with an open report or a hidden car or photo, each with its
 * photos (hidden ones too) and its reports, oldest report first so nothing waits forever.
 * Three queries whatever the queue's length.
 */
export async function moderationQueue(db: Db, options: { limit?: number } = {}) {
  const limit = options.limit ?? 50;
  const reports = await db
    .select({
      id: carReports.id,
      carId: carReports.carId,
      photoId: carReports.photoId,
      reason: carReports.reason,
      note: carReports.note,
      status: carReports.status,
      createdAt: carReports.createdAt,
      reporterHandle: reporters.handle,
      reporterName: reporters.name,
    })
    .from(carReports)
    .leftJoin(reporters, eq(reporters.id, carReports.reporterId))
    .where(inArray(carReports.status, ["open", "hidden"]))
    .orderBy(asc(carReports.createdAt))
    .limit(500);
  const hiddenCars = await db
    .select({ id: cars.id })
    .from(cars)
    .leftJoin(carPhotos, and(eq(carPhotos.carId, cars.id), isNotNull(carPhotos.hiddenAt)))
    .where(or(isNotNull(cars.hiddenAt), isNotNull(carPhotos.id)))
    .limit(500);
  const carIds = [...new Set([...reports.map((report) => report.carId), ...hiddenCars.map((car) => car.id)])].slice(
    0,
    limit,
  );
  if (carIds.length === 0) return [];
  const [carRows, photos] = await Promise.all([
    db
      .select({
        id: cars.id,
        make: cars.make,
        model: cars.model,
        year: cars.year,
        variant: cars.variant,
        visibility: cars.visibility,
        hiddenAt: cars.hiddenAt,
        hiddenReason: cars.hiddenReason,
        featuredAt: cars.featuredAt,
        ownerName: users.name,
        ownerHandle: users.handle,
      })
      .from(cars)
      .innerJoin(users, eq(users.id, cars.ownerId))
      .where(inArray(cars.id, carIds)),
    db
      .select({
        id: carPhotos.id,
        carId: carPhotos.carId,
        hash: carPhotos.hash,
        width: carPhotos.width,
        height: carPhotos.height,
        color: carPhotos.color,
        alt: carPhotos.alt,
        hiddenAt: carPhotos.hiddenAt,
      })
      .from(carPhotos)
      .where(inArray(carPhotos.carId, carIds))
      .orderBy(asc(carPhotos.position)),
  ]);
  const order = new Map(carIds.map((id, index) => [id, index]));
  return carRows
    .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
    .map((car) => ({
      ...car,
      hidden: car.hiddenAt !== null,
      featured: car.featuredAt !== null,
      photos: photos
        .filter((photo) => photo.carId === car.id)
        .map(({ hiddenAt, carId: _carId, ...photo }) => ({ ...photo, hidden: hiddenAt !== null })),
      reports: reports.filter((report) => report.carId === car.id).map(({ carId: _carId, ...report }) => report),
    }));
}

export type ModerationCar = Awaited<ReturnType<typeof moderationQueue>>[number];

/** The cars on the home page now, newest pick first. */
export async function featuredList(db: Db) {
  return db
    .select({ id: cars.id, make: cars.make, model: cars.model, year: cars.year, featuredAt: cars.featuredAt })
    .from(cars)
    .where(isNotNull(cars.featuredAt))
    .orderBy(desc(cars.featuredAt))
    .limit(50);
}
