import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { CartLineView, CartRow, CartVoucher, KindCart } from "~/features/commerce/item-kind";
import { memberLinePrice } from "~/features/commerce/member-price";
import { formatLocalDay } from "~/features/dates/event-dates";
import { ticketSalesState } from "~/features/events/sales";
import type { Db } from "~/server/db/client.server";
import { events, ticketTypes } from "../../../db/schema";
import { attendeeNamesProblem, normaliseAttendeeNames, ticketLineProblem } from "./ticket-lines";
import { readTicketStock } from "./ticket-stock.server";

const CLOSED_PROBLEMS = ["cancelled", "ended", "not_on_sale", "not_found"];

/**
 * Tickets on the cart page: single-day tickets in one section, multi-day passes in another, as
 * each pass carries its holder's name, asked before paying.
 */
export const ticketCart: KindCart = {
  sections: [
    { id: "cart-tickets", title: "Tickets" },
    {
      id: "cart-passes",
      title: "Multi-day passes",
      intro: "Each pass is for one person: enter their names and save before you pay.",
    },
  ],
  lines: ticketCartLines,
};

async function ticketCartLines(
  db: Db,
  rows: CartRow[],
  context: { userId?: string; now: Date; member?: boolean; tierId?: string | null; voucher?: CartVoucher | null },
): Promise<CartLineView[]> {
  const buyer = {
    member: context.member ?? false,
    tierId: context.tierId,
    unlocked: context.voucher?.ticketTypeIds ?? [],
  };
  const lines = rows.flatMap((row) => (row.ticketTypeId ? [{ ...row, ticketTypeId: row.ticketTypeId }] : []));
  if (lines.length === 0) return [];
  const typeEvents = await db
    .select({ id: ticketTypes.id, eventId: ticketTypes.eventId, eventSlug: events.slug })
    .from(ticketTypes)
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(
      inArray(
        ticketTypes.id,
        lines.map((line) => line.ticketTypeId),
      ),
    );
  const slugOf = new Map(typeEvents.map((type) => [type.eventId, type.eventSlug]));
  const stock = await readTicketStock(db, [...slugOf.keys()], context.now, {
    lock: false,
    exceptUserId: context.userId,
    voucherId: context.voucher?.id,
  });
  return lines.flatMap((line) => {
    const type = stock.types.get(line.ticketTypeId);
    const event = type && stock.events.get(type.eventId);
    // A ticket type deleted with its event leaves the cart with it (the foreign key cascades).
    if (!type || !event) return [];
    const types = stock.typesOfEvent(event.id);
    const state = ticketSalesState(event, type, types, context.now, buyer);
    const remaining = state.kind === "on_sale" ? state.remaining : null;
    const names = normaliseAttendeeNames(type, line.quantity, line.attendeeNames);
    const problem =
      ticketLineProblem(event, type, types, line.quantity, context.now, buyer) ??
      attendeeNamesProblem(type, names, true);
    const prices = memberLinePrice(type, buyer, line.quantity);
    const closed = CLOSED_PROBLEMS.includes(problem?.code ?? "");
    const multiDay = type.days.length > 1;
    const days = [...type.days].sort().map(formatLocalDay);
    return [
      {
        section: multiDay ? "cart-passes" : "cart-tickets",
        ref: type.id,
        label: `${event.title}, ${type.name}`,
        header: {
          href: `/events/${slugOf.get(event.id)}`,
          of: event.title,
          name: type.name,
          detail: days.length > 0 ? days.join(" · ") : null,
        },
        ...prices,
        quantity: line.quantity,
        target: { ticketTypeId: type.id },
        item: { kind: "ticket", ticketTypeId: type.id, eventId: event.id },
        problem: problem?.message ?? null,
        problemId: `line-problem-${type.id}`,
        closed,
        update: closed
          ? null
          : {
              id: `quantity-${type.id}`,
              intent: "update",
              label: multiDay ? "Save" : "Update",
              maxQuantity: Math.max(line.quantity, Math.min(type.maxPerOrder, remaining ?? type.maxPerOrder)),
            },
        remove: { intent: "remove", label: `Remove ${type.name} for ${event.title}` },
        attendeeNames: multiDay && !closed ? names : undefined,
        admitsTo: event.id,
      },
    ];
  });
}

/** A hidden ticket type the cart's code lets the buyer add (a crew ticket), as the cart offers it. */
export type UnlockedTicket = { id: string; name: string; eventTitle: string; eventSlug: string; price: number };

/**
 * The hidden ticket types among these (a voucher's) that can be bought now: of a published event
 * that has not ended, and not already in the cart.
 */
export async function unlockedTicketTypes(
  db: Db,
  ticketTypeIds: readonly string[],
  input: { inCart: ReadonlySet<string>; now: Date },
): Promise<UnlockedTicket[]> {
  const wanted = ticketTypeIds.filter((id) => !input.inCart.has(id));
  if (wanted.length === 0) return [];
  return db
    .select({
      id: ticketTypes.id,
      name: ticketTypes.name,
      eventTitle: events.title,
      eventSlug: events.slug,
      price: ticketTypes.price,
    })
    .from(ticketTypes)
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(
      and(
        inArray(ticketTypes.id, wanted),
        eq(ticketTypes.hidden, true),
        eq(events.status, "published"),
        gt(events.endsAt, input.now),
      ),
    )
    .orderBy(asc(events.startsAt), asc(ticketTypes.sortOrder));
}
