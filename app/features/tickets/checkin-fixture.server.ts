import { randomBytes, randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { getOrCreateCart, setCartItem } from "~/features/cart/cart.server";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import { events, tickets, ticketTypes, users } from "../../../db/schema";
import { formatTicketCode, signTicketCode } from "./ticket-codes.server";

const FIXTURE_EVENT_SLUG = "japanese-performance-day";
const FIXTURE_TICKET_TYPE = "Adult";

/**
 * For end-to-end tests only (the fixture route exists with ENABLE_TEST_FIXTURES): a paid order of
 * one adult ticket, made through the real cart, checkout and settlement, so the gate and refunds
 * are tested against a real ticket. Each order has a buyer of its own, so copies of a spec running
 * at once never share a cart. The ticket is for the demo Japanese Performance Day, or with
 * `ownEvent` for a fresh event whose sold count no other test moves.
 */
export async function paidTicketFor(db: Db, input: { currency: string; now: Date; secret: string; ownEvent: boolean }) {
  const tag = randomBytes(4).toString("hex");
  const [inserted] = await db
    .insert(users)
    .values({
      id: randomUUID(),
      name: `Ticket Holder ${tag}`,
      email: `holder-${tag}@pitlane.test`,
      emailVerified: true,
      termsAcceptedAt: input.now,
    })
    .returning({ id: users.id, email: users.email });
  const buyer = inserted!;
  const type = input.ownEvent ? await ownEvent(db, tag, input.now) : await demoTicketType(db);
  if (!type) return { ok: false as const, problem: "The demo event is missing" };
  const cartId = await getOrCreateCart(db, { userId: buyer.id });
  const line = await setCartItem(db, { cartId, ticketTypeId: type.id, quantity: 1, now: input.now, userId: buyer.id });
  if (!line.ok) return { ok: false as const, problem: line.problem.message };
  const checkout = await startCheckout(db, {
    userId: buyer.id,
    email: buyer.email,
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
    buyerEmail: buyer.email,
  };
}

async function demoTicketType(db: Db) {
  const [type] = await db
    .select({ id: ticketTypes.id, eventId: events.id })
    .from(ticketTypes)
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(and(eq(events.slug, FIXTURE_EVENT_SLUG), eq(ticketTypes.name, FIXTURE_TICKET_TYPE)));
  return type;
}

/** A published event a month away with 100 places and one adult ticket type. */
async function ownEvent(db: Db, tag: string, now: Date) {
  const startsAt = new Date(now.getTime() + 30 * 24 * 3600_000);
  const [event] = await db
    .insert(events)
    .values({
      slug: `gate-day-${tag}`,
      title: `Gate Day ${tag}`,
      type: "show",
      status: "published",
      startsAt,
      endsAt: new Date(startsAt.getTime() + 8 * 3600_000),
      timeZone: "Europe/London",
      venue: "Fixture Park",
      town: "Testbury",
      capacity: 100,
      publishedAt: now,
    })
    .returning({ id: events.id });
  const [type] = await db
    .insert(ticketTypes)
    .values({ eventId: event!.id, name: FIXTURE_TICKET_TYPE, price: 1800 })
    .returning({ id: ticketTypes.id, eventId: ticketTypes.eventId });
  return type;
}
