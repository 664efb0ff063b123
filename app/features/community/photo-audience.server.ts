import { eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { carPhotos, cars } from "../../../db/schema";
import type { Viewer } from "./visibility.server";

/**
 * Who may load the public sizes of the car photo whose files have `hash` (docs/community.md,
 * "Who sees what"): `everyone` when a photo with it is shown to anyone (a public car, neither it
 * nor the photo hidden); `viewer` when only this viewer may (the owner, staff, a member looking at
 * a members-only car); null when this viewer may not, or no photo has it any more. The same
 * picture uploaded twice shares its files, so the most open of its photos decides.
 */
export async function carPhotoAudience(db: Db, viewer: Viewer, hash: string): Promise<"everyone" | "viewer" | null> {
  const rows = await db
    .select({
      ownerId: cars.ownerId,
      visibility: cars.visibility,
      carHidden: cars.hiddenAt,
      photoHidden: carPhotos.hiddenAt,
    })
    .from(carPhotos)
    .innerJoin(cars, eq(cars.id, carPhotos.carId))
    .where(eq(carPhotos.hash, hash));
  const shown = rows.filter((row) => row.carHidden === null && row.photoHidden === null);
  if (shown.some((row) => row.visibility === "public")) return "everyone";
  if (!viewer || rows.length === 0) return null;
  // Staff check hidden and reported photos from /admin; the owner sees their own in the garage.
  if (viewer.role === "organizer" || viewer.role === "admin") return "viewer";
  if (rows.some((row) => row.ownerId === viewer.id)) return "viewer";
  return shown.some((row) => row.visibility === "members") ? "viewer" : null;
}
