import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { type TicketStatus, tickets, ticketTypes, users } from "../../../db/schema";

type CheckedTicket = { id: string; attendeeName: string | null; ticketTypeName: string };

export type CheckInOutcome =
  | { kind: "checked_in"; ticket: CheckedTicket }
  /** At an event with re-entry: the holder had gone out, and is back in. */
  | { kind: "back_in"; ticket: CheckedTicket }
  /** A second scan says when and by whom it was first checked in. */
  | { kind: "already_checked_in"; ticket: CheckedTicket; checkedInAt: Date; checkedInBy: string | null }
  | { kind: "not_valid"; ticket: CheckedTicket; status: Exclude<TicketStatus, "valid" | "checked_in"> }
  /** No such code, or a ticket for another event: the scanner cannot tell them apart. */
  | { kind: "not_found" };

/** The ticket with this code, for this event only: a code of another event's ticket finds nothing. */
function theTicket(input: { code: string; eventId: string }) {
  return and(eq(tickets.code, input.code), eq(tickets.eventId, input.eventId));
}

/**
 * Checks a ticket in at the gate. The conditional update lets exactly one of two scanners that
 * read the same ticket at once admit it; the other is told who did and when. `code` is the plain
 * code: a scanned QR goes through `verifySignedTicketCode` first, a typed one through
 * `normaliseTicketCode`.
 */
export async function checkInTicket(
  db: Db,
  input: { code: string; eventId: string; staffId: string; now: Date; reentry?: boolean },
): Promise<CheckInOutcome> {
  const [admitted] = await db
    .update(tickets)
    .set({ status: "checked_in", checkedInAt: input.now, checkedInBy: input.staffId, updatedAt: input.now })
    .where(and(theTicket(input), eq(tickets.status, "valid")))
    .returning({ id: tickets.id });
  // Re-entry: one who went out comes back in once, however many scanners read them at once.
  const [returned] =
    !admitted && input.reentry
      ? await db
          .update(tickets)
          .set({ leftAt: null, updatedAt: input.now })
          .where(and(theTicket(input), eq(tickets.status, "checked_in"), isNotNull(tickets.leftAt)))
          .returning({ id: tickets.id })
      : [];

  const [ticket] = await db
    .select({
      id: tickets.id,
      attendeeName: tickets.attendeeName,
      ticketTypeName: ticketTypes.name,
      status: tickets.status,
      checkedInAt: tickets.checkedInAt,
      checkedInBy: users.name,
    })
    .from(tickets)
    .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
    .leftJoin(users, eq(users.id, tickets.checkedInBy))
    .where(theTicket(input));
  if (!ticket) return { kind: "not_found" };
  const { status, checkedInAt, checkedInBy, ...shown } = ticket;
  if (admitted) return { kind: "checked_in", ticket: shown };
  if (returned) return { kind: "back_in", ticket: shown };
  if (status === "cancelled" || status === "refunded" || status === "transferred") {
    return { kind: "not_valid", ticket: shown, status };
  }
  return { kind: "already_checked_in", ticket: shown, checkedInAt: checkedInAt ?? input.now, checkedInBy };
}

export type CheckOutOutcome =
  | { kind: "out"; ticket: CheckedTicket }
  | { kind: "already_out"; ticket: CheckedTicket; leftAt: Date }
  | { kind: "not_in"; ticket: CheckedTicket }
  | { kind: "not_valid"; ticket: CheckedTicket; status: Exclude<TicketStatus, "valid" | "checked_in"> }
  | { kind: "not_found" };

/**
 * Scans a ticket out at an event with re-entry: the holder may come back in with it. Like a
 * check-in, a conditional update, so two scanners reading one holder record one exit.
 */
export async function checkOutTicket(
  db: Db,
  input: { code: string; eventId: string; now: Date },
): Promise<CheckOutOutcome> {
  const [left] = await db
    .update(tickets)
    .set({ leftAt: input.now, updatedAt: input.now })
    .where(and(theTicket(input), eq(tickets.status, "checked_in"), isNull(tickets.leftAt)))
    .returning({ id: tickets.id });
  const [ticket] = await db
    .select({
      id: tickets.id,
      attendeeName: tickets.attendeeName,
      ticketTypeName: ticketTypes.name,
      status: tickets.status,
      leftAt: tickets.leftAt,
    })
    .from(tickets)
    .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
    .where(theTicket(input));
  if (!ticket) return { kind: "not_found" };
  const { status, leftAt, ...shown } = ticket;
  if (left) return { kind: "out", ticket: shown };
  if (status === "cancelled" || status === "refunded" || status === "transferred") {
    return { kind: "not_valid", ticket: shown, status };
  }
  if (status === "valid") return { kind: "not_in", ticket: shown };
  return { kind: "already_out", ticket: shown, leftAt: leftAt ?? input.now };
}
