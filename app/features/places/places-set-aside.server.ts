import { placesKeptForVouchers } from "~/features/vouchers/voucher-uses.server";
import type { Db } from "~/server/db/client.server";
import { placesForTheLine } from "./line-state";
import { waitingDemand } from "./waiting-demand.server";

/** A ticket type's places sold, and held from the buyer in question. */
export type TicketAvailability = { sold: number; held: number };

export type SetAsideOptions = {
  /** The buyer's own voucher: the places it keeps are theirs to take. */
  voucherId?: string | null;
  /** Free places are not set aside for the waiting lists: the offer sweep, which hands them out. */
  forWaitingLists?: boolean;
};

/**
 * Adds to each type's `held` (its live holds) the places kept for vouchers and set aside for its
 * waiting list, for the event page and the stock reads alike. The buyer's own voucher's places
 * are theirs: never counted, and never taken by the line.
 */
export async function withPlacesSetAside(
  db: Db,
  types: readonly { id: string; capacity: number | null; sold: number; held: number }[],
  now: Date,
  options: SetAsideOptions = {},
): Promise<Map<string, TicketAvailability>> {
  const ids = types.map((type) => type.id);
  const kept = await placesKeptForVouchers(db, ids, now, { ownVoucherId: options.voucherId });
  const waiting = options.forWaitingLists ? new Map<string, number>() : await waitingDemand(db, ids, now);
  const result = new Map<string, TicketAvailability>();
  for (const type of types) {
    const { others = 0, own = 0 } = kept.get(type.id) ?? {};
    // Only a type with a capacity of its own has places a list can set aside.
    const free = type.capacity === null ? 0 : type.capacity - type.sold - type.held - others - own;
    const line = placesForTheLine(waiting.get(type.id) ?? 0, free);
    result.set(type.id, { sold: type.sold, held: type.held + others + line });
  }
  return result;
}
