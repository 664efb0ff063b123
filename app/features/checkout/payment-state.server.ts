import { and, eq } from "drizzle-orm";
import { HOLD_EXPIRED_REASON } from "~/features/commerce/holds.server";
import type { SettleInput, SettleOutcome } from "~/features/commerce/settle.server";
import { cancelOrder } from "~/features/orders/cancel.server";
import { expireOrder } from "~/features/orders/expire.server";
import { settleOrder } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import type { PaymentGateway, PaymentState } from "~/server/payments/payments.server";
import { orderItems, orders, type PaymentProvider } from "../../../db/schema";
import { followUpsOf, NO_FOLLOW_UPS, type PaymentFollowUps } from "./payment-follow-ups";

/** Shown to the buyer back at their cart (back to /cart with the reason). */
export const PAYMENT_FAILED_REASON = "Your payment did not go through";
export const BUYER_CANCELLED_REASON = "You cancelled the payment";

export type PaymentStateOutcome =
  | { kind: "settlement"; settlement: SettleOutcome }
  | { kind: "expired" | "cancelled" | "unchanged" };

export type AppliedPaymentState = { outcome: PaymentStateOutcome; followUps: PaymentFollowUps };

/** The order a provider session belongs to, when the provider did not say (or for /return?session_id=). */
export async function orderIdForSession(db: Db, provider: PaymentProvider, sessionId: string) {
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.provider, provider), eq(orders.providerSessionId, sessionId)));
  return order?.id ?? null;
}

/** Whether `sessionId` is the payment session stored on the order (or the order has none yet). */
export async function isOrdersSession(db: Db, orderId: string, sessionId: string) {
  const [order] = await db.select({ sessionId: orders.providerSessionId }).from(orders).where(eq(orders.id, orderId));
  return Boolean(order) && (order!.sessionId === null || order!.sessionId === sessionId);
}

/**
 * Brings an order in line with what its provider says about its payment session: paid → settled
 * (settlement decides whether the money is honoured or refunded, and is idempotent); closed
 * unpaid → the order expires and its places go back; still open or awaiting a bank → nothing.
 * The webhook, /return and the reconciliation job all come through here.
 */
export async function applyPaymentState(
  db: Db,
  input: {
    orderId: string;
    provider: PaymentProvider;
    state: PaymentState;
    now: Date;
    /** The provider, asked which kind of card paid for an order of draw entries. */
    gateway?: Pick<PaymentGateway, "cardFunding">;
    /** Made in the statement that pays the order (see SettleInput). */
    alsoWhenPaid?: SettleInput["alsoWhenPaid"];
    /** The order as the caller read it (see SettleInput). */
    found?: SettleInput["found"];
  },
): Promise<AppliedPaymentState> {
  const { state, now } = input;
  if (state.status === "paid") {
    const { paymentReference, amount } = state;
    if (!paymentReference || amount === null) {
      throw new Error(`Payment session ${state.sessionId} is paid but names no payment or amount`);
    }
    const settlement = await settleOrder(db, {
      orderId: input.orderId,
      provider: input.provider,
      paymentReference,
      amount,
      currency: state.currency ?? undefined,
      // Asked only when the order has draw entries, whose card rules need it.
      cardFunding: () => entryCardFunding(db, input.gateway, input.orderId, paymentReference),
      now,
      alsoWhenPaid: input.alsoWhenPaid,
      found: input.found,
    });
    return { outcome: { kind: "settlement", settlement }, followUps: followUpsOf([settlement]) };
  }
  if (state.status === "expired") {
    const expired = await expireOrder(db, { orderId: input.orderId, reason: HOLD_EXPIRED_REASON, now });
    return { outcome: { kind: expired.kind === "expired" ? "expired" : "unchanged" }, followUps: NO_FOLLOW_UPS };
  }
  return { outcome: { kind: "unchanged" }, followUps: NO_FOLLOW_UPS };
}

/** The provider says the payment failed (a bank debit bounced): the order is cancelled and its places go back. */
export async function failPayment(db: Db, input: { orderId: string; now: Date }): Promise<AppliedPaymentState> {
  const cancelled = await cancelOrder(db, { orderId: input.orderId, reason: PAYMENT_FAILED_REASON, now: input.now });
  // An order that had already expired while the debit was on its way: nothing more to wait for.
  await db.update(orders).set({ bankPaymentDueBy: null }).where(eq(orders.id, input.orderId));
  return { outcome: { kind: cancelled.kind === "cancelled" ? "cancelled" : "unchanged" }, followUps: NO_FOLLOW_UPS };
}

/**
 * The funding type of the card that paid for an order with draw entries (credit cards have their
 * own rules there, docs/responsible-play.md); not asked for other orders. A provider that cannot
 * be reached throws, and the notification or the reconciliation tries again.
 */
async function entryCardFunding(
  db: Db,
  gateway: Pick<PaymentGateway, "cardFunding"> | undefined,
  orderId: string,
  paymentReference: string,
) {
  if (!gateway?.cardFunding) return undefined;
  const [entry] = await db
    .select({ id: orderItems.id })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.kind, "entry")))
    .limit(1);
  if (!entry) return undefined;
  return gateway.cardFunding(paymentReference);
}
