import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { orderItems } from "../../../db/schema";
import type { PlayProblem } from "./play-rules";
import { entryPlayProblem } from "./play-settings.server";

/**
 * Whether the member may still pay for this order's entries now: a cool-off or self-exclusion
 * begun since the order was made stops it, and so does a limit lowered since (the order's
 * entries are not in the spend yet, as it is unpaid). Null for an order with no entries.
 * Asked when a held order is resumed and when its payment is settled, on time or late, so the
 * rules hold at the moment money is taken and not only when the entries went into the cart.
 */
export async function orderEntriesPlayProblem(
  db: Db,
  input: { orderId: string; userId: string | null; now: Date; currency?: string; timeZone?: string },
): Promise<PlayProblem | null> {
  const [row] = await db
    .select({
      lines: sql<number>`count(*)::int`,
      adding: sql<number>`coalesce(sum(${orderItems.unitPrice} * ${orderItems.quantity}), 0)::int`,
    })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, input.orderId), eq(orderItems.kind, "entry")));
  if (!row || Number(row.lines) === 0 || !input.userId) return null;
  return entryPlayProblem(db, {
    userId: input.userId,
    adding: Number(row.adding),
    now: input.now,
    currency: input.currency,
    timeZone: input.timeZone,
  });
}
