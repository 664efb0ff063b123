import { randomBytes, randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { createApplicationEvent, createMembersWithCars } from "~/features/applications/applications.test-support";
import { NOW } from "~/features/checkout/stock.test-support";
import { paidOrder } from "~/features/orders/paid-orders.test-support";
import type { Db } from "~/server/db/client.server";
import {
  type ClassCriterion,
  type JudgingScheme,
  showCarApplications,
  showClasses,
  showEntries,
  showSettings,
  tickets,
  voteCategories,
} from "../../../db/schema";

/**
 * A car show made straight in the database for tests: an event taking applications, `cars` members
 * each with a paid application numbered 1, 2, 3… in one class (paint 30, engine bay 30, interior 20,
 * stance 20 unless given), a "People's Choice" category, and voting open from an hour before NOW
 * to an hour after.
 */
export async function createShow(
  db: Db,
  options: { cars?: number; scheme?: JudgingScheme; criteria?: Omit<ClassCriterion, "id">[]; className?: string } = {},
) {
  const event = await createApplicationEvent(db, { spots: 50, fee: 0 });
  const exhibitors = await createMembersWithCars(db, options.cars ?? 3);
  const criteria = (
    options.criteria ?? [
      { name: "Paint", weight: 30 },
      { name: "Engine bay", weight: 30 },
      { name: "Interior", weight: 20 },
      { name: "Stance", weight: 20 },
    ]
  ).map((criterion) => ({ id: randomUUID(), ...criterion }));
  const [showClass] = await db
    .insert(showClasses)
    .values({
      eventId: event.eventId,
      name: options.className ?? "Modified JDM",
      scheme: options.scheme ?? "weighted",
      criteria,
      createdAt: NOW,
    })
    .returning({ id: showClasses.id });
  const entries = [];
  for (const [index, exhibitor] of exhibitors.entries()) {
    const [application] = await db
      .insert(showCarApplications)
      .values({
        eventId: event.eventId,
        userId: exhibitor.id,
        carId: exhibitor.carId,
        carLabel: `1991 Mazda MX-5 number ${index + 1}`,
        status: "paid",
        paidAt: NOW,
      })
      .returning({ id: showCarApplications.id });
    const voteKey = randomBytes(12).toString("base64url");
    await db.insert(showEntries).values({
      applicationId: application!.id,
      eventId: event.eventId,
      classId: showClass!.id,
      showNumber: index + 1,
      voteKey,
      updatedAt: NOW,
    });
    entries.push({ applicationId: application!.id, showNumber: index + 1, voteKey, owner: exhibitor });
  }
  const [category] = await db
    .insert(voteCategories)
    .values({ eventId: event.eventId, slug: "peoples-choice", name: "People's Choice" })
    .returning({ id: voteCategories.id });
  await db.insert(showSettings).values({
    eventId: event.eventId,
    votingOpensAt: new Date(NOW.getTime() - 3_600_000),
    votingClosesAt: new Date(NOW.getTime() + 3_600_000),
  });
  return { ...event, classId: showClass!.id, criteria, entries, categoryId: category!.id };
}

/**
 * `count` visitors to the show's event, each with one ticket of its first type, checked in at the
 * gate unless `checkedIn` is false: the people who may vote.
 */
export async function admittedVisitors(
  db: Db,
  show: { typeIds: string[] },
  count: number,
  options: { checkedIn?: boolean } = {},
) {
  const visitors = await createMembersWithCars(db, count);
  const held = [];
  for (const visitor of visitors) {
    const { id } = await paidOrder(db, visitor, [{ ticketTypeId: show.typeIds[0]!, quantity: 1 }], NOW, NOW);
    const [ticket] = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.orderId, id));
    held.push({ ...visitor, ticketId: ticket!.id });
  }
  if (options.checkedIn !== false && held.length > 0) {
    await db
      .update(tickets)
      .set({ status: "checked_in", checkedInAt: NOW })
      .where(
        inArray(
          tickets.id,
          held.map((visitor) => visitor.ticketId),
        ),
      );
  }
  return held;
}
