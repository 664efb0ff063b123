import type { Db } from "~/server/db/client.server";
import { type OrderStatus, orderHistory } from "../../../db/schema";

export type OrderChange = {
  orderId: string;
  fromStatus: OrderStatus | null;
  toStatus: OrderStatus;
  note?: string;
  /** The member or staff who made the change; none when the provider or a job did. */
  actorId?: string | null;
  at: Date;
};

/**
 * Records changes of orders' status (every state change is recorded). Call
 * it inside the transaction that makes the change, so the history never disagrees with the order.
 */
export async function recordOrderChanges(db: Db, changes: OrderChange[]) {
  if (changes.length === 0) return;
  await orderChangesInsert(db, changes);
}

/** The insert that records `changes` (at least one), for a caller that runs it within a larger statement. */
function orderChangesInsert(db: Db, changes: OrderChange[]) {
  return db.insert(orderHistory).values(orderChangeRows(changes));
}

/** The history rows of `changes`, for a caller that writes them its own way. */
export function orderChangeRows(changes: OrderChange[]): (typeof orderHistory.$inferInsert)[] {
  return changes.map((change) => ({
    orderId: change.orderId,
    fromStatus: change.fromStatus,
    toStatus: change.toStatus,
    note: change.note ?? null,
    actorId: change.actorId ?? null,
    createdAt: change.at,
  }));
}
