import { and, asc, eq, gt, or } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { accountEmail, type Branding } from "~/features/accounts/emails.server";
import { recordAudit } from "~/features/audit/audit.server";
import { formatOrderNumber } from "~/features/commerce/order-number";
import { DEFAULT_CREDIT_MONTHS, monthsAfter } from "~/features/credit/credit-rules";
import { formatEventInstant } from "~/features/dates/event-dates";
import { membershipBuyer } from "~/features/membership/memberships.server";
import { placeStaffOrder, refundOrder, settleOrder } from "~/features/selling/selling.server";
import { readTicketStock } from "~/features/tickets/ticket-stock.server";
import type { Db } from "~/server/db/client.server";
import { transactionWithRetry } from "~/server/db/retry.server";
import type { OutboundEmail } from "~/server/mail/mail.server";
import { formatMoney } from "~/ui/money";
import { countOf } from "~/ui/plural";
import {
  bookingMoves,
  events,
  orderItems,
  orders,
  type PaymentProvider,
  ticketHandBacks,
  tickets,
  ticketTransfers,
  ticketTypes,
  users,
} from "../../../db/schema";
import { movableTickets, moveDifference, moveQuantityProblem } from "./move-rules";

/** How long the new tickets stay held for a buyer who has the difference to pay. */
const MOVE_PAYMENT_HOURS = 24;

export type MoveInput = {
  orderId: string;
  orderItemId: string;
  quantity: number;
  toTicketTypeId: string;
  /** Where the difference goes when the new tickets cost less. */
  backTo: "money" | "credit";
  /** When they cost more: the buyer pays the difference, or staff waive it. */
  extra: "charge" | "waive";
  reason: string;
  actorId: string;
  now: Date;
  currency: string;
  provider: PaymentProvider;
};

export type MoveOutcome =
  | {
      ok: true;
      moveId: string;
      /** The new order: paid when nothing was left to pay, else waiting for the buyer. */
      newOrder: { id: string; number: number; paid: boolean; toPay: number; payBy: Date };
      movedValue: number;
      newValue: number;
      /** What came back to the buyer (card or credit), and what was waived. */
      back: { amount: number; credit: number; refundId: string | null };
      waived: number;
      email: OutboundEmail;
    }
  | { ok: false; message: string };

/** Ends the move's transaction with words staff read. */
class Refused extends Error {}

/**
 * Moves `quantity` tickets of a booking to another ticket type, of the same event or another
 * date, in one transaction: the new tickets' places are checked and held as checkout holds them
 * (the moved tickets' places count as free), the moved tickets are refunded, their value going
 * to the buyer's account credit up to the new tickets' price and the rest where staff chose, and
 * a new order for the new tickets is paid from that credit first. Nothing left to pay (or the
 * rest waived): the new order is paid and its tickets issued at once. Otherwise it waits, its
 * places held for MOVE_PAYMENT_HOURS, for the buyer to pay the difference; if they do not, the
 * credit comes back to them.
 */
export async function moveBooking(db: Db, input: MoveInput, brand: Branding): Promise<MoveOutcome> {
  try {
    return await transactionWithRetry(db, (tx) => moveIn(tx, input, brand));
  } catch (error) {
    if (error instanceof Refused) return { ok: false, message: error.message };
    throw error;
  }
}

async function moveIn(tx: Db, input: MoveInput, brand: Branding): Promise<MoveOutcome> {
  const { now } = input;
  const [line] = await tx
    .select({
      kind: orderItems.kind,
      ticketTypeId: orderItems.ticketTypeId,
      eventId: orderItems.eventId,
      description: orderItems.description,
      userId: orders.userId,
      email: orders.email,
      name: users.name,
      number: orders.number,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .leftJoin(users, eq(users.id, orders.userId))
    .where(and(eq(orderItems.id, input.orderItemId), eq(orderItems.orderId, input.orderId)));
  if (line?.kind !== "ticket" || !line.ticketTypeId || !line.eventId) {
    throw new Refused("Only tickets of this order can be moved.");
  }
  if (!line.userId) throw new Refused("This order's account is gone, so its tickets cannot be moved.");
  if (line.ticketTypeId === input.toTicketTypeId) throw new Refused("Choose other tickets than the ones booked.");
  const [target] = await tx
    .select({ eventId: ticketTypes.eventId, name: ticketTypes.name, title: events.title })
    .from(ticketTypes)
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(eq(ticketTypes.id, input.toTicketTypeId));
  if (!target) throw new Refused("Those tickets could not be found.");

  // Both events' stock rows first, in the one order (ADR 0007), then the tickets and the order.
  await readTicketStock(tx, [line.eventId, target.eventId], now, { lock: true });
  const booked = await tx
    .select({
      id: tickets.id,
      status: tickets.status,
      userId: tickets.userId,
      attendeeName: tickets.attendeeName,
      listed: ticketHandBacks.id,
      pendingTransfer: ticketTransfers.id,
    })
    .from(tickets)
    .leftJoin(ticketHandBacks, and(eq(ticketHandBacks.ticketId, tickets.id), eq(ticketHandBacks.status, "listed")))
    .leftJoin(ticketTransfers, and(eq(ticketTransfers.ticketId, tickets.id), eq(ticketTransfers.status, "pending")))
    .where(eq(tickets.orderItemId, input.orderItemId))
    .orderBy(asc(tickets.createdAt), asc(tickets.id))
    .for("update", { of: tickets });
  const movable = movableTickets(
    booked.map((ticket) => ({
      ...ticket,
      listed: ticket.listed !== null,
      pendingTransfer: ticket.pendingTransfer !== null,
    })),
    line.userId,
  );
  const problem = moveQuantityProblem(input.quantity, movable.length, booked.length);
  if (problem) throw new Refused(problem);
  const moving = movable.slice(0, input.quantity);

  const buyer = await membershipBuyer(tx, line.userId, now);
  const reason = `Moved to ${target.title} — ${target.name}: ${input.reason}`;
  let movedValue = 0;
  let back = { amount: 0, credit: 0, refundId: null as string | null };
  const placed = await placeStaffOrder(tx, {
    userId: line.userId,
    email: line.email,
    now,
    currency: input.currency,
    provider: input.provider,
    ...buyer,
    lines: [
      {
        id: input.orderItemId,
        kind: "ticket",
        ticketTypeId: input.toTicketTypeId,
        drawId: null,
        entriesPerUnit: 1,
        answer: null,
        pickedNumbers: [],
        applicationId: null,
        variantId: null,
        tierId: null,
        quantity: input.quantity,
        attendeeNames: moving.map((ticket) => ticket.attendeeName ?? ""),
      },
    ],
    holdMinutes: MOVE_PAYMENT_HOURS * 60,
    waiveRest: input.extra === "waive",
    note: `Made by moving ${countOf(input.quantity, "ticket", "tickets")} of ${formatOrderNumber(line.number)}`,
    actorId: input.actorId,
    freed: [
      { kind: "ticket", ticketTypeId: line.ticketTypeId, quantity: input.quantity, expiresAt: new Date(8.64e15) },
    ],
    // The old tickets' value becomes account credit, up to the new tickets' price, before the
    // new order spends the buyer's credit; the rest goes where staff chose.
    beforePaying: async (order) => {
      const refunded = await refundOrder(tx, {
        orderId: input.orderId,
        items: [{ orderItemId: input.orderItemId, quantity: input.quantity, unitIds: moving.map((t) => t.id) }],
        actorId: input.actorId,
        reason: `${reason} (${formatOrderNumber(order.number)})`,
        now,
        to:
          input.backTo === "credit"
            ? { kind: "credit", expiresAt: monthsAfter(now, DEFAULT_CREDIT_MONTHS) }
            : { kind: "money" },
        creditAtLeast: order.subtotal,
      });
      if (!refunded.ok) throw new Refused(refunded.problem);
      movedValue = refunded.amount;
      const { carried } = moveDifference(refunded.amount, order.subtotal);
      back = {
        amount: refunded.amount - carried,
        credit: Math.max(0, refunded.credit - carried),
        refundId: refunded.transactionId,
      };
    },
  });
  if (!placed.ok) throw new Refused(placed.problems[0]?.message ?? "These tickets cannot be booked now.");
  const { order } = placed;
  const newValue = order.total + order.credit + order.waived;
  const [move] = await tx
    .insert(bookingMoves)
    .values({
      fromOrderId: input.orderId,
      toOrderId: order.id,
      fromTicketTypeId: line.ticketTypeId,
      toTicketTypeId: input.toTicketTypeId,
      quantity: input.quantity,
      movedValue,
      newValue,
      waived: order.waived,
      reason: input.reason,
      actorId: input.actorId,
      createdAt: now,
    })
    .returning({ id: bookingMoves.id });
  let paid = false;
  if (order.total === 0) {
    const settled = await settleOrder(tx, {
      orderId: order.id,
      provider: input.provider,
      paymentReference: `free_${order.id}`,
      amount: 0,
      currency: input.currency,
      now,
    });
    if (settled.kind !== "settled") throw new Error(`The moved booking's new order did not settle: ${settled.kind}`);
    paid = true;
  }
  await recordAudit(tx, {
    actorId: input.actorId,
    action: "booking.move",
    subjectType: "order",
    subjectId: input.orderId,
    details: {
      from: formatOrderNumber(line.number),
      to: formatOrderNumber(order.number),
      tickets: input.quantity,
      toTicketTypeId: input.toTicketTypeId,
      movedValue,
      newValue,
      back: back.amount,
      waived: order.waived,
      reason: input.reason,
    },
  });
  const [when] = await tx
    .select({ startsAt: events.startsAt, timeZone: events.timeZone })
    .from(events)
    .where(eq(events.id, target.eventId));
  const outcome = {
    moveId: move!.id,
    newOrder: { id: order.id, number: order.number, paid, toPay: order.total, payBy: order.holdExpiresAt },
    movedValue,
    newValue,
    back,
    waived: order.waived,
  };
  return {
    ok: true,
    ...outcome,
    email: moveEmail(brand, {
      ...outcome,
      to: line.email,
      name: line.name ?? "there",
      from: line.description,
      target: `${target.title} — ${target.name}`,
      when: when ? formatEventInstant(when.startsAt, when.timeZone) : "",
      timeZone: when?.timeZone ?? "Europe/London",
      currency: input.currency,
      quantity: input.quantity,
      reason: input.reason,
    }),
  };
}

/** The buyer's email: what moved where, what happened to the money, and what to do if anything. */
function moveEmail(
  brand: Branding,
  move: {
    to: string;
    name: string;
    from: string;
    target: string;
    when: string;
    timeZone: string;
    currency: string;
    quantity: number;
    reason: string;
    newOrder: { id: string; number: number; paid: boolean; toPay: number; payBy: Date };
    back: { amount: number; credit: number };
    waived: number;
  },
) {
  const money = (amount: number) => formatMoney(amount, move.currency);
  const what = countOf(move.quantity, "ticket", "tickets");
  const lines = [
    `We have moved ${what} of yours from ${move.from} to ${move.target}${move.when ? ` (${move.when})` : ""}.`,
    `Why: ${move.reason}`,
  ];
  if (move.back.amount > 0) {
    const card = move.back.amount - move.back.credit;
    lines.push(
      `The new ${move.quantity === 1 ? "ticket costs" : "tickets cost"} less: ${[
        card > 0 ? `${money(card)} is on its way back to your card` : null,
        move.back.credit > 0 ? `${money(move.back.credit)} is in your account credit` : null,
      ]
        .filter(Boolean)
        .join(", and ")}.`,
    );
  }
  if (move.waived > 0) lines.push(`They cost ${money(move.waived)} more, which we have waived.`);
  if (move.newOrder.paid) {
    lines.push(
      `Your old ${move.quantity === 1 ? "ticket no longer admits" : "tickets no longer admit"}: the new ${what} with new QR codes ${move.quantity === 1 ? "is" : "are"} in your account, order ${formatOrderNumber(move.newOrder.number)}.`,
    );
  } else {
    lines.push(
      `They cost ${money(move.newOrder.toPay)} more. We are holding your new places until ${formatEventInstant(move.newOrder.payBy, move.timeZone)}: pay the difference by then and your new tickets are issued. If you do not, the value of your old tickets stays in your account credit.`,
    );
  }
  return accountEmail(brand, move.to, `Your booking has moved to ${move.target}`, {
    greeting: `Hi ${move.name},`,
    lines,
    action: move.newOrder.paid
      ? { label: "See your tickets", url: `${brand.siteUrl}/members/events` }
      : { label: `Pay ${money(move.newOrder.toPay)}`, url: `${brand.siteUrl}/transactions/${move.newOrder.id}` },
  });
}

/** The moves into and out of an order, for its page: where its tickets went, or came from. */
export async function movesOfOrder(db: Db, orderId: string) {
  const fromOrder = alias(orders, "from_order");
  const toOrder = alias(orders, "to_order");
  const rows = await db
    .select({
      id: bookingMoves.id,
      quantity: bookingMoves.quantity,
      reason: bookingMoves.reason,
      createdAt: bookingMoves.createdAt,
      fromOrderId: bookingMoves.fromOrderId,
      fromNumber: fromOrder.number,
      toOrderId: bookingMoves.toOrderId,
      toNumber: toOrder.number,
      toStatus: toOrder.status,
    })
    .from(bookingMoves)
    .innerJoin(fromOrder, eq(fromOrder.id, bookingMoves.fromOrderId))
    .innerJoin(toOrder, eq(toOrder.id, bookingMoves.toOrderId))
    .where(or(eq(bookingMoves.fromOrderId, orderId), eq(bookingMoves.toOrderId, orderId)))
    .orderBy(asc(bookingMoves.createdAt));
  return rows.map((row) => ({
    ...row,
    direction: row.fromOrderId === orderId ? ("out" as const) : ("in" as const),
    from: formatOrderNumber(row.fromNumber),
    to: formatOrderNumber(row.toNumber),
  }));
}

/**
 * Where a booking can move to: the ticket types of every published event that has not ended,
 * soonest first, with their prices (the page lists them; the move itself checks everything again).
 */
export async function moveTargets(db: Db, now: Date) {
  const rows = await db
    .select({
      id: ticketTypes.id,
      name: ticketTypes.name,
      price: ticketTypes.price,
      eventId: events.id,
      title: events.title,
      startsAt: events.startsAt,
      timeZone: events.timeZone,
    })
    .from(ticketTypes)
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(and(eq(events.status, "published"), gt(events.endsAt, now)))
    .orderBy(asc(events.startsAt), asc(events.id), asc(ticketTypes.sortOrder), asc(ticketTypes.id))
    .limit(MOVE_TARGETS_SHOWN);
  const byEvent = new Map<
    string,
    { title: string; when: string; types: { id: string; name: string; price: number }[] }
  >();
  for (const row of rows) {
    const event = byEvent.get(row.eventId) ?? {
      title: row.title,
      when: formatEventInstant(row.startsAt, row.timeZone),
      types: [],
    };
    event.types.push({ id: row.id, name: row.name, price: row.price });
    byEvent.set(row.eventId, event);
  }
  return [...byEvent.entries()].map(([id, event]) => ({ id, ...event }));
}

/** How many ticket types the move form lists at most. */
const MOVE_TARGETS_SHOWN = 300;

/**
 * The member's moved bookings that wait for them to pay a difference, with their places still
 * held: for the notice on their account page.
 */
export async function movesAwaitingPayment(db: Db, userId: string, now: Date) {
  const rows = await db
    .select({
      orderId: orders.id,
      total: orders.total,
      currency: orders.currency,
      holdExpiresAt: orders.holdExpiresAt,
      description: orderItems.description,
      timeZone: events.timeZone,
    })
    .from(bookingMoves)
    .innerJoin(orders, eq(orders.id, bookingMoves.toOrderId))
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .innerJoin(events, eq(events.id, orderItems.eventId))
    .where(and(eq(orders.userId, userId), eq(orders.status, "pending"), gt(orders.holdExpiresAt, now)))
    .orderBy(asc(orders.holdExpiresAt));
  return rows.map((row) => ({
    orderId: row.orderId,
    description: row.description,
    toPay: formatMoney(row.total, row.currency),
    payBy: formatEventInstant(row.holdExpiresAt!, row.timeZone),
  }));
}
