import { eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { events, tickets, ticketTypes } from "../../../db/schema";
import type { PassingOnEvent, PassingOnTicket } from "./transfer-rules";

/** A refusal that ends the transaction it is thrown in, with the words the member reads. */
export class Refused extends Error {}

/** The ticket, its type and its event, with the ticket's row locked when `lock` is set. */
export async function ticketWithEvent(tx: Db, ticketId: string, lock: boolean) {
  const query = tx
    .select({
      id: tickets.id,
      userId: tickets.userId,
      status: tickets.status,
      transfers: tickets.transfers,
      orderId: tickets.orderId,
      orderItemId: tickets.orderItemId,
      ticketTypeId: tickets.ticketTypeId,
      ticketTypeName: ticketTypes.name,
      capacity: ticketTypes.capacity,
      eventId: events.id,
      eventTitle: events.title,
      eventStatus: events.status,
      startsAt: events.startsAt,
      timeZone: events.timeZone,
      transferRule: events.transfers,
      transfersCloseHours: events.transfersCloseHours,
      handBackEnabled: events.handBackEnabled,
      fee: events.handBackFee,
    })
    .from(tickets)
    .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where(eq(tickets.id, ticketId));
  const [row] = lock ? await query.for("update", { of: tickets }) : await query;
  return row;
}

export type TicketWithEvent = NonNullable<Awaited<ReturnType<typeof ticketWithEvent>>>;

type RulesRow = Pick<
  TicketWithEvent,
  "status" | "transfers" | "eventStatus" | "startsAt" | "transferRule" | "transfersCloseHours" | "handBackEnabled"
>;

/** A ticket's row as the passing-on rules read it. */
export function rulesView(row: RulesRow): { ticket: PassingOnTicket; event: PassingOnEvent } {
  return {
    ticket: { status: row.status, transfers: row.transfers },
    event: {
      status: row.eventStatus,
      startsAt: row.startsAt,
      transfers: row.transferRule,
      transfersCloseHours: row.transfersCloseHours,
      handBackEnabled: row.handBackEnabled,
    },
  };
}
