import type { Placeholder, SQL } from "drizzle-orm";
import { applicationFeeKind } from "~/features/applications/fee-kind.server";
import { type CartSelector, loadCartPage } from "~/features/cart/cart-page.server";
import * as checkout from "~/features/commerce/checkout.server";
import type { ItemKind } from "~/features/commerce/item-kind";
import * as refunds from "~/features/commerce/refund.server";
import { settlementFor } from "~/features/commerce/settle.server";
import { entryKind } from "~/features/draws/entry-kind.server";
import { membershipKind } from "~/features/membership/membership-kind.server";
import { membershipBuyer } from "~/features/membership/memberships.server";
import { merchKind } from "~/features/shop/merch-kind.server";
import { ticketKind } from "~/features/tickets/ticket-kind.server";
import type { Db } from "~/server/db/client.server";

/**
 * Everything the site sells, in the one order their stock rows are locked (ADR 0007): events
 * and their ticket types, draws, merch variants, membership tiers; application fees lock their
 * applications after the order row. The commerce core knows no kind by name: this list is where a new kind joins.
 */
export const SOLD_KINDS: readonly ItemKind[] = [ticketKind, entryKind, merchKind, membershipKind, applicationFeeKind];

const settlement = settlementFor(SOLD_KINDS);

/**
 * Starts paying for a member's cart: see the commerce core's `startCheckout`. Whether the buyer is
 * a member (member prices, presales) is read now: a membership that has just ended loses them.
 */
export async function startCheckout(db: Db, input: checkout.CheckoutInput) {
  const buyer =
    input.member === undefined
      ? await membershipBuyer(db, input.userId, input.now)
      : { member: input.member, tierId: input.tierId ?? null };
  return checkout.startCheckout(db, SOLD_KINDS, { ...input, ...buyer });
}

/** An order staff make for a member inside the caller's transaction: see the commerce core's `placeOrderIn`. */
export function placeStaffOrder(tx: Db, input: checkout.PlaceOrderInput) {
  return checkout.placeOrderIn(tx, SOLD_KINDS, input);
}

/** Turns a payment into a paid order, exactly once: see the commerce core's `settlementFor`. */
export const settleOrder = settlement.settleOrder;

/** An order with its lines as settlement reads them, as SQL for a statement of the caller's. */
export function orderToSettleSql(orderId: SQL | Placeholder, now: SQL | Placeholder) {
  return settlement.orderToSettleSql(orderId, now);
}

/** Refunds a paid order or some of it: see the commerce core's `refundOrder`. */
export function refundOrder(db: Db, input: refunds.RefundInput) {
  return refunds.refundOrder(db, SOLD_KINDS, input);
}

/** The cart page: every kind's lines with today's prices (a member's own) and what stands in the way of paying. */
export async function loadCart(
  db: Db,
  input: CartSelector & { userId?: string; now: Date; currency?: string; timeZone?: string },
) {
  const buyer = await membershipBuyer(db, input.userId, input.now);
  return loadCartPage(db, SOLD_KINDS, { ...input, ...buyer });
}
