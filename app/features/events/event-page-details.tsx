import { MapPin } from "lucide-react";
import { Card } from "~/ui/card";
import type { EventPage } from "./catalogue.server";
import { CalendarLink } from "./event-page-parts";
import { usePrice } from "./price";

// The event page's sections below its tickets, and its sidebar: in the server's HTML with the
// rest, their code loaded after the page's own (docs/events.md).

type PageEvent = EventPage["event"];

/** Show-car applications, while they are open: what the organizers look for and by when. */
export function ApplicationPanel({ applications }: { applications: NonNullable<EventPage["applications"]> }) {
  const price = usePrice();
  return (
    <Card as="section" aria-labelledby="applications" className="relative overflow-hidden p-6 sm:p-8">
      <div aria-hidden="true" className="absolute inset-y-0 left-0 w-1.5 bg-accent" />
      <p className="text-sm font-bold uppercase tracking-[0.18em] text-accent-ink">Applications open</p>
      <h2 id="applications" className="wide mt-2 text-2xl font-extrabold">
        Show your car
      </h2>
      <p className="mt-3 max-w-prose text-muted">
        We are picking cars for the show area. To apply you need a member account and the car in your garage, with
        photos. The organizers review every application and reply by email.
      </p>
      <dl className="mt-5 grid gap-4 sm:grid-cols-3">
        <div>
          <dt className="text-xs font-bold uppercase tracking-wider text-muted">Apply by</dt>
          <dd className="mt-1 font-bold">{applications.deadlineLabel ?? "Until the spots are filled"}</dd>
        </div>
        <div>
          <dt className="text-xs font-bold uppercase tracking-wider text-muted">Spots</dt>
          <dd className="tabular mt-1 font-bold">{applications.spots ?? "Not limited"}</dd>
        </div>
        <div>
          <dt className="text-xs font-bold uppercase tracking-wider text-muted">Fee if approved</dt>
          <dd className="tabular mt-1 font-bold">{price(applications.fee)}</dd>
        </div>
      </dl>
      {applications.criteriaHtml ? (
        <div className="mt-6">
          <h3 className="font-bold">What we are looking for</h3>
          {/* Rendered from Markdown on the server with raw HTML escaped. */}
          <div className="prose-pitlane mt-2" dangerouslySetInnerHTML={{ __html: applications.criteriaHtml }} />
        </div>
      ) : null}
    </Card>
  );
}

/** Venue, address and a map: Google's embed when a key is set, else a link to a map search. */
export function VenueSection({
  event,
  mapQuery,
  mapsKey,
}: {
  event: PageEvent;
  mapQuery: string;
  mapsKey: string | null;
}) {
  const search = `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(mapQuery)}`;
  const place = event.placeId ? `place_id:${event.placeId}` : mapQuery;
  return (
    <section aria-labelledby="venue" className="space-y-4">
      <h2 id="venue" className="wide text-2xl font-extrabold">
        Getting there
      </h2>
      <address className="not-italic">
        <span className="block text-lg font-bold">{event.venue}</span>
        {[event.address, event.town, event.postcode].filter(Boolean).map((line) => (
          <span key={line} className="block text-muted">
            {line}
          </span>
        ))}
      </address>
      {mapsKey ? (
        <iframe
          title={`Map of ${event.venue}`}
          src={`https://www.google.com/maps/embed/v1/place?key=${encodeURIComponent(mapsKey)}&q=${encodeURIComponent(place)}`}
          width={800}
          height={450}
          loading="lazy"
          allowFullScreen
          className="aspect-video h-auto w-full rounded-2xl border border-line bg-surface-sunken"
        />
      ) : null}
      <p>
        <a
          href={search}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-2 rounded-full px-5 py-2.5 font-bold ring-1 ring-line hover:bg-surface-sunken"
        >
          <MapPin aria-hidden className="size-5" /> Open in Google Maps
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      </p>
    </section>
  );
}

/** When and where at a glance, Add to calendar, and plain share links. */
export function EventSidebar({ event, pageUrl }: { event: PageEvent; pageUrl: string }) {
  const text = `${event.title} · ${event.dates.dates}`;
  const shares = [
    { label: "WhatsApp", href: `https://wa.me/?text=${encodeURIComponent(`${text} ${pageUrl}`)}` },
    {
      label: "X",
      href: `https://twitter.com/intent/tweet?text=${encodeURIComponent(text)}&url=${encodeURIComponent(pageUrl)}`,
    },
    { label: "Facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(pageUrl)}` },
  ];
  const pill = "inline-flex items-center gap-1.5 rounded-full px-3.5 py-2 text-sm font-semibold ring-1 ring-line";
  return (
    <aside aria-label="Event summary" className="space-y-6 lg:sticky lg:top-24">
      <Card className="p-6">
        <h2 className="text-xs font-bold uppercase tracking-[0.18em] text-muted">When</h2>
        <p className="mt-1.5 font-bold">{event.dates.dates}</p>
        <p className="text-muted">
          {event.dates.times} {event.dates.zone}
        </p>
        <h2 className="mt-4 text-xs font-bold uppercase tracking-[0.18em] text-muted">Where</h2>
        <p className="mt-1.5 font-bold">{event.venue}</p>
        <p className="text-muted">{[event.town, event.postcode].filter(Boolean).join(", ")}</p>
        <p className="mt-4 border-t border-line pt-4 text-sm text-muted">
          Times are local to the venue ({event.timeZone.replace(/_/g, " ")}): a calendar file keeps them right wherever
          you are.
        </p>
        <CalendarLink slug={event.slug} className="mt-4 w-full ring-1 ring-line hover:bg-surface-sunken" />
      </Card>
      <div>
        <h2 className="text-sm font-bold">Share this event</h2>
        <ul className="mt-3 flex flex-wrap gap-2">
          {shares.map((share) => (
            <li key={share.label}>
              <a
                href={share.href}
                target="_blank"
                rel="noopener noreferrer"
                className={`${pill} hover:bg-surface-sunken`}
              >
                {share.label}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </li>
          ))}
          <li>
            <a
              href={`mailto:?subject=${encodeURIComponent(event.title)}&body=${encodeURIComponent(`${text}\n${pageUrl}`)}`}
              className={`${pill} hover:bg-surface-sunken`}
            >
              Email
            </a>
          </li>
        </ul>
      </div>
    </aside>
  );
}
