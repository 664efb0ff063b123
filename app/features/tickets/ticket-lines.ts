import { formatEventInstant } from "~/features/dates/event-dates";
import { type Buyer, mayBuy, type SalesEvent, type SalesTicketType, ticketSalesState } from "~/features/events/sales";
import { plural } from "~/ui/plural";

/**
 * The rules one line of tickets must meet to go in a cart or an order, as pure functions: the
 * cart checks them against live counts, checkout again under row locks.
 */

export type LineEvent = SalesEvent & { id: string; title: string; timeZone: string };
export type LineTicketType = SalesTicketType & {
  id: string;
  eventId: string;
  name: string;
  maxPerOrder: number;
  days: string[];
};

/** What the cart page shows beside a line, and checkout answers with when it refuses. */
export type LineProblem = {
  code:
    | "not_found"
    | "quantity"
    | "max_per_order"
    | "not_enough"
    | "sold_out"
    | "not_on_sale"
    | "not_yet"
    | "ended"
    | "cancelled"
    | "members_only"
    | "attendee_names";
  message: string;
  ticketTypeId: string;
  /** Places left, for "not_enough". */
  remaining?: number;
};

export const ATTENDEE_NAME_MAX = 80;

/** A ticket type that covers two days or more is a multi-day pass. */
function isMultiDayPass(type: Pick<LineTicketType, "days">) {
  return type.days.length >= 2;
}

function tickets(count: number, name: string) {
  return `${count} ${name} ${plural(count, "ticket", "tickets")}`;
}

export function maxPerOrderMessage(type: Pick<LineTicketType, "maxPerOrder" | "name">) {
  return `You can buy up to ${tickets(type.maxPerOrder, type.name)} in one order`;
}

/** A quantity from a form: a whole number from 1, or null (0, negative, fractions, huge). */
export function isLineQuantity(quantity: unknown, max: number): quantity is number {
  return typeof quantity === "number" && Number.isSafeInteger(quantity) && quantity >= 1 && quantity <= max;
}

/**
 * Attendee names trimmed, one per ticket: a multi-day pass keeps a (possibly blank) name per
 * ticket, so the cart can ask for the missing ones; other tickets keep none.
 */
export function normaliseAttendeeNames(type: Pick<LineTicketType, "days">, quantity: number, names: readonly string[]) {
  if (!isMultiDayPass(type)) return [];
  return Array.from({ length: quantity }, (_, index) => (names[index] ?? "").replace(/\s+/g, " ").trim());
}

/** Names too long to print on a ticket are refused rather than cut. */
export function attendeeNamesProblem(type: LineTicketType, names: readonly string[], requireAll: boolean) {
  if (!isMultiDayPass(type)) return null;
  if (names.some((name) => name.length > ATTENDEE_NAME_MAX)) {
    return problem(type, "attendee_names", `Attendee names can be up to ${ATTENDEE_NAME_MAX} characters`);
  }
  if (requireAll && names.some((name) => name === "")) {
    return problem(type, "attendee_names", `Enter the name of the person each ${type.name} ticket is for`);
  }
  return null;
}

/**
 * Whether `quantity` tickets of `type` can be had now. `types` is every ticket type of the event
 * with its `held` count, so the event's own capacity is counted across them.
 */
export function ticketLineProblem(
  event: LineEvent,
  type: LineTicketType,
  types: LineTicketType[],
  quantity: number,
  now: Date,
  buyer: Buyer = { member: false },
): LineProblem | null {
  if (!isLineQuantity(quantity, Number.MAX_SAFE_INTEGER)) {
    return problem(type, "quantity", `Choose how many ${type.name} tickets you want`);
  }
  if (event.status === "draft" || (type.hidden && !buyer.unlocked?.includes(type.id))) {
    return problem(type, "not_on_sale", `${type.name} tickets for ${event.title} are not on sale`);
  }
  if (!mayBuy(type, buyer)) {
    return problem(type, "members_only", `${type.name} tickets for ${event.title} are for members only`);
  }
  const state = ticketSalesState(event, type, types, now, buyer);
  switch (state.kind) {
    case "cancelled":
      return problem(type, "cancelled", `${event.title} has been cancelled`);
    case "ended":
      return problem(type, "ended", `Sales of ${type.name} tickets for ${event.title} have ended`);
    case "sold_out":
      return problem(type, "sold_out", `${type.name} tickets for ${event.title} are sold out`);
    case "not_yet":
      return problem(
        type,
        "not_yet",
        `${type.name} tickets for ${event.title} go on sale on ${formatEventInstant(state.opensAt, event.timeZone)}`,
      );
    case "on_sale":
      break;
  }
  if (quantity > type.maxPerOrder) {
    return problem(type, "max_per_order", maxPerOrderMessage(type));
  }
  if (state.remaining !== null && quantity > state.remaining) {
    const verb = plural(state.remaining, "is", "are");
    return {
      ...problem(type, "not_enough", `Only ${tickets(state.remaining, type.name)} ${verb} left for ${event.title}`),
      remaining: state.remaining,
    };
  }
  return null;
}

function problem(type: Pick<LineTicketType, "id">, code: LineProblem["code"], message: string): LineProblem {
  return { code, message, ticketTypeId: type.id };
}
