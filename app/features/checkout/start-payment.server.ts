import { and, asc, eq, isNull } from "drizzle-orm";
import { formatOrderNumber } from "~/features/commerce/order-number";
import { cancelOrder } from "~/features/orders/cancel.server";
import { isOrderId } from "~/features/orders/order-id";
import { orderEntriesPlayProblem } from "~/features/play/order-play.server";
import { settleOrder } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import type { PaymentGateway } from "~/server/payments/payments.server";
import { formatMoney } from "~/ui/money";
import { membershipTiers, orderItems, orders } from "../../../db/schema";
import { followUpsOf, NO_FOLLOW_UPS, type PaymentFollowUps } from "./payment-follow-ups";

export type StartOrderPaymentResult =
  | { kind: "redirect"; url: string; followUps: PaymentFollowUps }
  /** Not this member's order, or made for a payment provider the site no longer uses. */
  | { kind: "not_found" };

/**
 * Where the buyer lands after paying, or after giving up at the provider (`cancelled=1`, where
 * /return offers to cancel the order without cancelling it).
 */
function returnPath(orderId: string, extra = "") {
  return `/return?order=${orderId}${extra}`;
}

/**
 * Sends the buyer of a pending order (made by `startCheckout`) to the payment provider: a Stripe
 * Checkout Session, or the test checkout. The session is made once per order: the request carries
 * an idempotency key of the order, an order that already has a session goes back to it while it
 * is open, and the session id is stored only if none was stored meanwhile. A free order needs no
 * payment and is settled at once. An order that is no longer pending goes to /return, which says
 * how it ended.
 */
export async function startOrderPayment(
  db: Db,
  gateway: PaymentGateway,
  input: { orderId: string; userId: string; siteUrl: string; now: Date },
): Promise<StartOrderPaymentResult> {
  if (!isOrderId(input.orderId)) return { kind: "not_found" };
  const [order] = await db
    .select({
      id: orders.id,
      number: orders.number,
      email: orders.email,
      currency: orders.currency,
      total: orders.total,
      credit: orders.credit,
      shipping: orders.shipping,
      shippingMethod: orders.shippingMethod,
      status: orders.status,
      provider: orders.provider,
      holdExpiresAt: orders.holdExpiresAt,
      sessionId: orders.providerSessionId,
    })
    .from(orders)
    .where(and(eq(orders.id, input.orderId), eq(orders.userId, input.userId)));
  if (!order || order.provider !== gateway.provider) return { kind: "not_found" };
  const back = { kind: "redirect" as const, url: returnPath(order.id), followUps: NO_FOLLOW_UPS };
  if (order.status !== "pending") return back;
  // Entries held before a break began, or before a limit was lowered, cannot be paid for now.
  const play = await orderEntriesPlayProblem(db, { ...input, currency: order.currency });
  if (play) {
    await cancelOrder(db, { orderId: order.id, userId: input.userId, reason: play.message, now: input.now });
    return back;
  }

  if (order.total === 0) {
    const outcome = await settleOrder(db, {
      orderId: order.id,
      provider: order.provider,
      paymentReference: `free_${order.id}`,
      amount: 0,
      currency: order.currency,
      now: input.now,
    });
    return { ...back, followUps: followUpsOf([outcome]) };
  }

  if (order.sessionId) {
    const state = await gateway.retrievePayment(order.sessionId);
    return state.status === "open" && state.redirectUrl ? { ...back, url: state.redirectUrl } : back;
  }

  const rows = await db
    .select({
      description: orderItems.description,
      unitPrice: orderItems.unitPrice,
      quantity: orderItems.quantity,
      discount: orderItems.discount,
    })
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.createdAt), asc(orderItems.id));
  const lines = rows.map(providerLine);
  const saveCard = await joinsRenewingMembership(db, order.id);
  // Shipping is a line of its own, so what the provider charges adds up to the order's total.
  if (order.shipping > 0) {
    lines.push({
      description: order.shippingMethod === "collection" ? "Collection" : "Delivery",
      unitAmount: order.shipping,
      quantity: 1,
    });
  }
  // Account credit paid part of the order (docs/credit.md): a provider charges no line below
  // nothing, so the rest is asked for as one line that says so.
  if (order.credit > 0) {
    lines.splice(0, lines.length, {
      description: `Order ${formatOrderNumber(order.number)}, after ${formatMoney(order.credit, order.currency)} of account credit`,
      unitAmount: order.total,
      quantity: 1,
    });
  }
  const site = input.siteUrl.replace(/\/$/, "");
  const session = await gateway.startPayment({
    order,
    lines,
    // Stripe puts the session's id in place of {CHECKOUT_SESSION_ID}.
    successUrl: `${site}${returnPath(order.id, "&session_id={CHECKOUT_SESSION_ID}")}`,
    cancelUrl: `${site}${returnPath(order.id, "&cancelled=1")}`,
    expiresAt: order.holdExpiresAt ?? new Date(input.now.getTime() + 15 * 60_000),
    idempotencyKey: `checkout:${order.id}`,
    saveCard,
  });
  const stored = await db
    .update(orders)
    .set({ providerSessionId: session.sessionId, updatedAt: input.now })
    .where(and(eq(orders.id, order.id), eq(orders.status, "pending"), isNull(orders.providerSessionId)))
    .returning({ id: orders.id });
  if (stored.length > 0) return { ...back, url: session.redirectUrl };

  // A second Pay for the same order stored its session first, or the order ended meanwhile: this
  // session is closed so that only the stored one can take money, and /return sorts it out.
  const [current] = await db
    .select({ sessionId: orders.providerSessionId })
    .from(orders)
    .where(eq(orders.id, order.id));
  if (current?.sessionId === session.sessionId) return { ...back, url: session.redirectUrl };
  await gateway.expirePayment(session.sessionId).catch(() => undefined);
  return back;
}

/**
 * An order line as the provider is asked to charge it, after its voucher discount, so the lines
 * add up to the order's total: the discounted unit price when the discount is the same on every
 * unit (as vouchers make it), otherwise the whole line as one.
 */
function providerLine(line: { description: string; unitPrice: number; quantity: number; discount: number }) {
  if (line.discount % line.quantity === 0) {
    return {
      description: line.description,
      unitAmount: line.unitPrice - line.discount / line.quantity,
      quantity: line.quantity,
    };
  }
  return {
    description: `${line.description} (× ${line.quantity})`,
    unitAmount: line.unitPrice * line.quantity - line.discount,
    quantity: 1,
  };
}

/** Whether the order joins a tier that renews by itself: the paying card is then kept for its renewals. */
async function joinsRenewingMembership(db: Db, orderId: string) {
  const [found] = await db
    .select({ id: orderItems.id })
    .from(orderItems)
    .innerJoin(membershipTiers, eq(membershipTiers.id, orderItems.tierId))
    .where(
      and(
        eq(orderItems.orderId, orderId),
        eq(orderItems.kind, "membership"),
        isNull(orderItems.renewsMembershipId),
        eq(membershipTiers.autoRenews, true),
      ),
    )
    .limit(1);
  return found !== undefined;
}
