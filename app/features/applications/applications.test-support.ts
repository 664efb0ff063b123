import { eq } from "drizzle-orm";
import { createBuyers, createTestEvent, NOW } from "~/features/checkout/stock.test-support";
import type { Db } from "~/server/db/client.server";
import { cars, events } from "../../../db/schema";

/** Events taking applications, members and their cars, made straight in the database for tests. */

export const APPLY_NOW = NOW;
export const DEADLINE = new Date(NOW.getTime() + 7 * 24 * 3600_000);

export async function createApplicationEvent(
  db: Db,
  settings: { spots?: number | null; fee?: number; open?: boolean; deadline?: Date | null } = {},
) {
  const event = await createTestEvent(db, { types: [{ name: "Entry", price: 1000 }] });
  await db
    .update(events)
    .set({
      applicationsOpen: settings.open ?? true,
      applicationsDeadline: settings.deadline === undefined ? DEADLINE : settings.deadline,
      applicationSpots: settings.spots === undefined ? 10 : settings.spots,
      applicationFee: settings.fee ?? 2500,
      applicationCriteria: "Clean, road-legal cars",
    })
    .where(eq(events.id, event.eventId));
  return event;
}

let carCount = 0;

/** Members, each with one car in their garage. */
export async function createMembersWithCars(db: Db, count: number) {
  const members = await createBuyers(db, count);
  const rows = members.map((member) => {
    carCount++;
    return { ownerId: member.id, make: "Mazda", model: `MX-5 ${carCount}`, year: 1991, visibility: "public" as const };
  });
  const inserted = await db.insert(cars).values(rows).returning({ id: cars.id, ownerId: cars.ownerId });
  return members.map((member) => ({ ...member, carId: inserted.find((car) => car.ownerId === member.id)!.id }));
}
