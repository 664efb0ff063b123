import { and, eq, inArray, sql } from "drizzle-orm";
import type { RefundOutcome } from "~/features/commerce/refund.server";
import { REFUNDABLE_ORDER_STATUSES } from "~/features/commerce/refund.server";
import { refundOrder } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import { exhibitorPasses, orderItems, orders, tickets } from "../../../db/schema";

/** Paid orders that still hold refundable tickets for this event, for a cancelled event's refunds. */
async function ordersToRefundForEvent(db: Db, eventId: string) {
  const rows = await db
    .selectDistinct({ orderId: tickets.orderId })
    .from(tickets)
    .innerJoin(orders, eq(orders.id, tickets.orderId))
    .where(
      and(eq(tickets.eventId, eventId), eq(tickets.status, "valid"), inArray(orders.status, REFUNDABLE_ORDER_STATUSES)),
    );
  return rows.map((row) => row.orderId);
}

export type BulkRefundOutcome = { refunded: Extract<RefundOutcome, { ok: true }>[]; failed: number };

/**
 * Refunds some lines of many orders (every holder of a cancelled event, every entrant of a
 * cancelled draw): each order in its own transaction, so one problem never holds up the rest.
 * `linesOf` says what to refund of an order now; running it again finds only what is still
 * unrefunded, so it is safe to repeat.
 */
export async function refundEachOrder(
  db: Db,
  input: {
    orderIds: string[];
    linesOf: (orderId: string) => Promise<{ orderItemId: string; quantity: number }[]>;
    actorId: string | null;
    reason: string;
    now: Date;
  },
): Promise<BulkRefundOutcome> {
  const refunded: Extract<RefundOutcome, { ok: true }>[] = [];
  let failed = 0;
  for (const orderId of input.orderIds) {
    const items = await input.linesOf(orderId);
    if (items.length === 0) continue;
    const outcome = await refundOrder(db, {
      orderId,
      items,
      actorId: input.actorId,
      reason: input.reason,
      now: input.now,
    });
    if (outcome.ok) refunded.push(outcome);
    else failed++;
  }
  return { refunded, failed };
}

/**
 * Paid orders with a show-car application fee for this event whose exhibitor pass is still valid
 * and unused: a cancelled event refunds them too.
 */
async function applicationLinesForEvent(db: Db, eventId: string, orderId?: string) {
  return db
    .select({ orderId: orderItems.orderId, id: orderItems.id })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .innerJoin(exhibitorPasses, eq(exhibitorPasses.applicationId, orderItems.applicationId))
    .where(
      and(
        eq(orderItems.kind, "application"),
        eq(orderItems.eventId, eventId),
        orderId ? eq(orderItems.orderId, orderId) : undefined,
        sql`${orderItems.refundedQuantity} < ${orderItems.quantity}`,
        eq(exhibitorPasses.status, "valid"),
        sql`${exhibitorPasses.checkedInAt} is null`,
        inArray(orders.status, REFUNDABLE_ORDER_STATUSES),
      ),
    );
}

/**
 * Refunds every holder of a cancelled event's tickets and show-car application fees: only that
 * event's lines (an order may hold others).
 */
export async function refundEventHolders(
  db: Db,
  input: { eventId: string; actorId: string | null; reason: string; now: Date },
): Promise<BulkRefundOutcome> {
  const ticketOrders = await ordersToRefundForEvent(db, input.eventId);
  const feeOrders = (await applicationLinesForEvent(db, input.eventId)).map((line) => line.orderId);
  return refundEachOrder(db, {
    ...input,
    orderIds: [...new Set([...ticketOrders, ...feeOrders])],
    linesOf: async (orderId) => {
      const lines = await db
        .select({ id: orderItems.id, quantity: sql<number>`count(${tickets.id})::int` })
        .from(orderItems)
        .innerJoin(tickets, and(eq(tickets.orderItemId, orderItems.id), eq(tickets.status, "valid")))
        .where(and(eq(orderItems.orderId, orderId), eq(orderItems.eventId, input.eventId)))
        .groupBy(orderItems.id);
      const fees = await applicationLinesForEvent(db, input.eventId, orderId);
      return [
        ...lines.map((line) => ({ orderItemId: line.id, quantity: Number(line.quantity) })),
        ...fees.map((line) => ({ orderItemId: line.id, quantity: 1 })),
      ];
    },
  });
}
