import { and, desc, eq, inArray, notInArray, sql } from "drizzle-orm";
import { type MemberDataSection, memberRowsSection } from "~/features/accounts/member-data-section";
import type { Db } from "~/server/db/client.server";
import type { Storage } from "~/server/storage/storage.server";
import {
  carLikes,
  carPhotos,
  carReports,
  cars,
  exhibitorPasses,
  orderItems,
  showCarApplications,
} from "../../../db/schema";
import { carDetailColumns } from "./car-columns";
import { type CarPhotoMedia, deleteUnusedPhotoFiles, type PhotoFiles } from "./photos.server";

// What the garage keeps about a member, for "Download my data" and for deleting an account:
// their cars with photos, the likes they gave, the reports they made and their show-car
// applications.

/** Where a photo's largest public rendition is served, for the export (media base and key layout). */
export type PhotoAddress = (hash: string) => string;

function carData(photoAddress: PhotoAddress): MemberDataSection {
  return {
    name: "cars",
    tables: ["cars", "car_photos"],
    async collect(db, userId) {
      const owned = await db
        .select({
          ...carDetailColumns,
          hiddenReason: cars.hiddenReason,
          createdAt: cars.createdAt,
          updatedAt: cars.updatedAt,
        })
        .from(cars)
        .where(eq(cars.ownerId, userId))
        .orderBy(desc(cars.createdAt));
      const photos = owned.length
        ? await db
            .select({
              carId: carPhotos.carId,
              hash: carPhotos.hash,
              alt: carPhotos.alt,
              width: carPhotos.width,
              height: carPhotos.height,
              position: carPhotos.position,
              blur: carPhotos.blur,
              createdAt: carPhotos.createdAt,
            })
            .from(carPhotos)
            .where(
              inArray(
                carPhotos.carId,
                owned.map((car) => car.id),
              ),
            )
            .orderBy(carPhotos.carId, carPhotos.position)
        : [];
      return owned.map((car) => ({
        ...car,
        photos: photos
          .filter((photo) => photo.carId === car.id)
          .map(({ carId: _carId, hash, ...photo }) => ({ url: photoAddress(hash), ...photo })),
      }));
    },
    erase: async (tx, userId) => {
      await tx.delete(cars).where(eq(cars.ownerId, userId));
    },
  };
}

const likeData = memberRowsSection({
  name: "carLikes",
  table: carLikes,
  owner: carLikes.userId,
  columns: { carId: carLikes.carId, likedAt: carLikes.createdAt },
  newest: carLikes.createdAt,
  // Each liked car's count goes down with the like, in the same statement.
  erase: async (tx, userId) => {
    await tx.execute(sql`
      with removed as (delete from ${carLikes} where user_id = ${userId} returning car_id)
      update ${cars} set like_count = greatest(like_count - counts.n, 0)
      from (select car_id, count(*)::int as n from removed group by car_id) as counts
      where ${cars.id} = counts.car_id`);
  },
});

const reportData = memberRowsSection({
  name: "carReports",
  table: carReports,
  owner: carReports.reporterId,
  columns: {
    carId: carReports.carId,
    photoId: carReports.photoId,
    reason: carReports.reason,
    note: carReports.note,
    status: carReports.status,
    reportedAt: carReports.createdAt,
  },
  newest: carReports.createdAt,
});

const applicationData = memberRowsSection({
  name: "showCarApplications",
  table: showCarApplications,
  alsoCovers: ["exhibitor_passes"],
  owner: showCarApplications.userId,
  columns: {
    eventId: showCarApplications.eventId,
    car: showCarApplications.carLabel,
    note: showCarApplications.note,
    status: showCarApplications.status,
    fee: showCarApplications.fee,
    decisionNote: showCarApplications.decisionNote,
    paidAt: showCarApplications.paidAt,
    appliedAt: showCarApplications.createdAt,
  },
  newest: showCarApplications.createdAt,
  /**
   * An application paid for through an order stays, like the order, for the accounts, with
   * nothing about the member left in it; the others go (their passes with them).
   */
  erase: async (tx, userId) => {
    const billed = tx
      .select({ id: orderItems.applicationId })
      .from(orderItems)
      .where(sql`${orderItems.applicationId} is not null`);
    await tx
      .delete(showCarApplications)
      .where(and(eq(showCarApplications.userId, userId), notInArray(showCarApplications.id, billed)));
    await tx
      .update(showCarApplications)
      .set({ userId: null, carId: null, note: "", decisionNote: null, carLabel: "A deleted member's car" })
      .where(eq(showCarApplications.userId, userId));
    await tx.update(exhibitorPasses).set({ userId: null }).where(eq(exhibitorPasses.userId, userId));
  },
});

/** The garage's export and erase sections; applications first, as they point at cars. */
export function garageMemberData(photoAddress: PhotoAddress): MemberDataSection[] {
  return [applicationData, likeData, reportData, carData(photoAddress)];
}

/** The files of the member's car photos, read before the account's rows go. */
export async function memberPhotoFiles(db: Db, userId: string): Promise<PhotoFiles[]> {
  return db
    .select({ hash: carPhotos.hash, sourceKey: carPhotos.sourceKey })
    .from(carPhotos)
    .innerJoin(cars, eq(cars.id, carPhotos.carId))
    .where(eq(cars.ownerId, userId));
}

/** Deletes the files of a deleted member's photos that no other photo shares. */
export async function deleteMemberPhotoFiles(db: Db, storage: Storage, media: CarPhotoMedia, files: PhotoFiles[]) {
  await deleteUnusedPhotoFiles({ db, storage, media }, files);
}
