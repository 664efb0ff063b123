import { and, eq, gt, ne, notInArray, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { holds, orders } from "../../../db/schema";

/**
 * The holds that count against stock now (ADR 0007): active and not past `expires_at`, so an
 * expired hold frees its places at read time, whether or not the expiry job has run.
 * `exceptUserId` leaves out the holds of that member's own unpaid orders (starting checkout again
 * replaces them, so those places are theirs to choose again); `exceptOrderId` leaves out one
 * order's, for settling it. Every kind's stock reader (tickets, entries, merch) uses this one rule.
 */
export function liveHolds(db: Db, now: Date, options: { exceptUserId?: string; exceptOrderId?: string } = {}) {
  return and(
    eq(holds.status, "active"),
    gt(holds.expiresAt, now),
    options.exceptOrderId ? ne(holds.orderId, options.exceptOrderId) : undefined,
    options.exceptUserId
      ? notInArray(
          holds.orderId,
          db
            .select({ id: orders.id })
            .from(orders)
            .where(and(eq(orders.userId, options.exceptUserId), eq(orders.status, "pending"))),
        )
      : undefined,
  );
}

/** The places the joined live holds take, summed per group (0 without any), for a stock read. */
export const heldQuantity = sql<number>`coalesce(sum(${holds.quantity}), 0)::int`.mapWith(Number);
