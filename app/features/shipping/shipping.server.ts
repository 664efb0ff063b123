import { and, asc, desc, eq, gt, inArray, isNotNull, or } from "drizzle-orm";
import { formatEventInstant } from "~/features/dates/event-dates";
import type { Db } from "~/server/db/client.server";
import { events, orders, type ShippingAddress, shopSettings, tickets } from "../../../db/schema";
import { type DeliveryCountry, deliveryCountries } from "./address";
import { type ShippingRates, shippingFee } from "./rates";

export type ShopShipping = ShippingRates & { countries: string[] };

/** The shop's delivery settings (one row, made by the migration); the defaults if it was lost. */
export async function readShippingSettings(db: Db): Promise<ShopShipping> {
  const [row] = await db
    .select({
      flatFee: shopSettings.flatFee,
      freeOver: shopSettings.freeOver,
      collectionEnabled: shopSettings.collectionEnabled,
      countries: shopSettings.countries,
    })
    .from(shopSettings)
    .where(eq(shopSettings.id, 1));
  return row ?? { flatFee: 495, freeOver: 5000, collectionEnabled: true, countries: ["GB"] };
}

export type CollectionEvent = { id: string; title: string; startsAt: Date };

/**
 * Events where a buyer can collect their merch: published, not over yet, and either one they
 * hold a valid ticket for or one whose tickets are in the order being paid (`withEventIds`).
 */
export async function collectionEvents(
  db: Db,
  input: { userId: string | null; withEventIds: readonly string[]; now: Date },
): Promise<CollectionEvent[]> {
  const ticketed = input.userId
    ? inArray(
        events.id,
        db
          .select({ id: tickets.eventId })
          .from(tickets)
          .where(and(eq(tickets.userId, input.userId), eq(tickets.status, "valid"))),
      )
    : undefined;
  const inCart = input.withEventIds.length > 0 ? inArray(events.id, [...input.withEventIds]) : undefined;
  if (!ticketed && !inCart) return [];
  return db
    .select({ id: events.id, title: events.title, startsAt: events.startsAt })
    .from(events)
    .where(and(eq(events.status, "published"), gt(events.endsAt, input.now), or(ticketed, inCart)))
    .orderBy(asc(events.startsAt), asc(events.id))
    .limit(20);
}

/** The address the member last had merch delivered to, to fill the form with next time. */
async function lastDeliveryAddress(db: Db, userId: string): Promise<ShippingAddress | null> {
  const [row] = await db
    .select({ address: orders.shippingAddress })
    .from(orders)
    .where(and(eq(orders.userId, userId), isNotNull(orders.shippingAddress)))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  return row?.address ?? null;
}

/** Google's Maps script for address autocomplete on /cart (docs/shop.md "Shipping"). */
function placesScriptUrl(apiKey: string | undefined | null) {
  if (!apiKey) return null;
  const params = new URLSearchParams({ key: apiKey, libraries: "places", loading: "async" });
  return `https://maps.googleapis.com/maps/api/js?${params}`;
}

export type CartShippingOptions = {
  countries: DeliveryCountry[];
  /** Delivery for the merch in the cart now, after the free-over threshold. */
  deliveryFee: number;
  flatFee: number;
  freeOver: number | null;
  /** Events the buyer may collect at; empty when collection is off or none fits. */
  collectionEvents: { id: string; title: string; when: string }[];
  /** The member's last delivery address, to start the form with. */
  savedAddress: ShippingAddress | null;
  /** Set only with a Maps key; the page loads it when the address is first typed in. */
  placesScriptUrl: string | null;
};

/** What the cart's shipping choice needs, read only when the cart holds merch. */
export async function cartShippingOptions(
  db: Db,
  input: {
    userId: string | null;
    merchSubtotal: number;
    eventIds: string[];
    now: Date;
    timeZone: string;
    mapsKey?: string | null;
  },
): Promise<CartShippingOptions> {
  const settings = await readShippingSettings(db);
  const [events, savedAddress] = await Promise.all([
    settings.collectionEnabled
      ? collectionEvents(db, { userId: input.userId, withEventIds: input.eventIds, now: input.now })
      : [],
    input.userId ? lastDeliveryAddress(db, input.userId) : null,
  ]);
  return {
    countries: deliveryCountries(settings.countries),
    deliveryFee: shippingFee(settings, "delivery", input.merchSubtotal),
    flatFee: settings.flatFee,
    freeOver: settings.freeOver,
    collectionEvents: events.map((event) => ({
      id: event.id,
      title: event.title,
      when: formatEventInstant(event.startsAt, input.timeZone),
    })),
    savedAddress,
    placesScriptUrl: placesScriptUrl(input.mapsKey),
  };
}
