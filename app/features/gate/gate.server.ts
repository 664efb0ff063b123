import { and, asc, eq, gte, ilike, inArray, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { checkInPass } from "~/features/applications/passes.server";
import { formatOrderNumber, parseOrderNumber } from "~/features/commerce/order-number";
import { localDate, parseLocalDateTime } from "~/features/dates/time-zones";
import { eventSearch } from "~/features/events/organizer/queries.server";
import { checkInMember } from "~/features/membership/member-gate.server";
import { checkInTicket, checkOutTicket } from "~/features/tickets/check-in.server";
import { normaliseTicketCode, verifySignedTicketCode } from "~/features/tickets/ticket-codes.server";
import type { Db } from "~/server/db/client.server";
import { containing, endingWith } from "~/server/db/like";
import { events, type GateRole, orders, type TicketStatus, tickets, ticketTypes, users } from "../../../db/schema";
import { holderShownTo } from "./gate-roles";
import {
  type GateDirection,
  gateTime,
  NOT_A_TICKET,
  type OfflineAnswer,
  REENTRY_WORDS,
  REFUSED_STATUS,
  TONE_OF,
} from "./offline-rules";

/** What the steward sees after a scan or a typed code. Decided on the server, never in the browser. */
export type GateResult = {
  tone: "admitted" | "warning" | "refused";
  headline: string;
  detail: string | null;
  /** An exhibitor pass: the car to look for, with its cover photo's hash. */
  car?: { label: string; coverHash: string | null };
  /** The member who bought the ticket: the gate looks up merch they collect here (docs/fulfilment.md). */
  buyerId?: string | null;
};

/**
 * Checks in what the steward scanned or typed. A scanned QR must carry a correct signature; a
 * typed code is the plain code (case, spaces and look-alike letters forgiven). Only after that is
 * anything looked up, so a made-up code costs nothing and reveals nothing.
 */
export async function admitAtGate(
  db: Db,
  input: {
    value: string;
    eventId: string;
    staffId: string;
    secret: string;
    now: Date;
    /** Whose screen shows the answer: a steward reads initials, not names (default: a supervisor). */
    shownTo?: GateRole;
    /** An entry (the default), or an exit at an event with re-entry. */
    direction?: GateDirection;
  },
): Promise<GateResult> {
  const shown = (name: string) => holderShownTo(input.shownTo ?? "supervisor", name);
  const value = input.value.trim();
  const code = value.includes(".") ? verifySignedTicketCode(value, input.secret) : normaliseTicketCode(value);
  if (!code)
    return { tone: "refused", headline: NOT_A_TICKET, detail: "Check the code, or send the holder to the box office." };

  const [event] = await db
    .select({ timeZone: events.timeZone, reentry: events.gateReentry })
    .from(events)
    .where(eq(events.id, input.eventId));
  if (!event) return { tone: "refused", headline: NOT_A_TICKET, detail: null };
  if (input.direction === "out") return scanOut(db, { code, eventId: input.eventId, now: input.now }, event, shown);
  const outcome = await checkInTicket(db, {
    code,
    eventId: input.eventId,
    staffId: input.staffId,
    now: input.now,
    reentry: event.reentry,
  });

  if (outcome.kind === "not_found") {
    // Not a ticket: an exhibitor pass shares the code format and the signing key.
    const pass = await admitPass(
      db,
      { code, eventId: input.eventId, staffId: input.staffId, now: input.now },
      event,
      shown,
    );
    if (pass) return pass;
    // Nor a pass: a member card shares them too.
    const member = await admitMember(
      db,
      { code, eventId: input.eventId, staffId: input.staffId, now: input.now },
      event,
      shown,
    );
    if (member) return member;
    // checkInTicket cannot tell a stranger's code from another event's ticket; the gate can.
    const [elsewhere] = await db
      .select({ title: events.title })
      .from(tickets)
      .innerJoin(events, eq(events.id, tickets.eventId))
      .where(eq(tickets.code, code));
    return elsewhere
      ? { tone: "refused", headline: `This ticket is for ${elsewhere.title}`, detail: "It does not admit anyone here." }
      : { tone: "refused", headline: NOT_A_TICKET, detail: "No ticket has this code." };
  }

  const { holder, buyerId } = await holderOf(db, outcome.ticket.id);
  const who = `${shown(holder)}, ${outcome.ticket.ticketTypeName}`;
  switch (outcome.kind) {
    case "checked_in":
      return { tone: "admitted", headline: `Checked in: ${who}`, detail: null, buyerId };
    case "back_in":
      return { tone: "admitted", headline: REENTRY_WORDS.backIn(who), detail: null, buyerId };
    case "already_checked_in":
      return {
        tone: "warning",
        headline: alreadyCheckedIn(outcome, event.timeZone, input.now),
        detail: who,
        buyerId,
      };
    case "not_valid":
      return { tone: "refused", headline: REFUSED_STATUS[outcome.status], detail: `${who}. Do not admit.` };
  }
}

/** An exit scan at an event with re-entry: tickets only; the holder may come back in. */
async function scanOut(
  db: Db,
  input: { code: string; eventId: string; now: Date },
  event: { timeZone: string; reentry: boolean },
  shown: (name: string) => string,
): Promise<GateResult> {
  const answer = (words: OfflineAnswer): GateResult => ({
    tone: TONE_OF[words.decision],
    headline: words.headline,
    detail: words.detail,
  });
  if (!event.reentry) return answer(REENTRY_WORDS.noReentry);
  const outcome = await checkOutTicket(db, input);
  if (outcome.kind === "not_found") return answer(REENTRY_WORDS.notATicketOut);
  const { holder } = await holderOf(db, outcome.ticket.id);
  const who = `${shown(holder)}, ${outcome.ticket.ticketTypeName}`;
  switch (outcome.kind) {
    case "out":
      return answer(REENTRY_WORDS.out(who));
    case "already_out":
      return answer(REENTRY_WORDS.alreadyOut(gateTime(outcome.leftAt, event.timeZone, input.now), who));
    case "not_in":
      return answer(REENTRY_WORDS.notIn(who));
    case "not_valid":
      return { tone: "refused", headline: REFUSED_STATUS[outcome.status], detail: `${who}. Do not admit.` };
  }
}

/** What the steward reads when a ticket or pass was scanned before: when, and by whom if known. */
function alreadyCheckedIn(scan: { checkedInAt: Date; checkedInBy: string | null }, timeZone: string, now: Date) {
  const by = scan.checkedInBy ? ` by ${scan.checkedInBy}` : "";
  return `Already checked in at ${gateTime(scan.checkedInAt, timeZone, now)}${by}`;
}

/** The gate's answer for an exhibitor pass, or null when the code is no pass at all. */
async function admitPass(
  db: Db,
  input: { code: string; eventId: string; staffId: string; now: Date },
  event: { timeZone: string },
  shown: (name: string) => string,
): Promise<GateResult | null> {
  const outcome = await checkInPass(db, input);
  switch (outcome.kind) {
    case "not_found":
      return null;
    case "other_event":
      return {
        tone: "refused",
        headline: `This exhibitor pass is for ${outcome.eventTitle}`,
        detail: "It does not admit anyone here.",
      };
    case "checked_in":
      return {
        tone: "admitted",
        headline: `Exhibitor: ${outcome.carLabel}`,
        detail: outcome.holder ? shown(outcome.holder) : null,
        car: { label: outcome.carLabel, coverHash: outcome.coverHash },
      };
    case "already_checked_in":
      return {
        tone: "warning",
        headline: alreadyCheckedIn(outcome, event.timeZone, input.now),
        detail: `Exhibitor: ${outcome.carLabel}${outcome.holder ? `, ${shown(outcome.holder)}` : ""}`,
        car: { label: outcome.carLabel, coverHash: outcome.coverHash },
      };
    case "cancelled":
      return {
        tone: "refused",
        headline: "This exhibitor pass was cancelled",
        detail: `Exhibitor: ${outcome.carLabel}. Do not admit.`,
        car: { label: outcome.carLabel, coverHash: outcome.coverHash },
      };
  }
}

/** The gate's answer for a member card, or null when the code is no member card at all. */
async function admitMember(
  db: Db,
  input: { code: string; eventId: string; staffId: string; now: Date },
  event: { timeZone: string },
  shown: (name: string) => string,
): Promise<GateResult | null> {
  const outcome = await checkInMember(db, input);
  if (outcome.kind === "not_found") return null;
  const who = `${shown(outcome.holder)}, ${outcome.tier}`;
  switch (outcome.kind) {
    case "not_for_entry":
      return {
        tone: "refused",
        headline: "Member, not valid for entry",
        detail: `${who}. A member card does not admit to this event.`,
      };
    case "not_valid":
      return { tone: "refused", headline: `Membership ${outcome.state}`, detail: `${who}. Do not admit.` };
    case "checked_in":
      return { tone: "admitted", headline: `Member: ${who}`, detail: alsoCovers(outcome.people.map(shown)) };
    case "already_checked_in":
      return {
        tone: "warning",
        headline: alreadyCheckedIn(outcome, event.timeZone, input.now),
        detail: `Member: ${who}`,
      };
  }
}

/** The other people a family membership names, for the steward: "Also covers Sam, Alex". */
function alsoCovers(people: string[]) {
  return people.length > 0 ? `Also covers ${people.join(", ")}` : null;
}

/** The ticket's attendee, else its buyer's name, else the order's email. */
async function holderOf(db: Db, ticketId: string) {
  const [row] = await db
    .select({ attendee: tickets.attendeeName, buyer: users.name, email: orders.email, buyerId: orders.userId })
    .from(tickets)
    .innerJoin(orders, eq(orders.id, tickets.orderId))
    .leftJoin(users, eq(users.id, orders.userId))
    .where(eq(tickets.id, ticketId));
  return { holder: row?.attendee || row?.buyer || row?.email || "Unnamed holder", buyerId: row?.buyerId ?? null };
}

/**
 * Tickets through the gate against tickets sold, for the live counter, and (at an event with
 * re-entry) how many of those are inside now.
 */
export async function gateCounts(db: Db, eventId: string) {
  const [row] = await db
    .select({
      checkedIn: sql<number>`count(*) filter (where ${tickets.status} = 'checked_in')::int`,
      inside: sql<number>`count(*) filter (where ${tickets.status} = 'checked_in' and ${tickets.leftAt} is null)::int`,
      sold: sql<number>`count(*) filter (where ${tickets.status} in ('valid', 'checked_in'))::int`,
    })
    .from(tickets)
    .where(eq(tickets.eventId, eventId));
  return { checkedIn: Number(row?.checkedIn ?? 0), inside: Number(row?.inside ?? 0), sold: Number(row?.sold ?? 0) };
}

export type Attendee = {
  id: string;
  name: string;
  email: string;
  /** The order's reference, PL-000123. */
  order: string;
  ticketType: string;
  codeEnd: string;
  status: TicketStatus;
  checkedInAt: string | null;
  checkedInBy: string | null;
};

export const ATTENDEES_SHOWN = 200;

/**
 * Everyone holding a ticket for the event, for the gate's list and the CSV. `q` matches a name,
 * an email, an order number (PL-000123, or 123) or the end of a code. `limit` caps the page list; the CSV takes everyone.
 */
export async function listAttendees(
  db: Db,
  input: { eventId: string; q?: string; limit?: number; timeZone: string; now: Date },
): Promise<Attendee[]> {
  const buyer = alias(users, "buyer");
  const checker = alias(users, "checker");
  const q = input.q?.trim();
  // A code is typed with or without its dashes; a search with no letter or digit names no code.
  const code = q?.toUpperCase().replace(/[^0-9A-Z]/g, "");
  const orderNumber = q ? parseOrderNumber(q) : null;
  const search = q
    ? or(
        ilike(tickets.attendeeName, containing(q)),
        ilike(buyer.name, containing(q)),
        ilike(orders.email, containing(q)),
        code ? ilike(tickets.code, endingWith(code)) : undefined,
        orderNumber ? eq(orders.number, orderNumber) : undefined,
      )
    : undefined;
  const query = db
    .select({
      id: tickets.id,
      attendee: tickets.attendeeName,
      buyer: buyer.name,
      email: orders.email,
      orderNumber: orders.number,
      ticketType: ticketTypes.name,
      code: tickets.code,
      status: tickets.status,
      checkedInAt: tickets.checkedInAt,
      checkedInBy: checker.name,
    })
    .from(tickets)
    .innerJoin(orders, eq(orders.id, tickets.orderId))
    .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
    .leftJoin(buyer, eq(buyer.id, orders.userId))
    .leftJoin(checker, eq(checker.id, tickets.checkedInBy))
    .where(and(eq(tickets.eventId, input.eventId), search))
    .orderBy(asc(sql`coalesce(nullif(${tickets.attendeeName}, ''), ${buyer.name}, ${orders.email})`), asc(tickets.id));
  const rows = input.limit ? await query.limit(input.limit) : await query;
  return rows.map((row) => ({
    id: row.id,
    name: row.attendee || row.buyer || row.email,
    email: row.email,
    order: formatOrderNumber(row.orderNumber),
    ticketType: row.ticketType,
    codeEnd: row.code.slice(-4),
    status: row.status,
    checkedInAt: row.checkedInAt ? gateTime(row.checkedInAt, input.timeZone, input.now) : null,
    checkedInBy: row.checkedInBy,
  }));
}

/** How many events the check-in page lists at once; a search finds any other. */
export const GATE_LIST_SIZE = 50;

/**
 * Published events still running at the start of today (in the site's time zone) or later,
 * soonest first, for the check-in page: a steward can still export the list on the evening.
 * `q` keeps those whose title, venue, town or address holds it. At most `GATE_LIST_SIZE` of
 * them; `more` says whether others follow.
 */
export async function eventsAtTheGate(db: Db, input: { now: Date; timeZone: string; q?: string }) {
  const { now } = input;
  const midnight = parseLocalDateTime(`${localDate(now, input.timeZone)}T00:00`, input.timeZone);
  const dayStart = midnight.ok ? midnight.instant : new Date(now.getTime() - 24 * 3600 * 1000);
  const found = await db
    .select({
      id: events.id,
      title: events.title,
      startsAt: events.startsAt,
      endsAt: events.endsAt,
      timeZone: events.timeZone,
      venue: events.venue,
      town: events.town,
    })
    .from(events)
    .where(and(eq(events.status, "published"), gte(events.endsAt, dayStart), eventSearch(input.q ?? "")))
    .orderBy(asc(events.startsAt), asc(events.id))
    .limit(GATE_LIST_SIZE + 1);
  const rows = found.slice(0, GATE_LIST_SIZE);
  const counts =
    rows.length === 0
      ? []
      : await db
          .select({
            eventId: tickets.eventId,
            checkedIn: sql<number>`count(*) filter (where ${tickets.status} = 'checked_in')::int`,
            sold: sql<number>`count(*) filter (where ${tickets.status} in ('valid', 'checked_in'))::int`,
          })
          .from(tickets)
          .where(
            inArray(
              tickets.eventId,
              rows.map((row) => row.id),
            ),
          )
          .groupBy(tickets.eventId);
  const countOf = new Map(counts.map((entry) => [entry.eventId, entry]));
  const listed = rows.map((row) => {
    const count = countOf.get(row.id);
    return {
      ...row,
      live: row.startsAt <= now && row.endsAt >= now,
      checkedIn: Number(count?.checkedIn ?? 0),
      sold: Number(count?.sold ?? 0),
    };
  });
  return { events: listed, more: found.length > GATE_LIST_SIZE };
}

/**
 * The event's ticket holders (those matching `q`, the first `limit` of them) as the check-in page
 * and its CSV list them, with the event's address words for the file's name; null when there is
 * no such event.
 */
export async function eventAttendees(db: Db, input: { eventId: string; q: string; limit?: number; now: Date }) {
  const [event] = await db
    .select({ slug: events.slug, timeZone: events.timeZone })
    .from(events)
    .where(eq(events.id, input.eventId));
  if (!event) return null;
  return { slug: event.slug, attendees: await listAttendees(db, { ...input, timeZone: event.timeZone }) };
}
