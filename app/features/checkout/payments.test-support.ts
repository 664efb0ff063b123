import { count, eq } from "drizzle-orm";
import { startCheckout } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import {
  holds,
  orderHistory,
  orders,
  type PaymentProvider,
  paymentEvents,
  tickets,
  ticketTypes,
  transactions,
} from "../../../db/schema";
import { checkoutFor, createBuyers, createTestEvent, fillCart, NOW } from "./stock.test-support";

/** Orders, stock and ledger rows for the payment tests, made through the real checkout. */

export const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

/** A member with a pending order for `quantity` places of a fresh £12.50 ticket type, started at NOW. */
export async function pendingOrder(
  db: Db,
  options: { provider?: PaymentProvider; capacity?: number; quantity?: number; price?: number } = {},
) {
  const { typeIds, eventId } = await createTestEvent(db, {
    types: [{ name: "Adult", price: options.price ?? 1250, capacity: options.capacity ?? 10 }],
  });
  const [member] = await createBuyers(db, 1);
  const quantity = options.quantity ?? 2;
  const cartId = await fillCart(db, member!.id, [{ ticketTypeId: typeIds[0]!, quantity }]);
  const result = await startCheckout(db, { ...checkoutFor(member!, cartId), provider: options.provider ?? "test" });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return { member: member!, eventId, ticketTypeId: typeIds[0]!, order: result.order, quantity };
}

/** Someone else buys places of the same type (so a late payment finds them gone). */
export async function buyPlaces(db: Db, ticketTypeId: string, quantity: number, now: Date) {
  const [buyer] = await createBuyers(db, 1);
  const cartId = await fillCart(db, buyer!.id, [{ ticketTypeId, quantity }]);
  const result = await startCheckout(db, checkoutFor(buyer!, cartId, now));
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.order;
}

export async function orderState(db: Db, orderId: string) {
  const [order] = await db
    .select({
      status: orders.status,
      failureReason: orders.failureReason,
      paymentId: orders.providerPaymentId,
      sessionId: orders.providerSessionId,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  const holdRows = await db.select({ status: holds.status }).from(holds).where(eq(holds.orderId, orderId));
  const ticketRows = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.orderId, orderId));
  const ledger = await db
    .select({
      kind: transactions.kind,
      status: transactions.status,
      amount: transactions.amount,
      reference: transactions.providerReference,
    })
    .from(transactions)
    .where(eq(transactions.orderId, orderId))
    .orderBy(transactions.kind);
  return { ...order!, holds: holdRows.map((hold) => hold.status), tickets: ticketRows.length, ledger };
}

export async function soldOf(db: Db, ticketTypeId: string) {
  const [row] = await db.select({ sold: ticketTypes.sold }).from(ticketTypes).where(eq(ticketTypes.id, ticketTypeId));
  return row!.sold;
}

/** How many rows the payment flow has written in all: a refused request must leave these as they were. */
export async function ledgerCounts(db: Db) {
  const [events] = await db.select({ n: count() }).from(paymentEvents);
  const [history] = await db.select({ n: count() }).from(orderHistory);
  const [money] = await db.select({ n: count() }).from(transactions);
  const [issued] = await db.select({ n: count() }).from(tickets);
  return { events: events!.n, history: history!.n, transactions: money!.n, tickets: issued!.n };
}
