import { ArrowRight, CalendarDays, MapPin } from "lucide-react";
import { Link } from "react-router";
import { TrackArt } from "~/ui/track-art";
import type { EventTileData, HeadlineEvent } from "./catalogue.server";
import { CoverPicture } from "./cover-picture";
import { EventTiles } from "./event-tile";
import { EVENT_TYPE_LABELS } from "./event-types";

/** The home page hero when an event is coming up ("hero with the next headline event"). */
export function HeadlineHero({ event }: { event: HeadlineEvent }) {
  return (
    <section className="dark-band relative isolate overflow-hidden bg-asphalt-950 text-white">
      <div aria-hidden="true" className="absolute inset-0 -z-10">
        {/* On a phone the hero is taller than 16:9: its cover is drawn wider than the screen and
            cropped, so it asks for a file wider than the screen (960 px on a common phone). */}
        {event.cover.hash ? (
          <CoverPicture
            cover={{ ...event.cover, alt: "" }}
            sizes="(min-width: 768px) 100vw, 130vw"
            priority
            className="size-full"
          />
        ) : (
          <TrackArt className="size-full" />
        )}
        {/* Floodlight falling off into asphalt: the text stays readable over any cover. */}
        <div className="absolute inset-0 bg-gradient-to-t from-asphalt-950 from-15% via-asphalt-950/60 to-asphalt-950/20" />
        <div className="absolute inset-0 hidden bg-gradient-to-r from-asphalt-950/85 via-asphalt-950/30 to-transparent md:block" />
      </div>
      <div className="mx-auto flex min-h-[34rem] max-w-[1200px] flex-col justify-end px-4 pb-16 pt-32 sm:px-6 md:min-h-[40rem] md:pb-24">
        <p className="mb-4 text-sm font-bold uppercase tracking-[0.25em] text-accent-strong">
          Next up · {EVENT_TYPE_LABELS[event.type]}
        </p>
        <h1 className="wide max-w-4xl text-4xl font-black leading-[1.02] sm:text-6xl md:text-7xl">{event.title}</h1>
        <p className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-lg font-semibold">
          <span className="inline-flex items-center gap-2">
            <CalendarDays aria-hidden className="size-5 text-accent-strong" />
            {event.dates}
          </span>
          <span className="inline-flex items-center gap-2">
            <MapPin aria-hidden className="size-5 text-accent-strong" />
            {event.town}
          </span>
        </p>
        {event.summary ? <p className="mt-4 max-w-xl text-lg text-asphalt-100">{event.summary}</p> : null}
        <div className="mt-9 flex flex-wrap gap-3">
          <Link
            to={`/events/${event.slug}`}
            prefetch="intent"
            className="inline-flex items-center gap-2 rounded-full bg-accent px-6 py-3.5 font-bold text-on-accent hover:bg-accent-strong"
          >
            Tickets and details <ArrowRight aria-hidden className="size-5" />
          </Link>
          <Link
            to="/events"
            className="inline-flex items-center rounded-full bg-asphalt-950/40 px-6 py-3.5 font-bold text-white ring-1 ring-white/30 hover:bg-white/10"
          >
            See what's on
          </Link>
        </div>
      </div>
    </section>
  );
}

/** Discover events, on the home page: the next few events as tiles, and the way to all of them. */
export function DiscoverEvents({ events }: { events: EventTileData[] }) {
  return (
    <section aria-labelledby="discover-events" className="mx-auto max-w-[1200px] px-4 pt-16 sm:px-6 md:pt-24">
      <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm font-bold uppercase tracking-[0.2em] text-accent-ink">Coming up</p>
          <h2 id="discover-events" className="wide mt-1 text-2xl font-extrabold sm:text-3xl">
            Discover events
          </h2>
        </div>
        <Link
          to="/events"
          prefetch="intent"
          className="inline-flex items-center gap-1.5 rounded-full px-4 py-2 font-bold ring-1 ring-line hover:bg-surface-sunken"
        >
          All events <ArrowRight aria-hidden className="size-4" />
        </Link>
      </div>
      <EventTiles events={events} />
    </section>
  );
}
