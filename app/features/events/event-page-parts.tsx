import { CalendarDays, CalendarPlus, Clock, MapPin } from "lucide-react";
import { Link } from "react-router";
import { MobileActionBar } from "~/ui/mobile-action-bar";
import type { EventPage } from "./catalogue.server";
import { CoverPicture } from "./cover-picture";
import { EVENT_TYPE_LABELS } from "./event-types";
import { usePrice } from "./price";

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

export function CalendarLink({ slug, className }: { slug: string; className: string }) {
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
