import { eq } from "drizzle-orm";
import { expect } from "vitest";
import {
  checkoutFor,
  createBuyers,
  createTestEvent,
  fillCart,
  NOW,
  paidInFull,
} from "~/features/checkout/stock.test-support";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import type { OutboundEmail } from "~/server/mail/mail.server";
import { tickets } from "../../../db/schema";

export const BRAND = { siteName: "Pitlane", siteUrl: "https://pitlane.test" };

/**
 * A ticket type of `capacity` places at £45, every one bought by one member in one paid order:
 * sold out, with the holder's tickets.
 */
export async function soldOutWithHolder(db: Db, capacity = 2) {
  const { eventId, typeIds } = await createTestEvent(db, {
    types: [{ name: "Paddock", capacity, maxPerOrder: 4, price: 4500 }],
  });
  const [holder] = await createBuyers(db, 1);
  const cartId = await fillCart(db, holder!.id, [{ ticketTypeId: typeIds[0]!, quantity: capacity }]);
  const started = await startCheckout(db, checkoutFor(holder!, cartId));
  if (!started.ok) throw new Error(JSON.stringify(started.problems));
  expect((await settleOrder(db, paidInFull(started.order))).kind).toBe("settled");
  const held = await db
    .select({ id: tickets.id, code: tickets.code })
    .from(tickets)
    .where(eq(tickets.orderId, started.order.id));
  return { eventId, typeId: typeIds[0]!, holder: holder!, orderId: started.order.id, tickets: held, now: NOW };
}

/** The token in a transfer email's accept link. */
export function tokenOf(email: OutboundEmail) {
  const match = /\/tickets\/accept\/([\w-]+)/.exec(email.text);
  if (!match) throw new Error("The email has no accept link");
  return match[1]!;
}
