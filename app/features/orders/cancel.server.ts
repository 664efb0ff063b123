import { and, eq } from "drizzle-orm";
import { releaseHolds } from "~/features/commerce/holds.server";
import { recordOrderChanges } from "~/features/commerce/order-history.server";
import type { Db } from "~/server/db/client.server";
import { type OrderStatus, orderItems, orders } from "../../../db/schema";

export type CancelOutcome =
  | { kind: "cancelled" }
  | { kind: "not_found" }
  /** Already paid, expired or cancelled: nothing to do (a paid order is refunded instead). */
  | { kind: "not_pending"; status: OrderStatus };

/**
 * An unpaid order that will not be paid: the buyer cancelled at the provider, declined at the test
 * checkout, or staff stopped it. Its places go back at once. With `userId`, only that member's
 * own order is found, so a route can pass the signed-in member and an id from the address.
 */
export async function cancelOrder(
  db: Db,
  input: { orderId: string; reason: string; now: Date; userId?: string; actorId?: string | null },
): Promise<CancelOutcome> {
  return db.transaction(async (tx) => {
    const owner = input.userId === undefined ? undefined : eq(orders.userId, input.userId);
    const [order] = await tx
      .select({ status: orders.status })
      .from(orders)
      .where(and(eq(orders.id, input.orderId), owner))
      .for("update");
    if (!order) return { kind: "not_found" } as const;
    if (order.status !== "pending") return { kind: "not_pending", status: order.status } as const;

    await tx
      .update(orders)
      .set({ status: "cancelled", failureReason: input.reason, updatedAt: input.now })
      .where(eq(orders.id, input.orderId));
    await releaseHolds(tx, [input.orderId], input.now);
    await recordOrderChanges(tx, [
      {
        orderId: input.orderId,
        fromStatus: "pending",
        toStatus: "cancelled",
        note: input.reason,
        actorId: input.actorId ?? input.userId ?? null,
        at: input.now,
      },
    ]);
    return { kind: "cancelled" } as const;
  });
}

/**
 * Cancels the member's unpaid orders that hold prize-draw entries, with `reason`: a member who
 * begins a cool-off or a self-exclusion cannot then pay for entries chosen before it, so their
 * places go back to the draws at once. A payment that still arrives for one is refunded by
 * settlement. Answers how many orders were cancelled.
 */
export async function cancelPendingEntryOrders(db: Db, input: { userId: string; reason: string; now: Date }) {
  const pending = await db
    .selectDistinct({ id: orders.id })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .where(and(eq(orders.userId, input.userId), eq(orders.status, "pending"), eq(orderItems.kind, "entry")));
  let cancelled = 0;
  for (const { id } of pending) {
    const outcome = await cancelOrder(db, { orderId: id, userId: input.userId, reason: input.reason, now: input.now });
    if (outcome.kind === "cancelled") cancelled++;
  }
  return cancelled;
}
