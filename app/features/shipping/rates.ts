import type { ShippingAddress, ShippingMethod } from "../../../db/schema";

/** What staff set for delivery in the shop settings (minor units). */
export type ShippingRates = { flatFee: number; freeOver: number | null; collectionEnabled: boolean };

/**
 * What an order's merch costs to reach the buyer (docs/shop.md "Shipping"): collection at an
 * event is free; delivery is the flat fee unless the merch alone comes to `freeOver` or more.
 * Tickets, entries and fees never count towards free delivery: only what is posted does.
 */
export function shippingFee(rates: ShippingRates, method: ShippingMethod, merchSubtotal: number): number {
  if (method === "collection") return 0;
  if (rates.freeOver !== null && merchSubtotal >= rates.freeOver) return 0;
  return rates.flatFee;
}

/** How the buyer asked for their merch at Pay: checked again by checkout under its locks. */
export type ShippingChoice =
  | { method: "delivery"; address: ShippingAddress }
  | { method: "collection"; eventId: string };
