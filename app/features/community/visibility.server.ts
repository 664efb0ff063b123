import { and, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import { carPhotos, cars } from "../../../db/schema";

/**
 * Who is looking at a car: nobody signed in (`null`), or a member with their role. Every query
 * that shows a car or a photo takes its conditions from here, so the rules live in one place
 * (docs/community.md, "Who sees what").
 */
export type Viewer = { id: string; role: "member" | "organizer" | "admin" } | null;

const isStaff = (viewer: Viewer) => viewer !== null && (viewer.role === "organizer" || viewer.role === "admin");

/**
 * The cars `viewer` may see on the community pages:
 * - everyone: public cars that are not hidden;
 * - signed-in members: members-only cars too;
 * - the owner: all of their own cars, hidden or private;
 * - staff: hidden public and members-only cars too (to check a decision); private cars only in
 *   moderation (`moderation: true`).
 */
export function visibleCars(viewer: Viewer, options: { moderation?: boolean } = {}): SQL {
  if (options.moderation && isStaff(viewer)) return sql`true`;
  const audience = viewer
    ? or(eq(cars.visibility, "public"), eq(cars.visibility, "members"))!
    : eq(cars.visibility, "public");
  const shown = isStaff(viewer) ? audience : and(audience, isNull(cars.hiddenAt))!;
  return viewer ? or(eq(cars.ownerId, viewer.id), shown)! : shown;
}

/**
 * The photos of a visible car that `viewer` may see: hidden photos only for the car's owner and
 * staff. Join or filter `car_photos` on a car that already passed `visibleCars`.
 */
export function visiblePhotos(viewer: Viewer): SQL {
  if (isStaff(viewer)) return sql`true`;
  if (!viewer) return isNull(carPhotos.hiddenAt);
  return or(isNull(carPhotos.hiddenAt), eq(cars.ownerId, viewer.id))!;
}

/** The number plate as `viewer` may read it: the owner always; others only when the owner opted in. */
export function plateFor(
  car: { ownerId: string; plate: string | null; platePublic: boolean },
  viewer: Viewer,
): string | null {
  if (!car.plate) return null;
  if (car.platePublic || viewer?.id === car.ownerId) return car.plate;
  return null;
}
