import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { carLikes, cars } from "../../../db/schema";
import { type Viewer, visibleCars } from "./visibility.server";

export type LikeOutcome =
  | { ok: true; liked: boolean; likeCount: number }
  | { ok: false; reason: "not-found" | "own-car"; message: string };

/**
 * Likes or unlikes a car for a signed-in member: one like per member per car (the table's key),
 * and `like_count` moves in the same transaction, only when a like row was really added or
 * removed, so a double click or two tabs at once count once. Owners do not like their own cars
 * (docs/community.md, "Likes").
 */
export async function setCarLike(
  db: Db,
  viewer: NonNullable<Viewer>,
  input: { carId: string; like: boolean },
): Promise<LikeOutcome> {
  return db.transaction(async (tx) => {
    const [car] = await tx
      .select({ id: cars.id, ownerId: cars.ownerId })
      .from(cars)
      .where(and(eq(cars.id, input.carId), visibleCars(viewer)));
    if (!car) return { ok: false, reason: "not-found", message: "This car could not be found." };
    if (car.ownerId === viewer.id) {
      return { ok: false, reason: "own-car", message: "This is your car: likes come from other members." };
    }
    let delta = 0;
    if (input.like) {
      const added = await tx
        .insert(carLikes)
        .values({ carId: car.id, userId: viewer.id })
        .onConflictDoNothing()
        .returning({ carId: carLikes.carId });
      delta = added.length;
    } else {
      const removed = await tx
        .delete(carLikes)
        .where(and(eq(carLikes.carId, car.id), eq(carLikes.userId, viewer.id)))
        .returning({ carId: carLikes.carId });
      delta = -removed.length;
    }
    const [updated] = await tx
      .update(cars)
      .set({ likeCount: sql`greatest(${cars.likeCount} + ${delta}, 0)` })
      .where(eq(cars.id, car.id))
      .returning({ likeCount: cars.likeCount });
    return { ok: true, liked: input.like, likeCount: updated?.likeCount ?? 0 };
  });
}
