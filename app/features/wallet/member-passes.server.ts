import { and, eq, gt } from "drizzle-orm";
import { eventDateLabels } from "~/features/dates/event-dates";
import { membershipDate } from "~/features/membership/membership-labels";
import { memberCard } from "~/features/membership/memberships.server";
import { formatTicketCode, signTicketCode } from "~/features/tickets/ticket-codes.server";
import type { Db } from "~/server/db/client.server";
import { isUuid } from "~/server/db/uuid";
import { events, tickets, ticketTypes, users } from "../../../db/schema";
import type { MemberCardPassData, TicketPassData } from "./passes.server";

/**
 * What a wallet pass shows of one of the member's own tickets, or null: no such ticket, someone
 * else's, one that no longer admits (refunded, transferred, cancelled), or one for an event that
 * has ended.
 */
export async function memberTicketPass(
  db: Db,
  input: { ticketId: string; userId: string; secret: string; now: Date },
): Promise<TicketPassData | null> {
  if (!isUuid(input.ticketId)) return null;
  const [row] = await db
    .select({
      id: tickets.id,
      code: tickets.code,
      attendee: tickets.attendeeName,
      holder: users.name,
      ticketType: ticketTypes.name,
      eventId: events.id,
      title: events.title,
      startsAt: events.startsAt,
      endsAt: events.endsAt,
      timeZone: events.timeZone,
      venue: events.venue,
      address: events.address,
      town: events.town,
      latitude: events.latitude,
      longitude: events.longitude,
    })
    .from(tickets)
    .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
    .innerJoin(events, eq(events.id, tickets.eventId))
    .innerJoin(users, eq(users.id, tickets.userId))
    .where(
      and(
        eq(tickets.id, input.ticketId),
        eq(tickets.userId, input.userId),
        eq(tickets.status, "valid"),
        gt(events.endsAt, input.now),
      ),
    );
  if (!row) return null;
  const labels = eventDateLabels(row.startsAt, row.endsAt, row.timeZone);
  return {
    ticketId: row.id,
    qrPayload: signTicketCode(row.code, input.secret),
    codeLabel: formatTicketCode(row.code),
    holder: row.attendee || row.holder,
    ticketType: row.ticketType,
    event: {
      id: row.eventId,
      title: row.title,
      startsAt: row.startsAt,
      endsAt: row.endsAt,
      timeZone: row.timeZone,
      venue: row.venue,
      address: [row.address, row.town].filter(Boolean).join(", ") || null,
      latitude: row.latitude,
      longitude: row.longitude,
      whenLabel: `${labels.dates}, ${labels.times} ${labels.zone}`,
    },
  };
}

/** What a wallet pass shows of the member's card, or null: no membership, or one without its benefits now. */
export async function memberCardPassData(
  db: Db,
  input: { userId: string; holder: string; secret: string; now: Date; timeZone: string },
): Promise<MemberCardPassData | null> {
  const card = await memberCard(db, input);
  if (!card?.valid || !card.qrPayload || !card.code) return null;
  return {
    membershipId: card.membershipId,
    qrPayload: card.qrPayload,
    codeLabel: card.code,
    holder: input.holder,
    tierName: card.tierName,
    validUntil: card.validUntil,
    validUntilLabel: membershipDate(card.validUntil, input.timeZone),
  };
}
