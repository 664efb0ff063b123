import { and, asc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { recordOrderChanges } from "~/features/commerce/order-history.server";
import type { Db } from "~/server/db/client.server";
import { type PaymentGateway, PermanentPaymentError } from "~/server/payments/payments.server";
import { formatMoney } from "~/ui/money";
import { orders, transactions } from "../../../db/schema";

export type RefundRun = {
  sent: number;
  /** Refused by the provider for good (already refunded, say): marked failed for staff to look at. */
  failed: number;
  /** Could not reach the provider: still pending, sent again by the next run. */
  retry: { transactionId: string; error: unknown }[];
};

const charges = alias(transactions, "charges");

/**
 * Sends the refunds recorded as pending (by settlement, ADR 0007, or by staff) to the payment
 * provider, oldest first. The refund's own id is the idempotency key, so a run that dies after the
 * provider refunded but before the row was marked, or two runs at once, still refund once: the
 * provider answers the repeated request with the first refund. Each row is marked with a
 * conditional update, so a row is completed once whichever run gets there first.
 */
export async function sendPendingRefunds(
  db: Db,
  gateway: PaymentGateway,
  input: { now: Date; limit?: number },
): Promise<RefundRun> {
  const pending = await db
    .select({
      id: transactions.id,
      orderId: transactions.orderId,
      amount: transactions.amount,
      currency: transactions.currency,
      number: orders.number,
      orderStatus: orders.status,
      paymentReference: charges.providerReference,
    })
    .from(transactions)
    .innerJoin(orders, eq(orders.id, transactions.orderId))
    .leftJoin(charges, eq(charges.id, transactions.chargeId))
    .where(
      and(
        eq(transactions.kind, "refund"),
        eq(transactions.status, "pending"),
        eq(transactions.provider, gateway.provider),
      ),
    )
    .orderBy(asc(transactions.createdAt))
    .limit(input.limit ?? 100);

  const run: RefundRun = { sent: 0, failed: 0, retry: [] };
  for (const refund of pending) {
    const amount = formatMoney(refund.amount, refund.currency);
    try {
      if (!refund.paymentReference) throw new PermanentPaymentError("there is no recorded payment to refund");
      const { reference } = await gateway.refund({
        order: { id: refund.orderId, number: refund.number },
        paymentReference: refund.paymentReference,
        amount: refund.amount,
        idempotencyKey: refund.id,
      });
      const marked = await complete(db, refund.id, { status: "succeeded", providerReference: reference }, input.now);
      if (marked) run.sent++;
    } catch (error) {
      if (!(error instanceof PermanentPaymentError)) {
        run.retry.push({ transactionId: refund.id, error });
        continue;
      }
      await db.transaction(async (tx) => {
        if (!(await complete(tx, refund.id, { status: "failed" }, input.now))) return;
        // Staff see it in the order's history; the money has to be returned by hand.
        await recordOrderChanges(tx, [
          {
            orderId: refund.orderId,
            fromStatus: refund.orderStatus,
            toStatus: refund.orderStatus,
            note: `Refund of ${amount} failed: ${error.message}`,
            at: input.now,
          },
        ]);
      });
      run.failed++;
    }
  }
  return run;
}

async function complete(
  db: Db,
  id: string,
  change: { status: "succeeded" | "failed"; providerReference?: string },
  now: Date,
) {
  const updated = await db
    .update(transactions)
    .set({ ...change, completedAt: now })
    .where(and(eq(transactions.id, id), eq(transactions.status, "pending")))
    .returning({ id: transactions.id });
  return updated.length > 0;
}
