import { eq } from "drizzle-orm";
import { checkoutFor, NOW } from "~/features/checkout/stock.test-support";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import { cartItems, carts } from "../../../db/schema";

/** A paid order for `buyer`, through the real checkout and settlement, for the order tests. */
export async function paidOrder(
  db: Db,
  buyer: { id: string; email: string },
  lines: { ticketTypeId: string; quantity: number; attendeeNames?: string[] }[],
  now = NOW,
) {
  const [existing] = await db.select({ id: carts.id }).from(carts).where(eq(carts.userId, buyer.id));
  const cartId =
    existing?.id ?? (await db.insert(carts).values({ userId: buyer.id }).returning({ id: carts.id }))[0]!.id;
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
  const checkout = await startCheckout(db, checkoutFor(buyer, cartId, now));
  if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));
  const outcome = await settleOrder(db, {
    orderId: checkout.order.id,
    provider: "test",
    paymentReference: `pay_${checkout.order.id}`,
    amount: checkout.order.total,
    currency: "GBP",
    now: new Date(now.getTime() + 60_000),
  });
  if (outcome.kind !== "settled") throw new Error(`Not settled: ${outcome.kind}`);
  return checkout.order;
}
