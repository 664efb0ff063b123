import { ExternalLink, Pencil, Star, Ticket } from "lucide-react";
import { Link } from "react-router";
import type { EventDateLabels } from "~/features/dates/event-dates";
import type { EventStatus, EventType } from "../../../../db/schema/events";
import { DateBlock, SoldMeter, StatusBadge } from "./event-parts";
import { EVENT_TYPE_LABELS, type EventFilter } from "./schemas";

export type EventListItem = {
  id: string;
  slug: string;
  title: string;
  status: EventStatus;
  type: EventType;
  headline: boolean;
  endsAt: Date;
  venue: string;
  town: string;
  sold: number;
  ticketTypeCount: number;
  places: number | null;
  labels: EventDateLabels;
};

const actionLink =
  "inline-flex items-center gap-1.5 rounded-full px-3 py-1.5 text-sm font-semibold ring-1 ring-line hover:bg-surface-sunken";

export function EventListRow({ event, now }: { event: EventListItem; now: Date }) {
  const ended = event.endsAt < now;
  return (
    <li className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-3 p-4 sm:px-5 md:grid-cols-[auto_minmax(0,1fr)_auto] md:items-center">
      <DateBlock day={event.labels.day} month={event.labels.month} dim={ended || event.status === "cancelled"} />
      <div className="min-w-0 space-y-1">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <Link to={`/admin/events/${event.id}`} className="text-lg font-bold leading-snug hover:underline">
            {event.title}
          </Link>
          <StatusBadge status={event.status} ended={ended} />
          {event.headline ? (
            <span className="inline-flex items-center gap-1 text-xs font-bold uppercase tracking-wide text-accent-ink">
              <Star aria-hidden className="size-3.5" /> Headline
            </span>
          ) : null}
        </p>
        <p className="text-sm">
          {event.labels.dates}
          <span className="text-muted">
            {" "}
            · {event.labels.times} {event.labels.zone}
          </span>
        </p>
        <p className="truncate text-sm text-muted">
          {EVENT_TYPE_LABELS[event.type]} · {event.venue}, {event.town}
        </p>
      </div>
      <div className="col-span-2 flex flex-wrap items-center justify-between gap-3 md:col-span-1 md:justify-end md:gap-5">
        <SoldMeter sold={event.sold} places={event.places} ticketTypeCount={event.ticketTypeCount} />
        <div className="flex flex-wrap gap-2">
          <Link to={`/admin/events/${event.id}`} className={actionLink}>
            <Pencil aria-hidden className="size-4" /> Edit<span className="sr-only"> {event.title}</span>
          </Link>
          <Link to={`/admin/events/${event.id}/tickets`} className={actionLink}>
            <Ticket aria-hidden className="size-4" /> Tickets<span className="sr-only"> for {event.title}</span>
          </Link>
          {event.status === "published" ? (
            <Link to={`/events/${event.slug}`} className={actionLink}>
              <ExternalLink aria-hidden className="size-4" /> View
              <span className="sr-only"> {event.title} on the site</span>
            </Link>
          ) : null}
        </div>
      </div>
    </li>
  );
}

const EMPTY: Record<EventFilter, string> = {
  upcoming: "No upcoming events on sale. Publish a draft, or create a new event.",
  draft: "No drafts. New events start here until you publish them.",
  past: "No past events yet. Events move here once they have ended.",
  cancelled: "No cancelled events.",
};

/** What the list says when it has no events in this view, or none matching the search. */
export function emptyEventList(show: EventFilter, searching: boolean) {
  return searching ? "No events match. Try part of the title, the venue or the town." : EMPTY[show];
}
