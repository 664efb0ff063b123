import { coverKey } from "./cover-urls";
import { zonedIso } from "./zone-offsets";

/**
 * schema.org Event data for search engines, built from what the event page shows.
 */

export type JsonLdEvent = {
  slug: string;
  title: string;
  summary: string;
  status: "draft" | "published" | "cancelled";
  startsAt: string;
  endsAt: string;
  timeZone: string;
  venue: string;
  address: string;
  town: string;
  postcode: string;
  cover: { hash: string | null };
  publishedAt: string | null;
};

export type JsonLdTicket = {
  name: string;
  price: number;
  state: { kind: "on_sale" | "not_yet" | "ended" | "sold_out" | "cancelled" };
  validFrom: string | null;
};

export type JsonLdSite = { name: string; url: string; currency: string; countryCode?: string };

/** The absolute URL of the largest WebP rendition: what link previews and search results show. */
export function coverImageUrl(siteUrl: string, hash: string) {
  return `${siteUrl}/media/${coverKey(hash, 1600, "webp")}`;
}

// Search engines know three states of an offer; tickets that cannot be bought any more (sales
// ended, event cancelled) are as unavailable as sold-out ones.
const AVAILABILITY = {
  on_sale: "https://schema.org/InStock",
  not_yet: "https://schema.org/PreOrder",
  sold_out: "https://schema.org/SoldOut",
  ended: "https://schema.org/SoldOut",
  cancelled: "https://schema.org/SoldOut",
} as const;

export function eventJsonLd(event: JsonLdEvent, tickets: JsonLdTicket[], site: JsonLdSite) {
  const url = `${site.url}/events/${event.slug}`;
  const validFallback = event.publishedAt ? zonedIso(new Date(event.publishedAt), event.timeZone) : undefined;
  return {
    "@context": "https://schema.org",
    "@type": "Event",
    name: event.title,
    description: event.summary || undefined,
    url,
    startDate: zonedIso(new Date(event.startsAt), event.timeZone),
    endDate: zonedIso(new Date(event.endsAt), event.timeZone),
    eventStatus:
      event.status === "cancelled" ? "https://schema.org/EventCancelled" : "https://schema.org/EventScheduled",
    eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
    location: {
      "@type": "Place",
      name: event.venue,
      address: {
        "@type": "PostalAddress",
        streetAddress: event.address || undefined,
        addressLocality: event.town,
        postalCode: event.postcode || undefined,
        addressCountry: site.countryCode,
      },
    },
    image: event.cover.hash ? [coverImageUrl(site.url, event.cover.hash)] : undefined,
    organizer: { "@type": "Organization", name: site.name, url: site.url },
    offers: tickets.map((ticket) => ({
      "@type": "Offer",
      name: ticket.name,
      price: (ticket.price / 100).toFixed(2),
      priceCurrency: site.currency,
      availability: AVAILABILITY[ticket.state.kind],
      validFrom: ticket.validFrom ? zonedIso(new Date(ticket.validFrom), event.timeZone) : validFallback,
      url,
    })),
  };
}

/**
 * JSON for a <script type="application/ld+json"> element. `<` is written as \u003c so text such
 * as "</script>" in a title cannot end the element early; `>`, `&` and the two line separators
 * JavaScript treats as line ends are escaped too. JSON readers decode them back.
 */
export function serializeJsonLd(value: unknown) {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
