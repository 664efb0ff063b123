import { and, asc, eq, inArray, isNull, lte, ne, or } from "drizzle-orm";
import { recordOrderChanges } from "~/features/commerce/order-history.server";
import { returnCreditOfUnpaidOrders } from "~/features/credit/credit.server";
import type { Db } from "~/server/db/client.server";
import { transactionWithRetry } from "~/server/db/retry.server";
import { holds, orders, type PaymentProvider } from "../../../db/schema";

/** How long checkout holds places while the buyer pays (15 minutes). */
export const DEFAULT_HOLD_MINUTES = 15;

/**
 * Gives back the places these orders hold, and the account credit they spent: every caller ends
 * an unpaid order (cancelled, expired, refused). Holds are only ever changed by a transaction that
 * has locked their order's row first (ADR 0007), so this never waits on another writer of them;
 * the members' credit locks come after the order rows.
 */
export async function releaseHolds(db: Db, orderIds: string[], now: Date) {
  if (orderIds.length === 0) return;
  await db
    .update(holds)
    .set({ status: "released", updatedAt: now })
    .where(and(inArray(holds.orderId, orderIds), eq(holds.status, "active")));
  await returnCreditOfUnpaidOrders(db, orderIds, now);
}

export const HOLD_EXPIRED_REASON = "Payment did not arrive while the places were held";

/**
 * Marks unpaid orders whose hold has run out as expired and releases their holds, in batches.
 * Availability already ignores expired holds when it reads them, so this tidies rather than
 * frees: it makes the order's state say what happened. `SKIP LOCKED` lets several app instances
 * run it at once without waiting on each other or on a payment being settled for the same order
 * (settlement then finds it pending or expired and handles both).
 *
 * `leaveSessionsOf`: orders with a payment session at that provider are left pending for the
 * payments job, which closes each session at the provider first (settling a payment made in its
 * last seconds) and only then expires the order (docs/payments.md "Sessions and holds").
 */
export async function expireHolds(
  db: Db,
  now: Date,
  options: { batchSize?: number; leaveSessionsOf?: PaymentProvider } = {},
) {
  const batchSize = options.batchSize ?? 500;
  const leave = options.leaveSessionsOf;
  const notLeft = leave ? or(ne(orders.provider, leave), isNull(orders.providerSessionId)) : undefined;
  let expired = 0;
  for (;;) {
    const batch = await transactionWithRetry(db, async (tx) => {
      const due = await tx
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.status, "pending"), lte(orders.holdExpiresAt, now), notLeft))
        .orderBy(asc(orders.id))
        .limit(batchSize)
        .for("update", { skipLocked: true });
      const ids = due.map((order) => order.id);
      if (ids.length === 0) return 0;
      await tx
        .update(orders)
        .set({ status: "expired", failureReason: HOLD_EXPIRED_REASON, updatedAt: now })
        .where(inArray(orders.id, ids));
      await releaseHolds(tx, ids, now);
      await recordOrderChanges(
        tx,
        ids.map((orderId) => ({
          orderId,
          fromStatus: "pending",
          toStatus: "expired",
          note: HOLD_EXPIRED_REASON,
          at: now,
        })),
      );
      return ids.length;
    });
    expired += batch;
    if (batch < batchSize) return { expired };
  }
}
