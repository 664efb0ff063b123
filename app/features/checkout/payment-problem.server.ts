import { desc, eq } from "drizzle-orm";
import { SUPERSEDED_REASON } from "~/features/commerce/checkout.server";
import type { Db } from "~/server/db/client.server";
import { orders } from "../../../db/schema";
import { BUYER_CANCELLED_REASON, PAYMENT_FAILED_REASON } from "./payment-state.server";

/**
 * Why the member's last try at paying did not end in a paid order, kept on the cart until they
 * try again (docs/payments.md, "When a payment fails"): a declined or failed payment, a payment
 * they cancelled, or a hold that ran out before the money arrived.
 */
export type PaymentProblem = {
  kind: "declined" | "cancelled" | "expired";
  /** The reason recorded on the order, in the buyer's words ("Your card was declined"). */
  reason: string;
  orderNumber: number;
  /** When the order ended. */
  at: Date;
};

/**
 * The problem with the member's newest order, or null when that order is paid, still being paid,
 * or was only replaced by a newer checkout: a new attempt makes a newer order, which clears it.
 */
export async function lastPaymentProblem(db: Db, userId: string): Promise<PaymentProblem | null> {
  const [last] = await db
    .select({
      status: orders.status,
      reason: orders.failureReason,
      number: orders.number,
      updatedAt: orders.updatedAt,
    })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  if (!last || (last.status !== "cancelled" && last.status !== "expired")) return null;
  if (last.reason === SUPERSEDED_REASON) return null;
  const kind =
    last.status === "expired" ? "expired" : last.reason === BUYER_CANCELLED_REASON ? "cancelled" : "declined";
  return { kind, reason: last.reason ?? PAYMENT_FAILED_REASON, orderNumber: last.number, at: last.updatedAt };
}
