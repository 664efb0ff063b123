import { and, eq } from "drizzle-orm";
import { cancelOrder } from "~/features/orders/cancel.server";
import { isOrderId } from "~/features/orders/order-id";
import type { Db } from "~/server/db/client.server";
import type { PaymentGateway, PaymentState } from "~/server/payments/payments.server";
import { type OrderStatus, orders } from "../../../db/schema";
import { NO_FOLLOW_UPS, type PaymentFollowUps } from "./payment-follow-ups";
import { applyPaymentState, BUYER_CANCELLED_REASON, PAYMENT_FAILED_REASON } from "./payment-state.server";

export type ReturnAnswer =
  | { kind: "not_found" }
  | { kind: "paid"; orderId: string }
  | { kind: "failed"; orderId: string; reason: string }
  | {
      kind: "pending";
      order: { id: string; number: number; total: number; currency: string };
      /** The buyer finished at the provider but their bank has not confirmed yet. */
      processing: boolean;
      /** The provider's page, while the buyer can still pay there. */
      paymentUrl: string | null;
    };

const PAID: OrderStatus[] = ["paid", "fulfilled", "refunded", "partly_refunded"];

/**
 * What /return tells the buyer coming back from the payment provider: paid
 * (on to /success), failed or cancelled with the reason (back to the cart), or still confirming.
 * A pending order's session is asked about at once, so the buyer does not wait for the webhook:
 * /return is a settlement path too, as idempotent as the others. `cancelled` is the buyer's
 * "Cancel this order" (a POST; the provider's cancel link only offers it): the session is closed
 * first (and settled instead if the buyer had paid after all), then the order is cancelled so
 * its places go back now.
 */
export async function confirmReturn(
  db: Db,
  gateway: PaymentGateway,
  input: { userId: string; orderId?: string | null; sessionId?: string | null; cancelled: boolean; now: Date },
): Promise<{ answer: ReturnAnswer; followUps: PaymentFollowUps }> {
  const mine = eq(orders.userId, input.userId);
  const where = isOrderId(input.orderId)
    ? and(eq(orders.id, input.orderId), mine)
    : input.sessionId
      ? and(eq(orders.provider, gateway.provider), eq(orders.providerSessionId, input.sessionId), mine)
      : undefined;
  if (!where) return { answer: { kind: "not_found" }, followUps: NO_FOLLOW_UPS };
  const order = await readOrder(db, where);
  if (!order) return { answer: { kind: "not_found" }, followUps: NO_FOLLOW_UPS };

  let followUps = NO_FOLLOW_UPS;
  let state: PaymentState | null = null;
  if (order.status === "pending" && order.provider === gateway.provider && order.sessionId) {
    try {
      state = input.cancelled
        ? await gateway.expirePayment(order.sessionId)
        : await gateway.retrievePayment(order.sessionId);
    } catch {
      // The provider cannot be reached. A buyer who cancelled is cancelled anyway (a payment that
      // still arrives on that session is refunded); otherwise the page keeps confirming while
      // the webhook or the reconciliation job settles the order.
    }
    if (input.cancelled && state?.status !== "paid") {
      await cancelOrder(db, {
        orderId: order.id,
        userId: input.userId,
        reason: BUYER_CANCELLED_REASON,
        now: input.now,
      });
    } else if (state) {
      const applied = await applyPaymentState(db, {
        orderId: order.id,
        provider: order.provider,
        state,
        now: input.now,
        gateway,
      });
      followUps = applied.followUps;
    }
  }

  const current = (await readOrder(db, eq(orders.id, order.id)))!;
  if (PAID.includes(current.status)) return { answer: { kind: "paid", orderId: current.id }, followUps };
  if (current.status === "pending") {
    return {
      answer: {
        kind: "pending",
        order: { id: current.id, number: current.number, total: current.total, currency: current.currency },
        processing: state?.status === "unpaid",
        paymentUrl: state?.status === "open" ? state.redirectUrl : null,
      },
      followUps,
    };
  }
  return {
    answer: { kind: "failed", orderId: current.id, reason: current.failureReason ?? PAYMENT_FAILED_REASON },
    followUps,
  };
}

async function readOrder(db: Db, where: ReturnType<typeof and>) {
  const [order] = await db
    .select({
      id: orders.id,
      number: orders.number,
      total: orders.total,
      currency: orders.currency,
      status: orders.status,
      provider: orders.provider,
      sessionId: orders.providerSessionId,
      failureReason: orders.failureReason,
    })
    .from(orders)
    .where(where);
  return order;
}
