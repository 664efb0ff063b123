import type { TicketSalesState } from "~/features/events/sales";
import { type ListSettings, listClosesAt } from "~/features/places/line-state";
import { plural } from "~/ui/plural";

/**
 * The rules of waiting lists, as pure functions: when a list takes people, who is offered the
 * places that come back and for how long, and where someone stands. The offer sweep applies them
 * under the stock locks; the pages read them for what to show.
 */

const HOUR = 60 * 60 * 1000;

/**
 * Why a member cannot join the list for a ticket type in this state now (null when they can). A
 * list is for a type that is sold out; one that can be bought, or will be, needs none.
 */
export function joinProblem(event: ListSettings, state: TicketSalesState, now: Date): string | null {
  if (event.status === "cancelled" || state.kind === "cancelled") return "This event is cancelled";
  if (!event.waitingListEnabled || event.status !== "published") return "This event has no waiting list";
  if (now >= listClosesAt(event)) return "The waiting list for this event has closed";
  switch (state.kind) {
    case "on_sale":
      return "These tickets are on sale: add them to your cart";
    case "not_yet":
      return "These tickets are not on sale yet";
    case "ended":
      return "Sales of these tickets have ended";
    case "sold_out":
      return null;
  }
}

/**
 * Why a member cannot join the line for a merch variant now (null when they can): the line is
 * for a variant in the shop with nothing left to sell.
 */
export function variantJoinProblem(
  variant: { productStatus: string; active: boolean; waitingListEnabled: boolean; available: number } | null,
): string | null {
  if (variant?.productStatus !== "active" || !variant.active) return "This item is not in the shop";
  if (!variant.waitingListEnabled) return "This item has no waiting list";
  if (variant.available > 0) return "This item is in stock: add it to your cart";
  return null;
}

/**
 * Why a member cannot wait for this many places, or items of merch (null when they can): up to
 * the order limit.
 */
export function quantityProblem(
  quantity: number,
  maxPerOrder: number,
  unit: "place" | "item" = "place",
): string | null {
  const [one, other] = unit === "place" ? ["place", "places"] : ["item", "items"];
  if (!Number.isInteger(quantity) || quantity < 1) return `Choose how many ${other} you want`;
  if (quantity > maxPerOrder) return `Wait for at most ${maxPerOrder} ${plural(maxPerOrder, one!, other!)}`;
  return null;
}

/** A place in line as the offer rules see it. */
export type InLine = { id: string; quantity: number };

/**
 * Who is offered `free` places, in line order: each is offered all the places they wait for, or
 * none. Someone waiting for more places than are free is passed over this time and keeps their
 * place in line; the next person who fits is offered instead.
 */
export function offersToMake<T extends InLine>(line: readonly T[], free: number): T[] {
  const offered: T[] = [];
  let left = free;
  for (const entry of line) {
    if (left <= 0) break;
    if (entry.quantity > left) continue;
    offered.push(entry);
    left -= entry.quantity;
  }
  return offered;
}

/**
 * When an offer made at `now` ends: after the organizer's hours, but never after the ticket
 * type's sales close.
 */
export function offerEndsAt(now: Date, offerHours: number, salesCloseAt: Date) {
  return new Date(Math.min(now.getTime() + offerHours * HOUR, salesCloseAt.getTime()));
}

/** The sort key of someone joining at `now`: the line is in the order people joined. */
export function joiningSortKey(now: Date) {
  return now.getTime();
}

/**
 * The sort key that puts someone at `position` (1 is first) among those waiting, `keys` being the
 * others' keys in line order: halfway between the two they go between, so nobody else moves.
 */
export function sortKeyAt(keys: readonly number[], position: number) {
  const index = Math.max(0, Math.min(position - 1, keys.length));
  const before = keys[index - 1];
  const after = keys[index];
  if (after === undefined) return (before ?? 0) + 1000;
  if (before === undefined) return after - 1000;
  return (before + after) / 2;
}

/** "You are 3rd in line" ordinal. */
export function ordinal(position: number) {
  const tens = position % 100;
  if (tens >= 11 && tens <= 13) return `${position}th`;
  switch (position % 10) {
    case 1:
      return `${position}st`;
    case 2:
      return `${position}nd`;
    case 3:
      return `${position}rd`;
    default:
      return `${position}th`;
  }
}
