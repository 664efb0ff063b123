import { eq } from "drizzle-orm";
import { createBuyers, createTestEvent, NOW } from "~/features/checkout/stock.test-support";
import { paidOrder } from "~/features/orders/paid-orders.test-support";
import type { Db } from "~/server/db/client.server";
import { tickets, users } from "../../../db/schema";

/**
 * An event with one "Day ticket" type and `quantity` of its tickets paid for by one new buyer, for
 * the gate's tests: the event, the order, the tickets (id and code), and the buyer with their name.
 */
export async function soldDayTickets(db: Db, quantity: number, options: { title?: string } = {}) {
  const event = await createTestEvent(db, { title: options.title, types: [{ name: "Day ticket" }] });
  const [buyer] = await createBuyers(db, 1);
  const { id } = await paidOrder(db, buyer!, [{ ticketTypeId: event.typeIds[0]!, quantity }], NOW, NOW);
  const rows = await db.select({ id: tickets.id, code: tickets.code }).from(tickets).where(eq(tickets.orderId, id));
  const [named] = await db.select({ name: users.name }).from(users).where(eq(users.id, buyer!.id));
  return {
    ...event,
    orderId: id,
    tickets: rows,
    codes: rows.map((row) => row.code),
    buyer: buyer!,
    buyerId: buyer!.id,
    buyerName: named!.name,
  };
}
