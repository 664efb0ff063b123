import { MapPin } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "~/ui/badge";
import { Card } from "~/ui/card";
import type { EventTileData } from "./catalogue.server";
import { CoverPicture } from "./cover-picture";
import { EVENT_TYPE_LABELS } from "./event-types";
import { usePrice } from "./price";

function TileBadges({ badges }: { badges: EventTileData["badges"] }) {
  const list = [
    badges.cancelled && { label: "Cancelled", tone: "solid-danger" as const },
    badges.soldOut && { label: "Sold out", tone: "solid-dark" as const },
    badges.fewLeft && { label: "Few left", tone: "accent" as const },
    badges.applicationsOpen && { label: "Applications open", tone: "solid-light" as const },
  ].filter((badge) => badge !== false);
  if (list.length === 0) return null;
  return (
    <ul className="absolute right-3 top-3 flex flex-col items-end gap-1.5">
      {list.map((badge) => (
        <li key={badge.label}>
          <Badge tone={badge.tone} className="shadow-sm">
            {badge.label}
          </Badge>
        </li>
      ))}
    </ul>
  );
}

/**
 * How wide a tile's cover is drawn: the width of a column of EventTiles' grid (one, two, then
 * three columns in a page 1200 px wide at most, with 16 px, then 24 px, of page margin and 20 px
 * gaps), so a phone takes the 768 px cover rather than the 960 px one.
 */
const TILE_SIZES =
  "(min-width: 1200px) 371px, (min-width: 1024px) calc(33.3vw - 29px), (min-width: 640px) calc(50vw - 34px), calc(100vw - 32px)";

/** date block on the cover, title, town, "from £x", badges. */
function EventTile({ event, priority = false }: { event: EventTileData; priority?: boolean }) {
  const price = usePrice();
  const muted = event.badges.cancelled || event.badges.past;
  return (
    <Card
      as="article"
      className="group relative flex h-full flex-col overflow-hidden transition duration-200 focus-within:border-accent hover:-translate-y-0.5 hover:border-accent hover:shadow-[0_12px_40px_-12px_rgb(255_122_26/0.35)]"
    >
      <div className="relative aspect-video overflow-hidden bg-asphalt-900">
        <CoverPicture
          cover={event.cover}
          sizes={TILE_SIZES}
          priority={priority}
          className={`size-full transition duration-500 group-hover:scale-[1.03] ${muted ? "grayscale-[60%]" : ""}`}
        />
        {/* The dates line below says the same in full for screen readers. */}
        <p
          aria-hidden="true"
          className="absolute left-3 top-3 grid min-w-14 place-items-center rounded-xl bg-asphalt-950 px-2 py-1.5 text-center text-white shadow-lg"
        >
          <span className="wide tabular text-2xl font-black leading-none">{event.day}</span>
          <span className="text-xs font-bold uppercase tracking-[0.2em] text-accent-strong">{event.month}</span>
        </p>
        <TileBadges badges={event.badges} />
      </div>
      <div className="flex flex-1 flex-col gap-1.5 p-5">
        <p className="text-xs font-bold uppercase tracking-[0.18em] text-accent-ink">{EVENT_TYPE_LABELS[event.type]}</p>
        <h3 className="wide text-lg font-extrabold leading-snug">
          <Link
            to={`/events/${event.slug}`}
            prefetch="intent"
            className="rounded outline-none after:absolute after:inset-0 after:content-[''] focus-visible:underline"
          >
            {event.title}
          </Link>
        </h3>
        <p className="text-sm text-muted">{event.dates}</p>
        <p className="flex items-center gap-1.5 text-sm text-muted">
          <MapPin aria-hidden className="size-4 shrink-0" />
          {event.town}
        </p>
        {event.fromPrice !== null ? (
          <p className="mt-auto pt-3 text-sm text-muted">
            {event.fromPrice === 0 ? null : "from "}
            <span className="tabular text-lg font-extrabold text-text">
              {event.fromPrice === 0 ? "Free entry" : price(event.fromPrice)}
            </span>
          </p>
        ) : null}
      </div>
    </Card>
  );
}

export function EventTiles({ events, firstPriority = false }: { events: EventTileData[]; firstPriority?: boolean }) {
  return (
    <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
      {events.map((event, index) => (
        <li key={event.id}>
          <EventTile event={event} priority={firstPriority && index === 0} />
        </li>
      ))}
    </ul>
  );
}
