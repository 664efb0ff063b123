import { type AnyColumn, and, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
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
  if (!viewer) return seenByAnyone(cars);
  const audience = or(eq(cars.visibility, "public"), eq(cars.visibility, "members"))!;
  const shown = isStaff(viewer) ? audience : and(audience, isNull(cars.hiddenAt))!;
  return or(eq(cars.ownerId, viewer.id), shown)!;
}

/** A car anyone may see, signed in or not: public, and not hidden by moderators. */
function seenByAnyone(table: { visibility: AnyColumn; hiddenAt: AnyColumn }): SQL {
  return and(eq(table.visibility, "public"), isNull(table.hiddenAt))!;
}

const SHARED_CAR = "shared_car";
const sharedCar = alias(cars, SHARED_CAR);

/** Whether the member `ownerId` names shares a car that anyone may see: what opens their profile. */
export function sharesPublicCar(ownerId: AnyColumn): SQL<boolean> {
  const shared = and(eq(sharedCar.ownerId, ownerId), seenByAnyone(sharedCar));
  return sql<boolean>`exists (select 1 from ${cars} ${sql.identifier(SHARED_CAR)} where ${shared})`;
}

/**
 * Whether `viewer` may open a member's profile (/community/{handle}): everyone, once the member
 * shares a car anyone may see; until then the member alone, as a preview of what others will
 * see. Other members and staff get the same 404 as for a handle nobody has, so a quiet member's
 * page does not even show that they are in the club (staff have the members' list in /admin).
 */
export function profileOpenTo(viewer: Viewer, member: { id: string; sharesPublicCar: boolean }) {
  return member.sharesPublicCar || viewer?.id === member.id;
}

/**
 * What others see of a member beside their name and handle: the town and the photo only once the
 * member chose to show them (`town_public`, `avatar_public`, off by default). The member's own
 * preview shows the same, so it is what everyone else sees.
 */
export function shownDetails(member: {
  town: string | null;
  townPublic: boolean;
  image: string | null;
  avatarPublic: boolean;
}) {
  return { town: member.townPublic ? member.town : null, image: member.avatarPublic ? member.image : null };
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
