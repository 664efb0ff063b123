import { and, eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { carPhotos, carReports, cars, type ReportReason } from "../../../db/schema";
import { type Viewer, visibleCars, visiblePhotos } from "./visibility.server";

export type ReportInput = { carId: string; photoId?: string; reason: ReportReason; note: string };

export type ReportOutcome =
  | { ok: true; alreadyReported: boolean }
  | { ok: false; reason: "not-found" | "own-car"; field?: "photoId"; message: string };

/**
 * A member reports a car, or one of its photos, that they can see. One open report per member per
 * car or photo: a second report while the first is open changes nothing (the table's partial key).
 */
export async function reportCar(db: Db, viewer: NonNullable<Viewer>, input: ReportInput): Promise<ReportOutcome> {
  const [car] = await db
    .select({ id: cars.id, ownerId: cars.ownerId })
    .from(cars)
    .where(and(eq(cars.id, input.carId), visibleCars(viewer)));
  if (!car) return { ok: false, reason: "not-found", message: "This car could not be found." };
  if (car.ownerId === viewer.id) {
    return { ok: false, reason: "own-car", message: "This is your car: edit or delete it in your garage instead." };
  }
  if (input.photoId) {
    const [photo] = await db
      .select({ id: carPhotos.id })
      .from(carPhotos)
      .innerJoin(cars, eq(cars.id, carPhotos.carId))
      .where(and(eq(carPhotos.id, input.photoId), eq(carPhotos.carId, car.id), visiblePhotos(viewer)));
    if (!photo) return { ok: false, reason: "not-found", field: "photoId", message: "Choose a photo from this car" };
  }
  const added = await db
    .insert(carReports)
    .values({
      carId: car.id,
      photoId: input.photoId ?? null,
      reporterId: viewer.id,
      reason: input.reason,
      note: input.note,
    })
    .onConflictDoNothing()
    .returning({ id: carReports.id });
  return { ok: true, alreadyReported: added.length === 0 };
}
