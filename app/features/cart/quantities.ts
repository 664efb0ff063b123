import type { EventPageTicket } from "~/features/events/catalogue.server";

/**
 * The quantities Add to cart offers for a ticket type: 1 up to the per-order maximum, or fewer
 * if fewer are left; none when it is not on sale. Worked out on the server so the event page
 * ships no code for it.
 */
export function addToCartQuantities(ticket: Pick<EventPageTicket, "state" | "maxPerOrder">): number[] {
  if (ticket.state.kind !== "on_sale") return [];
  const max = Math.min(ticket.maxPerOrder, ticket.state.remaining ?? ticket.maxPerOrder);
  return Array.from({ length: Math.max(0, max) }, (_, index) => index + 1);
}
