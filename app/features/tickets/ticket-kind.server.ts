import { and, asc, eq, gt, inArray, ne, sql } from "drizzle-orm";
import type {
  CartRow,
  CheckoutProblem,
  ItemKind,
  NewOrderLine,
  OrderRow,
  RefundUnit,
} from "~/features/commerce/item-kind";
import { paidRows } from "~/features/commerce/paid-rows.server";
import { LATE_SOLD_OUT_REASON } from "~/features/commerce/settle.server";
import { ticketPrice, ticketRemaining } from "~/features/events/sales";
import { voucherOfOrder } from "~/features/vouchers/voucher-uses.server";
import { checkoutTurnProblems } from "~/features/waiting-room/waiting-room.server";
import { cartItems, events, holds, orderItems, ticketHandBacks, tickets, ticketTypes } from "../../../db/schema";
import { ticketCart } from "./ticket-cart.server";
import { newTicketCode } from "./ticket-codes.server";
import { attendeeNamesProblem, normaliseAttendeeNames, ticketLineProblem } from "./ticket-lines";
import { readTicketStock } from "./ticket-stock.server";

export const EVENT_CANCELLED_REASON = "The event was cancelled or has ended";

/** A ticket line of a cart: so many tickets of one type, with the attendees' names of a pass. */
type TicketCartLine = { ticketTypeId: string; quantity: number; attendeeNames: string[] };

/** A ticket line of an order: its type and event, copied at checkout. */
type TicketOrderLine = OrderRow & { ticketTypeId: string; eventId: string };

function cartLine(row: CartRow): TicketCartLine {
  if (!row.ticketTypeId) throw new Error(`Cart line ${row.id} is a ticket line without a ticket type`);
  return { ticketTypeId: row.ticketTypeId, quantity: row.quantity, attendeeNames: row.attendeeNames };
}

function orderLine(row: OrderRow): TicketOrderLine {
  const { ticketTypeId, eventId } = row;
  if (!ticketTypeId || !eventId) throw new Error(`Order line ${row.id} is a ticket line without its type or event`);
  return { ...row, ticketTypeId, eventId };
}

const ticketRows = paidRows(tickets, [
  "orderItemId",
  "orderId",
  "ticketTypeId",
  "eventId",
  "userId",
  "attendeeName",
  "code",
  "createdAt",
  "updatedAt",
]);

/**
 * Event tickets: places limited per ticket type and per event (ADR 0007 locks the events, then
 * their ticket types), issued as e-tickets with a code each when paid, given back to sale when
 * refunded unless already used at the gate. While an event's waiting room runs, only a member
 * whose turn it is may check out its tickets.
 */
export const ticketKind: ItemKind = {
  name: "ticket",
  unit: { one: "ticket", other: "tickets" },
  cart: ticketCart,

  async checkout(tx, rows, { userId, now, member, tierId, voucher }) {
    const lines = rows.map(cartLine);
    const typeIds = lines.map((line) => line.ticketTypeId);
    const typeEvents =
      typeIds.length === 0
        ? []
        : await tx
            .select({ id: ticketTypes.id, eventId: ticketTypes.eventId })
            .from(ticketTypes)
            .where(inArray(ticketTypes.id, typeIds));
    const eventOf = new Map(typeEvents.map((type) => [type.id, type.eventId]));
    const stock = await readTicketStock(tx, [...eventOf.values()], now, { lock: true, voucherId: voucher?.id });
    const buyer = { member, unlocked: voucher?.ticketTypeIds ?? [] };
    return {
      released(holds) {
        for (const hold of holds) {
          if (hold.ticketTypeId && hold.expiresAt > now) stock.take(hold.ticketTypeId, -hold.quantity);
        }
      },
      async check(tx) {
        const known = lines.flatMap((line) => {
          const eventId = eventOf.get(line.ticketTypeId);
          return eventId ? [{ ...line, eventId }] : [];
        });
        // While an event's queue runs, its tickets are only for a member whose turn it is.
        const problems: CheckoutProblem[] = (await checkoutTurnProblems(tx, userId, known, now)).map((problem) => ({
          ...problem,
          line: problem.ticketTypeId,
        }));
        const checked: NewOrderLine[] = [];
        for (const line of lines) {
          const type = stock.types.get(line.ticketTypeId);
          const event = type && stock.events.get(type.eventId);
          // Deleted by staff between reading the cart and taking the locks.
          if (!type || !event) {
            const message = "Some tickets are no longer available";
            problems.push({ code: "not_found", message, ticketTypeId: line.ticketTypeId, line: line.ticketTypeId });
            continue;
          }
          const names = normaliseAttendeeNames(type, line.quantity, line.attendeeNames);
          const problem =
            ticketLineProblem(event, type, stock.typesOfEvent(event.id), line.quantity, now, buyer) ??
            attendeeNamesProblem(type, names, true);
          if (problem) {
            problems.push({ ...problem, line: type.id });
            continue;
          }
          stock.take(type.id, line.quantity);
          checked.push({
            values: {
              ticketTypeId: type.id,
              eventId: event.id,
              description: `${event.title} — ${type.name}`,
              unitPrice: ticketPrice(type, { member, tierId }),
              quantity: line.quantity,
              attendeeNames: names,
            },
            hold: { ticketTypeId: type.id, eventId: event.id, quantity: line.quantity },
            admitsTo: event.id,
          });
        }
        return { lines: checked, problems };
      },
    };
  },

  async settle(tx, rows, { now, order }) {
    const lines = rows.map(orderLine);
    // The places the order's own voucher keeps are the order's to take.
    const voucher = await voucherOfOrder(tx, order.id);
    const stock = await readTicketStock(
      tx,
      lines.map((line) => line.eventId),
      now,
      { lock: true, voucherId: voucher?.voucherId },
    );
    return {
      short(held) {
        const heldOf = (typeId: string) =>
          held.reduce((sum, hold) => (hold.ticketTypeId === typeId ? sum + hold.quantity : sum), 0);
        const short = lines.some((line) => heldOf(line.ticketTypeId) < line.quantity);
        for (const hold of held) if (hold.ticketTypeId) stock.take(hold.ticketTypeId, -hold.quantity);
        return short;
      },
      async refusal(_tx, { late }) {
        for (const line of lines) {
          const event = stock.events.get(line.eventId);
          const type = stock.types.get(line.ticketTypeId);
          if (!event || !type || event.status === "cancelled" || now >= event.endsAt) {
            return { reason: EVENT_CANCELLED_REASON, outcome: "cancelled" };
          }
          if (late) {
            const remaining = ticketRemaining(event, type, stock.typesOfEvent(event.id));
            if (remaining !== null && remaining < line.quantity) {
              return { reason: LATE_SOLD_OUT_REASON, outcome: "expired" };
            }
            stock.take(type.id, line.quantity);
          }
        }
        return null;
      },
      async afterPaid() {
        return { issued: lines.reduce((sum, line) => sum + line.quantity, 0) };
      },
    };
  },

  paid: {
    writes(db, ifPaid, value) {
      const now = sql`${value("now")}::timestamptz`;
      return [
        // The CHECK sold <= capacity is the last line of defence; the rule is the caller's count
        // (the places checked under the locks, or the live holds that already counted them).
        // Every settlement of an on-sale updates this one row and holds its lock until it
        // commits, so it is written last of all (listed first). `sold` holds one row per ticket
        // type: an update from a list applies only one of a row's matches.
        db
          .update(ticketTypes)
          .set({ sold: sql`${ticketTypes.sold} + sold_now.quantity`, updatedAt: now })
          .from(sql`json_to_recordset(${value("sold")}::json) as sold_now(ticket_type_id uuid, quantity int)`)
          .where(and(eq(ticketTypes.id, sql`sold_now.ticket_type_id`), ifPaid))
          .getSQL(),
        ticketRows.insertIfPaid(value("tickets")),
      ];
    },
    boughtInCart: (value) => sql`${cartItems.ticketTypeId} = any(${value("bought")}::uuid[])`,
    values(rows, order, now) {
      const lines = rows.map(orderLine);
      const issued: (typeof tickets.$inferInsert)[] = [];
      const soldByType = new Map<string, number>();
      for (const line of lines) {
        soldByType.set(line.ticketTypeId, (soldByType.get(line.ticketTypeId) ?? 0) + line.quantity);
        for (let index = 0; index < line.quantity; index++) {
          issued.push({
            orderItemId: line.id,
            orderId: order.id,
            ticketTypeId: line.ticketTypeId,
            eventId: line.eventId,
            userId: order.userId,
            attendeeName: line.attendeeNames[index] || null,
            code: newTicketCode(),
            createdAt: now,
            updatedAt: now,
          });
        }
      }
      return {
        now,
        tickets: ticketRows.json(issued),
        sold: JSON.stringify([...soldByType].map(([typeId, quantity]) => ({ ticket_type_id: typeId, quantity }))),
        bought: lines.map((line) => line.ticketTypeId),
      };
    },
  },

  fastSettle: {
    holdOfLine: eq(holds.ticketTypeId, orderItems.ticketTypeId),
    payable(db, value) {
      const now = sql`${value("now")}::timestamptz`;
      const lockedEvents = db
        .select({ id: events.id })
        .from(events)
        .where(
          and(
            sql`${events.id} = any(${value("eventIds")}::uuid[])`,
            ne(events.status, "cancelled"),
            gt(events.endsAt, now),
          ),
        )
        .orderBy(asc(events.id))
        .for("share");
      return {
        // The events' locks come first: every condition is checked before the order's row is locked.
        before: [sql`locked_events as materialized (${lockedEvents.getSQL()})`],
        condition: sql`(select count(*) from locked_events) = cardinality(${value("eventIds")}::uuid[])`,
      };
    },
    values: (rows) => ({ eventIds: [...new Set(rows.map((row) => orderLine(row).eventId))].sort() }),
  },

  async refund(tx, rows, { now }) {
    const lines = rows.map(orderLine);
    await readTicketStock(
      tx,
      lines.map((line) => line.eventId),
      now,
      { lock: true },
    );
    return {
      async units(tx, orderId) {
        const own = await tx
          .select({ id: tickets.id, orderItemId: tickets.orderItemId, status: tickets.status })
          .from(tickets)
          .where(eq(tickets.orderId, orderId))
          .orderBy(asc(tickets.createdAt), asc(tickets.id));
        return (line): RefundUnit[] =>
          own
            // A ticket passed on lives on as the recipient's new one, which is the unit.
            .filter((ticket) => ticket.orderItemId === line.id && ticket.status !== "transferred")
            .map((ticket) => ({ ids: [ticket.id], status: ticket.status }));
      },
      async refund(tx, chosen, now) {
        const ids = chosen.flatMap((choice) => choice.units.flat());
        // The status condition keeps a ticket from being refunded twice even without the order lock.
        const marked = await tx
          .update(tickets)
          .set({ status: "refunded", updatedAt: now })
          .where(and(inArray(tickets.id, ids), eq(tickets.status, "valid")))
          .returning({ id: tickets.id });
        if (marked.length !== ids.length) throw new Error("Tickets changed under the order lock");
        // A ticket handed back for resale gave its place back when it was listed; its listing ends.
        const listed = await tx
          .update(ticketHandBacks)
          .set({ status: "withdrawn", endedAt: now })
          .where(and(inArray(ticketHandBacks.ticketId, ids), eq(ticketHandBacks.status, "listed")))
          .returning({ ticketId: ticketHandBacks.ticketId });
        const givenBack = new Set(listed.map((row) => row.ticketId));
        // The places go back on sale at once.
        for (const { line, units } of chosen) {
          const count = units.filter((unit) => !unit.some((id) => givenBack.has(id))).length;
          if (count === 0) continue;
          await tx
            .update(ticketTypes)
            .set({ sold: sql`greatest(${ticketTypes.sold} - ${count}, 0)`, updatedAt: now })
            .where(eq(ticketTypes.id, orderLine(line).ticketTypeId));
        }
      },
    };
  },
};
