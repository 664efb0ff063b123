import { eq } from "drizzle-orm";
import { releaseHolds } from "~/features/commerce/holds.server";
import { recordOrderChanges } from "~/features/commerce/order-history.server";
import type { Db } from "~/server/db/client.server";
import { type OrderStatus, orders } from "../../../db/schema";

export type ExpireOutcome =
  | { kind: "expired" }
  | { kind: "not_found" }
  /** Paid, cancelled or expired already: nothing to do. */
  | { kind: "not_pending"; status: OrderStatus };

/**
 * An unpaid order whose payment session closed without payment (the provider's page timed out,
 * or the hold ran out and the session was closed for it): the order ends expired and its places
 * go back. Only a pending order changes, so a late or repeated notice does nothing to an order
 * that was paid or cancelled meanwhile.
 */
export async function expireOrder(
  db: Db,
  input: { orderId: string; reason: string; now: Date },
): Promise<ExpireOutcome> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, input.orderId))
      .for("update");
    if (!order) return { kind: "not_found" } as const;
    if (order.status !== "pending") return { kind: "not_pending", status: order.status } as const;

    await tx
      .update(orders)
      .set({ status: "expired", failureReason: input.reason, updatedAt: input.now })
      .where(eq(orders.id, input.orderId));
    await releaseHolds(tx, [input.orderId], input.now);
    await recordOrderChanges(tx, [
      { orderId: input.orderId, fromStatus: "pending", toStatus: "expired", note: input.reason, at: input.now },
    ]);
    return { kind: "expired" } as const;
  });
}
