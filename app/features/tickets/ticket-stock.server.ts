import { and, asc, eq, inArray } from "drizzle-orm";
import { heldQuantity, liveHolds } from "~/features/commerce/live-holds.server";
import { eventSalesColumns, ticketTypeSalesColumns } from "~/features/events/catalogue.server";
import {
  type SetAsideOptions,
  type TicketAvailability,
  withPlacesSetAside,
} from "~/features/places/places-set-aside.server";
import type { Db } from "~/server/db/client.server";
import { events, holds, ticketTypes } from "../../../db/schema";
import type { LineEvent, LineTicketType } from "./ticket-lines";

/**
 * Ticket stock: places sold (`ticket_types.sold`) and held: by buyers paying now (the live
 * holds, `liveHolds`), kept for the holders of vouchers that hold places (a waiting list's offers
 * among them), and set aside for the people on a running waiting list, up to the places free.
 */
type StockOptions = {
  /** Leaves out the holds of that member's own unpaid orders. */
  exceptUserId?: string;
  /** Leaves out the holds of the order being settled. */
  exceptOrderId?: string;
} & SetAsideOptions;

/**
 * Sold and held places for each ticket type, for the event page and the cart to pass to the pure
 * sales functions (`held`). `exceptUserId` leaves out the holds of that member's own unpaid
 * orders: starting checkout again replaces that order, so its places are theirs to choose again.
 */
export async function availabilityByTicketType(
  db: Db,
  ticketTypeIds: readonly string[],
  now: Date,
  options: StockOptions = {},
): Promise<Map<string, TicketAvailability>> {
  if (ticketTypeIds.length === 0) return new Map<string, TicketAvailability>();
  const rows = await db
    .select({ id: ticketTypes.id, capacity: ticketTypes.capacity, sold: ticketTypes.sold, held: heldQuantity })
    .from(ticketTypes)
    .leftJoin(holds, and(eq(holds.ticketTypeId, ticketTypes.id), liveHolds(db, now, options)))
    .where(inArray(ticketTypes.id, [...ticketTypeIds]))
    .groupBy(ticketTypes.id);
  return withPlacesSetAside(db, rows, now, options);
}

const lineEventColumns = { ...eventSalesColumns, id: events.id, title: events.title, timeZone: events.timeZone };

const lineTicketTypeColumns = { ...ticketTypeSalesColumns, eventId: ticketTypes.eventId };

/** Events and every ticket type of them, with `held` filled in: what the line rules read. */
export type TicketStock = {
  events: Map<string, LineEvent>;
  types: Map<string, LineTicketType & { held: number }>;
  typesOfEvent(eventId: string): (LineTicketType & { held: number })[];
  /** Counts places as taken by the order being made, so its next line sees them gone. */
  take(ticketTypeId: string, quantity: number): void;
};

/**
 * Reads the stock of these events for a decision that must not race, locking rows in the one
 * order every money path uses (ADR 0007): the events by id, then all their ticket types by id.
 * Until the transaction ends nobody else can hold, sell or release places of these events, so
 * capacity − sold − held read here stays true. `FOR NO KEY UPDATE` rather than `FOR UPDATE`:
 * it excludes the other checkouts just the same, but lets inserts whose foreign keys point at
 * these rows (holds, tickets) go ahead without waiting.
 *
 * `lock: false` reads the same numbers without locks, for advice such as the cart's messages.
 */
export async function readTicketStock(
  db: Db,
  eventIds: readonly string[],
  now: Date,
  options: StockOptions & { lock: boolean },
): Promise<TicketStock> {
  const ids = [...new Set(eventIds)].sort();
  const eventQuery = db.select(lineEventColumns).from(events).where(inArray(events.id, ids)).orderBy(asc(events.id));
  const eventRows = ids.length === 0 ? [] : options.lock ? await eventQuery.for("no key update") : await eventQuery;
  const typeQuery = db
    .select(lineTicketTypeColumns)
    .from(ticketTypes)
    .where(inArray(ticketTypes.eventId, ids))
    .orderBy(asc(ticketTypes.id));
  const typeRows = ids.length === 0 ? [] : options.lock ? await typeQuery.for("no key update") : await typeQuery;
  const availability = await availabilityByTicketType(
    db,
    typeRows.map((type) => type.id),
    now,
    options,
  );

  const eventMap = new Map(eventRows.map((event) => [event.id, event]));
  const types = new Map(typeRows.map((type) => [type.id, { ...type, held: availability.get(type.id)?.held ?? 0 }]));
  const byEvent = new Map<string, (LineTicketType & { held: number })[]>();
  for (const type of types.values()) byEvent.set(type.eventId, [...(byEvent.get(type.eventId) ?? []), type]);
  return {
    events: eventMap,
    types,
    typesOfEvent: (eventId) => byEvent.get(eventId) ?? [],
    take(ticketTypeId, quantity) {
      const type = types.get(ticketTypeId);
      if (type) type.held += quantity;
    },
  };
}
