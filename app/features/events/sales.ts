import { buyerPrice } from "~/features/commerce/member-price";

/**
 * Whether tickets can be bought, worked out from an event and its ticket types at a moment in
 * time (on sale, not yet on sale, sales ended, sold out, cancelled).
 * Pure functions: the catalogue, the event page, the cart and the dashboard all agree.
 *
 * Availability counts `held` places too: available = capacity − sold −
 * active holds. Until a cart holds anything, `held` is 0.
 */

export type SalesEvent = {
  status: "draft" | "published" | "cancelled";
  startsAt: Date;
  endsAt: Date;
  salesStartAt: Date | null;
  salesEndAt: Date | null;
  /** People admitted across every ticket type; null when only the ticket types limit it. */
  capacity: number | null;
};

export type SalesTicketType = {
  price: number;
  capacity: number | null;
  sold: number;
  held?: number;
  salesStartAt: Date | null;
  salesEndAt: Date | null;
  hidden: boolean;
  /** What members pay (null or absent: the same as everyone). */
  memberPrice?: number | null;
  /** What members of a tier pay, by tier id, over `memberPrice` (absent: `memberPrice`). */
  tierPrices?: Readonly<Record<string, number>> | null;
  /** Only members may buy it. */
  membersOnly?: boolean;
  /** Members may buy from here, before the general sale (a presale). */
  memberSalesStartAt?: Date | null;
};

/** Whether the buyer holds a membership with its benefits: member prices and presales are theirs. */
export type Buyer = {
  member: boolean;
  /** Their membership's tier: a type's price for that tier is theirs. */
  tierId?: string | null;
  /** Hidden ticket types the code in the buyer's cart lets them buy (a crew ticket). */
  unlocked?: readonly string[];
};

const EVERYONE: Buyer = { member: false };

/** What `buyer` pays for one ticket of `type`. */
export function ticketPrice(
  type: Pick<SalesTicketType, "price" | "memberPrice" | "tierPrices">,
  buyer: Buyer = EVERYONE,
) {
  return buyerPrice(type, buyer);
}

/** Whether `buyer` may buy `type` at all (a members-only type is for members). */
export function mayBuy(type: Pick<SalesTicketType, "membersOnly">, buyer: Buyer = EVERYONE) {
  return !type.membersOnly || buyer.member;
}

export type TicketSalesState =
  | { kind: "on_sale"; remaining: number | null; fewLeft: boolean }
  | { kind: "not_yet"; opensAt: Date }
  | { kind: "ended" }
  | { kind: "sold_out" }
  | { kind: "cancelled" };

/**
 * When a ticket type's sales open and close, falling back to the event's window and its end. For
 * a member, a members' presale opens it earlier.
 */
export function salesWindow(
  event: SalesEvent,
  type: Pick<SalesTicketType, "salesStartAt" | "salesEndAt" | "memberSalesStartAt">,
  buyer: Buyer = EVERYONE,
) {
  const general = type.salesStartAt ?? event.salesStartAt;
  const presale = buyer.member ? (type.memberSalesStartAt ?? null) : null;
  return {
    opensAt: presale && (!general || presale < general) ? presale : general,
    closesAt: type.salesEndAt ?? event.salesEndAt ?? event.endsAt,
  };
}

/** Whether members can buy `type` now while everyone else must still wait (its presale is on). */
export function inPresale(event: SalesEvent, type: SalesTicketType, now: Date) {
  const general = salesWindow(event, type).opensAt;
  const members = salesWindow(event, type, { member: true }).opensAt;
  return Boolean(general && now < general && members && now >= members);
}

/** Places left at event level (null: no event-level limit). */
export function eventRemaining(event: SalesEvent, types: SalesTicketType[]) {
  if (event.capacity === null) return null;
  const taken = types.reduce((sum, type) => sum + type.sold + (type.held ?? 0), 0);
  return Math.max(0, event.capacity - taken);
}

/** Places left for one type, within the event's own limit too (null: unlimited). */
export function ticketRemaining(event: SalesEvent, type: SalesTicketType, types: SalesTicketType[]) {
  const own = type.capacity === null ? null : Math.max(0, type.capacity - type.sold - (type.held ?? 0));
  const shared = eventRemaining(event, types);
  if (own === null) return shared;
  if (shared === null) return own;
  return Math.min(own, shared);
}

/** "Few left" once a tenth of the places (at least 5) remain. */
export function isFewLeft(remaining: number | null, capacity: number | null) {
  if (remaining === null || capacity === null || remaining === 0) return false;
  return remaining <= Math.max(5, Math.ceil(capacity * 0.1));
}

export function ticketSalesState(
  event: SalesEvent,
  type: SalesTicketType,
  types: SalesTicketType[],
  now: Date,
  buyer: Buyer = EVERYONE,
): TicketSalesState {
  if (event.status === "cancelled") return { kind: "cancelled" };
  const { opensAt, closesAt } = salesWindow(event, type, buyer);
  if (now >= closesAt) return { kind: "ended" };
  const remaining = ticketRemaining(event, type, types);
  if (remaining === 0) return { kind: "sold_out" };
  if (opensAt && now < opensAt) return { kind: "not_yet", opensAt };
  const limit = type.capacity ?? event.capacity;
  return { kind: "on_sale", remaining, fewLeft: isFewLeft(remaining, limit) };
}

export type EventSalesSummary = {
  /** The event as a whole: what a tile's badge and the page's banner say. */
  state: "cancelled" | "past" | "on_sale" | "not_yet" | "sold_out" | "ended" | "no_tickets";
  /** The cheapest visible ticket still to be had (on sale or opening later), in minor units. */
  fromPrice: number | null;
  fewLeft: boolean;
  /** The earliest opening time when nothing is on sale yet. */
  opensAt: Date | null;
};

export function eventSalesSummary(event: SalesEvent, types: SalesTicketType[], now: Date): EventSalesSummary {
  // What everyone can see: members-only types are not counted in the public summary.
  const visible = types.filter((type) => !type.hidden && !type.membersOnly);
  const states = visible.map((type) => ({ type, state: ticketSalesState(event, type, types, now) }));
  const live = states.filter(({ state }) => state.kind === "on_sale" || state.kind === "not_yet");
  const prices = (live.length > 0 ? live : states).map(({ type }) => type.price);
  const fromPrice = prices.length > 0 ? Math.min(...prices) : null;
  const onSale = states.filter(({ state }) => state.kind === "on_sale");
  const fewLeft = onSale.length > 0 && onSale.every(({ state }) => state.kind === "on_sale" && state.fewLeft);
  const opening = states
    .map(({ state }) => (state.kind === "not_yet" ? state.opensAt : null))
    .filter((date): date is Date => date !== null)
    .sort((a, b) => a.getTime() - b.getTime());

  let state: EventSalesSummary["state"];
  if (event.status === "cancelled") state = "cancelled";
  else if (now >= event.endsAt) state = "past";
  else if (visible.length === 0) state = "no_tickets";
  else if (onSale.length > 0) state = "on_sale";
  else if (opening.length > 0) state = "not_yet";
  else if (states.some(({ state }) => state.kind === "sold_out")) state = "sold_out";
  else state = "ended";

  return { state, fromPrice, fewLeft, opensAt: opening[0] ?? null };
}
