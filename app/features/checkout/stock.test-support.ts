import { randomUUID } from "node:crypto";
import type { Db } from "~/server/db/client.server";
import { cartItems, carts, events, ticketTypes, users } from "../../../db/schema";

/**
 * Events, buyers and carts made straight in the database for the commerce tests, so a test of
 * 500 buyers spends its time racing, not signing up.
 */

export const NOW = new Date("2027-05-01T10:00:00Z");

export type TestTicketType = {
  name: string;
  price?: number;
  capacity?: number | null;
  maxPerOrder?: number;
  days?: string[];
  salesStartAt?: Date | null;
  salesEndAt?: Date | null;
  hidden?: boolean;
};

let eventCount = 0;

export async function createTestEvent(
  db: Db,
  input: {
    title?: string;
    capacity?: number | null;
    status?: "draft" | "published" | "cancelled";
    startsAt?: Date;
    endsAt?: Date;
    types: TestTicketType[];
  },
) {
  eventCount++;
  const title = input.title ?? `Test meet ${eventCount}`;
  const [event] = await db
    .insert(events)
    .values({
      slug: `${title.toLowerCase().replace(/\W+/g, "-")}-${randomUUID().slice(0, 8)}`,
      title,
      type: "meet",
      status: input.status ?? "published",
      startsAt: input.startsAt ?? new Date("2027-06-12T09:00:00Z"),
      endsAt: input.endsAt ?? new Date("2027-06-13T17:00:00Z"),
      timeZone: "Europe/London",
      venue: "Test Circuit",
      town: "Testbury",
      capacity: input.capacity ?? null,
      publishedAt: NOW,
    })
    .returning({ id: events.id });
  const types = await db
    .insert(ticketTypes)
    .values(
      input.types.map((type, index) => ({
        eventId: event!.id,
        name: type.name,
        price: type.price ?? 1500,
        capacity: type.capacity === undefined ? 100 : type.capacity,
        maxPerOrder: type.maxPerOrder ?? 10,
        days: type.days ?? [],
        salesStartAt: type.salesStartAt ?? null,
        salesEndAt: type.salesEndAt ?? null,
        hidden: type.hidden ?? false,
        sortOrder: index,
      })),
    )
    .returning({ id: ticketTypes.id, name: ticketTypes.name });
  // Insertion order is not guaranteed by RETURNING: match them back by name.
  const typeIds = input.types.map((type) => types.find((row) => row.name === type.name)!.id);
  return { eventId: event!.id, title, typeIds };
}

let buyerCount = 0;

/** Members with confirmed emails, inserted in one statement. */
export async function createBuyers(db: Db, count: number) {
  const rows = Array.from({ length: count }, () => {
    buyerCount++;
    const id = randomUUID();
    return { id, name: `Buyer ${buyerCount}`, email: `buyer-${id}@example.test`, emailVerified: true };
  });
  await db.insert(users).values(rows);
  return rows.map(({ id, email }) => ({ id, email }));
}

type TicketLine = { ticketTypeId: string; quantity: number; attendeeNames?: string[] };

/** Adds ticket lines to a cart, in this order from `now`, written directly (no availability checks). */
export async function addTicketLines(db: Db, cartId: string, lines: TicketLine[], now = NOW) {
  if (lines.length === 0) return;
  await db.insert(cartItems).values(
    lines.map((line, index) => ({
      cartId,
      kind: "ticket" as const,
      ticketTypeId: line.ticketTypeId,
      quantity: line.quantity,
      attendeeNames: line.attendeeNames ?? [],
      createdAt: new Date(now.getTime() + index),
    })),
  );
}

/** A member's cart holding these lines, written directly (no availability checks). */
export async function fillCart(db: Db, userId: string, lines: TicketLine[]) {
  const [cart] = await db.insert(carts).values({ userId }).returning({ id: carts.id });
  await addTicketLines(db, cart!.id, lines);
  return cart!.id;
}

/** startCheckout's fixed inputs for a buyer. */
export function checkoutFor(buyer: { id: string; email: string }, cartId: string, now = NOW) {
  return { userId: buyer.id, email: buyer.email, cartId, now, currency: "GBP", provider: "test" as const };
}

/** settleOrder's input for the test provider's payment of an order in full. */
export function paidInFull(order: { id: string; total: number }, now = NOW) {
  return {
    orderId: order.id,
    provider: "test" as const,
    paymentReference: `pay_${order.id}`,
    amount: order.total,
    currency: "GBP",
    now,
  };
}
