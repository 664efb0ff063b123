import { and, asc, eq } from "drizzle-orm";
import { followUpsOf, NO_FOLLOW_UPS, type PaymentFollowUps } from "~/features/checkout/payment-follow-ups";
import { BUYER_CANCELLED_REASON } from "~/features/checkout/payment-state.server";
import { cancelOrder } from "~/features/orders/cancel.server";
import { isOrderId } from "~/features/orders/order-id";
import { settleOrder } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import { sandboxPaymentReference } from "~/server/payments/sandbox-provider.server";
import { orderItems, orders } from "../../../db/schema";

export const SANDBOX_DECLINED_REASON = "Your card was declined (test mode)";

export const SANDBOX_CHECKOUT_INTENTS = ["pay", "decline", "cancel"] as const;
export type SandboxCheckoutIntent = (typeof SANDBOX_CHECKOUT_INTENTS)[number];

/** The test checkout takes payment for these; any other order has its answer already. */
const PAYABLE = ["pending", "expired"] as const;

/** The member's own order at the test checkout, with what they are paying for; null for anyone else's. */
export async function sandboxCheckoutOrder(db: Db, input: { orderId: string; userId: string }) {
  if (!isOrderId(input.orderId)) return null;
  const [order] = await db
    .select({
      id: orders.id,
      number: orders.number,
      status: orders.status,
      total: orders.total,
      shipping: orders.shipping,
      discount: orders.discount,
      credit: orders.credit,
      voucherCode: orders.voucherCode,
      shippingMethod: orders.shippingMethod,
      currency: orders.currency,
      holdExpiresAt: orders.holdExpiresAt,
    })
    .from(orders)
    .where(and(eq(orders.id, input.orderId), eq(orders.userId, input.userId), eq(orders.provider, "test")));
  if (!order) return null;
  const lines = await db
    .select({
      id: orderItems.id,
      description: orderItems.description,
      unitPrice: orderItems.unitPrice,
      quantity: orderItems.quantity,
    })
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.createdAt), asc(orderItems.id));
  return { ...order, payable: (PAYABLE as readonly string[]).includes(order.status), lines };
}

/** Expired, or its hold ran out and the expiry job has not come round to it yet. */
export function isHoldOver(order: { status: string; holdExpiresAt: Date | null }, now: Date) {
  return order.status === "expired" || (order.holdExpiresAt !== null && order.holdExpiresAt <= now);
}

/**
 * The test checkout's three buttons (docs/payments.md): Pay calls the same
 * settlement as the Stripe webhook, with the order's total and one payment reference per order
 * (a double-clicked Pay is one payment); Decline and Cancel end the order as a failed or
 * abandoned card payment would. Pay refuses an order whose hold has run out: no money moves
 * here, so there is no late payment to honour or refund, and settling it would hand out places
 * that may have gone to someone else since.
 */
export async function answerSandboxCheckout(
  db: Db,
  input: { orderId: string; userId: string; intent: SandboxCheckoutIntent; now: Date },
): Promise<{ kind: "not_found" } | { kind: "hold_over" } | { kind: "answered"; followUps: PaymentFollowUps }> {
  const order = await sandboxCheckoutOrder(db, input);
  if (!order) return { kind: "not_found" };
  if (input.intent === "pay") {
    if (!order.payable) return { kind: "answered", followUps: NO_FOLLOW_UPS };
    if (isHoldOver(order, input.now)) return { kind: "hold_over" };
    const outcome = await settleOrder(db, {
      orderId: order.id,
      provider: "test",
      paymentReference: sandboxPaymentReference(order.id),
      amount: order.total,
      currency: order.currency,
      now: input.now,
    });
    return { kind: "answered", followUps: followUpsOf([outcome]) };
  }
  await cancelOrder(db, {
    orderId: order.id,
    userId: input.userId,
    reason: input.intent === "decline" ? SANDBOX_DECLINED_REASON : BUYER_CANCELLED_REASON,
    now: input.now,
  });
  return { kind: "answered", followUps: NO_FOLLOW_UPS };
}
