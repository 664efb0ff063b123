import { eq, inArray } from "drizzle-orm";
import { createMembersWithCars } from "~/features/applications/applications.test-support";
import { createTestEvent, NOW } from "~/features/checkout/stock.test-support";
import { createTestDraw } from "~/features/draws/draws.test-support";
import { paidOrder } from "~/features/orders/paid-orders.test-support";
import type { Db } from "~/server/db/client.server";
import {
  drawEntries,
  type EventType,
  events,
  showCarApplications,
  type TicketStatus,
  tickets,
} from "../../../db/schema";

const DAY = 24 * 60 * 60 * 1000;

/** A published event of `type` starting `days` after NOW, for a day. */
export async function feedEvent(
  db: Db,
  input: { title: string; type?: EventType; days?: number; status?: "draft" | "published" | "cancelled" },
) {
  const startsAt = new Date(NOW.getTime() + (input.days ?? 30) * DAY);
  const event = await createTestEvent(db, {
    title: input.title,
    status: input.status ?? "published",
    startsAt,
    endsAt: new Date(startsAt.getTime() + 8 * 60 * 60 * 1000),
    types: [{ name: "Entry" }],
  });
  await db
    .update(events)
    .set({ type: input.type ?? "meet", updatedAt: NOW })
    .where(eq(events.id, event.eventId));
  return event;
}

/** Moves an event to start `days` after NOW. */
async function moveEvent(db: Db, eventId: string, days: number) {
  const startsAt = new Date(NOW.getTime() + days * DAY);
  await db
    .update(events)
    .set({ startsAt, endsAt: new Date(startsAt.getTime() + 8 * 60 * 60 * 1000) })
    .where(eq(events.id, eventId));
}

/** `member` holds one ticket to the event, in `status`. */
async function ticketFor(db: Db, member: { id: string; email: string }, typeId: string, status: TicketStatus) {
  const order = await paidOrder(db, member, [{ ticketTypeId: typeId, quantity: 1 }], NOW, NOW);
  await db.update(tickets).set({ status }).where(eq(tickets.orderId, order.id));
}

/**
 * A member with everything a personal calendar holds, and everything it must leave out, beside
 * another member with things of their own. `expected` are the UIDs (before "@host") of the
 * member's calendar.
 */
export async function memberCalendarScenario(db: Db) {
  const [member, other] = await createMembersWithCars(db, 2);
  const ticketed = await feedEvent(db, { title: "Ticketed meet" });
  // Tickets to past events are bought while on sale, then the events are moved back.
  const checkedIn = await feedEvent(db, { title: "Checked-in meet" });
  const refunded = await feedEvent(db, { title: "Refunded meet" });
  const longAgo = await feedEvent(db, { title: "Long ago meet" });
  const othersOnly = await feedEvent(db, { title: "Other member's meet" });
  await ticketFor(db, member!, ticketed.typeIds[0]!, "valid");
  // Two tickets to one event are one entry.
  await ticketFor(db, member!, ticketed.typeIds[0]!, "valid");
  await ticketFor(db, member!, checkedIn.typeIds[0]!, "checked_in");
  await ticketFor(db, member!, refunded.typeIds[0]!, "refunded");
  await ticketFor(db, member!, longAgo.typeIds[0]!, "valid");
  await ticketFor(db, other!, othersOnly.typeIds[0]!, "valid");
  await moveEvent(db, checkedIn.eventId, -2);
  await moveEvent(db, longAgo.eventId, -60);

  const show = await feedEvent(db, { title: "Summer show", type: "show", days: 40 });
  const pending = await feedEvent(db, { title: "Pending show", type: "show", days: 50 });
  const applications = await db
    .insert(showCarApplications)
    .values([
      {
        eventId: show.eventId,
        userId: member!.id,
        carId: member!.carId,
        carLabel: "1991 Mazda MX-5",
        status: "approved",
      },
      {
        eventId: pending.eventId,
        userId: member!.id,
        carId: member!.carId,
        carLabel: "1991 Mazda MX-5",
        status: "submitted",
      },
      { eventId: show.eventId, userId: other!.id, carId: other!.carId, carLabel: "1972 Datsun 240Z", status: "paid" },
    ])
    .returning({
      id: showCarApplications.id,
      userId: showCarApplications.userId,
      eventId: showCarApplications.eventId,
    });
  const slot = applications.find((row) => row.userId === member!.id && row.eventId === show.eventId)!;

  const entered = await createTestDraw(db, { title: "Track day draw" });
  const voided = await createTestDraw(db, { title: "Voided draw" });
  const othersDraw = await createTestDraw(db, { title: "Other member's draw" });
  const entry = (drawId: string, userId: string, number: number, status: "valid" | "void" = "valid") => ({
    drawId,
    userId,
    number,
    source: "free" as const,
    answer: 1,
    eligible: true,
    status,
  });
  await db
    .insert(drawEntries)
    .values([
      entry(entered.id, member!.id, 1),
      entry(entered.id, member!.id, 2),
      entry(voided.id, member!.id, 1, "void"),
      entry(othersDraw.id, other!.id, 1),
    ]);

  return {
    member: member!,
    other: other!,
    ticketed,
    show,
    entered,
    /** Ended 60 days before NOW: left out of a feed made at NOW. */
    stale: longAgo.eventId,
    expected: [ticketed.eventId, checkedIn.eventId, `show-car-${slot.id}`, `draw-closing-${entered.id}`].sort(),
  };
}

/** Marks events cancelled, as an organizer's cancellation does. */
export async function cancelEvents(db: Db, eventIds: string[], at: Date) {
  await db
    .update(events)
    .set({ status: "cancelled", cancelReason: "The circuit is flooded.", cancelledAt: at, updatedAt: at })
    .where(inArray(events.id, eventIds));
}
