import { and, asc, eq, gt, sql } from "drizzle-orm";
import { getOrCreateCart, setCartItem } from "~/features/cart/cart.server";
import { startCheckout } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import type { PaymentGateway } from "~/server/payments/payments.server";
import { events, ticketTypes } from "../../../db/schema";
import { startOrderPayment } from "./start-payment.server";

/**
 * For end-to-end tests of the payment pages (ENABLE_TEST_FIXTURES only): puts tickets of the
 * first demo event on sale into the member's cart, checks out, and answers where paying starts,
 * the way the cart's Pay button will. Uses the real cart, checkout and payment functions.
 */
export async function startFixtureOrder(
  db: Db,
  gateway: PaymentGateway,
  input: { userId: string; email: string; currency: string; siteUrl: string; quantity: number; now: Date },
): Promise<string | null> {
  const candidates = await db
    .select({ id: ticketTypes.id })
    .from(ticketTypes)
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(
      and(
        eq(events.status, "published"),
        gt(events.startsAt, input.now),
        eq(ticketTypes.hidden, false),
        gt(ticketTypes.price, 0),
        sql`cardinality(${ticketTypes.days}) <= 1`,
      ),
    )
    .orderBy(asc(events.startsAt), asc(ticketTypes.sortOrder))
    .limit(20);
  const cartId = await getOrCreateCart(db, { userId: input.userId });
  for (const candidate of candidates) {
    const line = { cartId, ticketTypeId: candidate.id, quantity: input.quantity, now: input.now, userId: input.userId };
    if (!(await setCartItem(db, line)).ok) continue;
    const checkout = await startCheckout(db, { ...input, cartId, provider: gateway.provider });
    if (!checkout.ok) return null;
    const started = await startOrderPayment(db, gateway, { ...input, orderId: checkout.order.id });
    return started.kind === "redirect" ? started.url : null;
  }
  return null;
}
