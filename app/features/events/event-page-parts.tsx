import { CalendarDays, CalendarPlus, Clock, MapPin } from "lucide-react";
import { Link } from "react-router";
import { Card } from "~/ui/card";
import { MobileActionBar } from "~/ui/mobile-action-bar";
import type { EventPage } from "./catalogue.server";
import { CoverPicture, usePrice } from "./event-tile";
import { EVENT_TYPE_LABELS } from "./event-types";

type PageEvent = EventPage["event"];

/**
 * On phones, the way to the tickets stays at the bottom of the screen while the event is on sale
 * (the hero's button scrolls away with it). A link to the ticket list: choosing a ticket type and
 * quantity happens there.
 */
export function EventActionBar({ event, sales }: { event: PageEvent; sales: EventPage["sales"] }) {
  const price = usePrice();
  if (sales.state !== "on_sale" || sales.fromPrice === null) return null;
  return (
    <MobileActionBar>
      <p className="min-w-0">
        <span className="block truncate text-sm font-bold">{event.title}</span>
        <span className="block text-sm text-asphalt-300">
          {sales.fromPrice > 0 ? `From ${price(sales.fromPrice)}` : "Free entry"}
        </span>
      </p>
      <a
        href="#tickets"
        className="flex h-11 shrink-0 items-center justify-center rounded-full bg-accent px-5 font-bold text-on-accent hover:bg-accent-strong"
      >
        Get tickets
      </a>
    </MobileActionBar>
  );
}

/** The top of the event page: a dark band with the cover, title, dates and place. */
export function EventHero({ event, sales }: { event: PageEvent; sales: EventPage["sales"] }) {
  const price = usePrice();
  const live = sales.state !== "past" && sales.state !== "cancelled";
  return (
    <section className="dark-band relative isolate overflow-hidden bg-asphalt-950 text-white">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 opacity-60"
        style={{
          background: `radial-gradient(ellipse 70% 90% at 85% 0%, ${event.cover.color ?? "#ff7a1a"}88, transparent 70%)`,
        }}
      />
      <div className="mx-auto grid max-w-[1200px] gap-8 px-4 pb-10 pt-6 sm:px-6 md:pb-14 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)] lg:items-center lg:gap-12 lg:pt-10">
        <div className="order-2 lg:order-1">
          <Link
            to="/events"
            className="inline-flex items-center gap-1.5 rounded text-sm font-semibold text-asphalt-300 hover:text-white"
          >
            <span aria-hidden="true">←</span> All events
          </Link>
          <p className="mt-5 text-sm font-bold uppercase tracking-[0.25em] text-accent-strong">
            {EVENT_TYPE_LABELS[event.type]}
            {event.status === "cancelled" ? " · Cancelled" : ""}
          </p>
          <h1 className="wide mt-2 text-4xl font-black leading-[1.02] sm:text-5xl">{event.title}</h1>
          <dl className="mt-6 grid gap-3 text-asphalt-100">
            <div className="flex gap-3">
              <dt className="mt-0.5 shrink-0">
                <span className="sr-only">When</span>
                <CalendarDays aria-hidden className="size-5 text-accent-strong" />
              </dt>
              <dd>
                <span className="font-bold">{event.dates.dates}</span>
                <span className="block text-asphalt-300">
                  {event.dates.times} {event.dates.zone}
                </span>
              </dd>
            </div>
            <div className="flex gap-3">
              <dt className="mt-0.5 shrink-0">
                <span className="sr-only">Where</span>
                <MapPin aria-hidden className="size-5 text-accent-strong" />
              </dt>
              <dd>
                <span className="font-bold">{event.venue}</span>
                <span className="block text-asphalt-300">{event.town}</span>
              </dd>
            </div>
          </dl>
          {live ? (
            <p className="mt-7 flex flex-wrap items-center gap-3">
              {sales.fromPrice !== null && (sales.state === "on_sale" || sales.state === "not_yet") ? (
                <a
                  href="#tickets"
                  className="inline-flex items-center gap-2 rounded-full bg-accent px-6 py-3 font-bold text-on-accent hover:bg-accent-strong"
                >
                  Tickets {sales.fromPrice > 0 ? `from ${price(sales.fromPrice)}` : "· Free entry"}
                </a>
              ) : null}
              <CalendarLink slug={event.slug} className="text-white ring-1 ring-white/30 hover:bg-white/10" />
            </p>
          ) : null}
        </div>
        <div className="order-1 -mx-4 sm:mx-0 lg:order-2">
          <div
            className="relative aspect-video overflow-hidden bg-asphalt-900 shadow-2xl shadow-black/50 sm:rounded-2xl sm:ring-1 sm:ring-white/10"
            style={event.cover.color ? { backgroundColor: event.cover.color } : undefined}
          >
            <CoverPicture
              cover={event.cover}
              sizes="(min-width: 1200px) 620px, (min-width: 1024px) 52vw, (min-width: 640px) calc(100vw - 48px), 100vw"
              priority
              className={`size-full ${event.status === "cancelled" ? "grayscale" : ""}`}
            />
          </div>
        </div>
      </div>
    </section>
  );
}

/** One line about the event as a whole: cancelled, finished, not on sale yet, or sold out. */
export function EventBanner({
  event,
  sales,
  waitingList = false,
}: {
  event: PageEvent;
  sales: EventPage["sales"];
  /** A sold-out ticket type takes a waiting list: places that come back go to it first. */
  waitingList?: boolean;
}) {
  const frame = "rounded-2xl border p-5";
  if (event.status === "cancelled") {
    return (
      <div
        role="status"
        className={`${frame} border-red-700/40 bg-red-50 text-red-950 dark:bg-red-950 dark:text-red-50`}
      >
        <p className="text-lg font-bold">This event has been cancelled.</p>
        {event.cancelReason ? <p className="mt-1">{event.cancelReason}</p> : null}
      </div>
    );
  }
  if (sales.state === "past") {
    return (
      <div role="status" className={`${frame} border-line bg-surface-raised`}>
        <p className="font-bold">This event has finished.</p>
        <p className="mt-1 text-muted">
          Thanks to everyone who came.{" "}
          <Link to="/events" className="font-semibold text-link underline">
            See what is coming up next
          </Link>
          .
        </p>
      </div>
    );
  }
  if (sales.state === "not_yet" && sales.opensLabel) {
    return (
      <div role="status" className={`${frame} flex gap-3 border-accent/50 bg-surface-raised`}>
        <Clock aria-hidden className="mt-0.5 size-5 shrink-0 text-accent-ink" />
        <p>
          <span className="font-bold">Tickets are not on sale yet.</span> They go on sale on {sales.opensLabel}.
        </p>
      </div>
    );
  }
  if (sales.state === "sold_out") {
    return (
      <div role="status" className={`${frame} border-line bg-surface-raised`}>
        <p className="font-bold">Sold out.</p>
        <p className="mt-1 text-muted">
          {waitingList
            ? "Every ticket has gone. Join the waiting list below: places that come back are offered to it first, in turn."
            : "Every ticket has gone. Places freed by refunds come back on sale here."}
        </p>
      </div>
    );
  }
  if (sales.state === "ended") {
    return (
      <div role="status" className={`${frame} border-line bg-surface-raised`}>
        <p className="font-bold">Ticket sales have ended.</p>
      </div>
    );
  }
  return null;
}

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

function CalendarLink({ slug, className }: { slug: string; className: string }) {
  return (
    <a
      href={`/events/${slug}/calendar.ics`}
      download={`${slug}.ics`}
      className={`inline-flex items-center justify-center gap-2 rounded-full px-6 py-3 font-bold ${className}`}
    >
      <CalendarPlus aria-hidden className="size-5" /> Add to calendar
    </a>
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
