import { and, eq } from "drizzle-orm";
import { getOrCreateCart, setCartItem } from "~/features/cart/cart.server";
import { startCheckout } from "~/features/checkout/checkout.server";
import { settleOrder } from "~/features/orders/settle.server";
import type { Db } from "~/server/db/client.server";
import { events, tickets, ticketTypes, users } from "../../../db/schema";
import { formatTicketCode, signTicketCode } from "./ticket-codes.server";

export const FIXTURE_EVENT_SLUG = "japanese-performance-day";
export const FIXTURE_TICKET_TYPE = "Adult";

/**
 * For end-to-end tests only (the fixture route exists with ENABLE_TEST_FIXTURES): a member's paid
 * order of one adult ticket for the demo Japanese Performance Day (tickets no other test buys, so
 * sold counts can be compared), made through the real cart,
 * checkout and settlement, so the gate and refunds are tested against a real ticket.
 */
export async function paidTicketFor(db: Db, input: { email: string; currency: string; now: Date; secret: string }) {
  const [member] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.email, input.email.toLowerCase()));
  if (!member) return { ok: false as const, problem: "No member has that email" };
  const [type] = await db
    .select({ id: ticketTypes.id, eventId: events.id })
    .from(ticketTypes)
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(and(eq(events.slug, FIXTURE_EVENT_SLUG), eq(ticketTypes.name, FIXTURE_TICKET_TYPE)));
  if (!type) return { ok: false as const, problem: "The demo event is missing" };
  const cartId = await getOrCreateCart(db, { userId: member.id });
  const line = await setCartItem(db, { cartId, ticketTypeId: type.id, quantity: 1, now: input.now, userId: member.id });
  if (!line.ok) return { ok: false as const, problem: line.problem.message };
  const checkout = await startCheckout(db, {
    userId: member.id,
    email: member.email,
    cartId,
    now: input.now,
    currency: input.currency,
    provider: "test",
  });
  if (!checkout.ok)
    return { ok: false as const, problem: checkout.problems.map((problem) => problem.message).join(" ") };
  const { id, total } = checkout.order;
  await settleOrder(db, {
    orderId: id,
    provider: "test",
    paymentReference: `fixture_${id}`,
    amount: total,
    now: input.now,
  });
  const [ticket] = await db.select({ code: tickets.code }).from(tickets).where(eq(tickets.orderId, id));
  if (!ticket) return { ok: false as const, problem: "No ticket was issued" };
  return {
    ok: true as const,
    code: formatTicketCode(ticket.code),
    /** What the ticket's QR code holds, for showing it to a camera. */
    qrPayload: signTicketCode(ticket.code, input.secret),
    orderId: id,
    orderNumber: checkout.order.number,
    eventId: type.eventId,
  };
}
