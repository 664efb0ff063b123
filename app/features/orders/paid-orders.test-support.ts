import { eq } from "drizzle-orm";
import {
  addTicketLines,
  checkoutFor,
  createBuyers,
  createTestEvent,
  NOW,
  paidInFull,
} from "~/features/checkout/stock.test-support";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import { carts } from "../../../db/schema";

/**
 * A paid order for `buyer`, through the real checkout (at `now`) and settlement (a minute later,
 * unless told), for the tests of what comes after payment.
 */
export async function paidOrder(
  db: Db,
  buyer: { id: string; email: string },
  lines: { ticketTypeId: string; quantity: number; attendeeNames?: string[] }[],
  now = NOW,
  paidAt = new Date(now.getTime() + 60_000),
) {
  const [existing] = await db.select({ id: carts.id }).from(carts).where(eq(carts.userId, buyer.id));
  const cartId =
    existing?.id ?? (await db.insert(carts).values({ userId: buyer.id }).returning({ id: carts.id }))[0]!.id;
  await addTicketLines(db, cartId, lines, now);
  const checkout = await startCheckout(db, checkoutFor(buyer, cartId, now));
  if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));
  const outcome = await settleOrder(db, paidInFull(checkout.order, paidAt));
  if (outcome.kind !== "settled") throw new Error(`Not settled: ${outcome.kind}`);
  return checkout.order;
}

/** The settings an order's emails and tickets read: the site's name, address, signing secret and zone. */
export const ORDER_ENV = {
  SITE_NAME: "Pitlane",
  SITE_URL: "https://club.example",
  AUTH_SECRET: "a-test-secret-that-is-long-enough-to-sign",
  TIME_ZONE: "Europe/London",
};

/** A two-day event selling a Saturday day ticket (£24) and a weekend pass (£39). */
export function festivalOfSpeed(db: Db, times: { startsAt?: Date; endsAt?: Date } = {}) {
  return createTestEvent(db, {
    title: "Festival of Speed",
    ...times,
    types: [
      { name: "Saturday day ticket", price: 2400, days: ["2027-06-12"] },
      { name: "Weekend pass", price: 3900, days: ["2027-06-12", "2027-06-13"] },
    ],
  });
}

/** A new buyer's paid order of two Saturday day tickets and a weekend pass named for `attendee`. */
export async function festivalOrder(db: Db, attendee = "Sam Driver") {
  const event = await festivalOfSpeed(db);
  const [buyer] = await createBuyers(db, 1);
  const order = await paidOrder(db, buyer!, [
    { ticketTypeId: event.typeIds[0]!, quantity: 2 },
    { ticketTypeId: event.typeIds[1]!, quantity: 1, attendeeNames: [attendee] },
  ]);
  return { buyer: buyer!, order, event };
}
