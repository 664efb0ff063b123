import { ArrowLeft, Car, ExternalLink, ImageIcon, Info, ScanLine, Ticket, Users } from "lucide-react";
import { Link, NavLink } from "react-router";
import { useMediaBase } from "~/ui/site";
import { TrackArt } from "~/ui/track-art";
import { coverSources } from "../cover-urls";
import { DateBlock, SoldMeter, StatusBadge } from "./event-parts";
import type { EventSummary } from "./queries.server";

type HeaderEvent = Pick<
  EventSummary,
  | "id"
  | "slug"
  | "title"
  | "status"
  | "endsAt"
  | "venue"
  | "town"
  | "labels"
  | "sold"
  | "places"
  | "ticketTypeCount"
  | "coverHash"
>;

/** The event's cover (or the track drawing) behind its header, faded so the text stays readable. */
function HeaderBackdrop({ coverHash }: { coverHash: string | null }) {
  const mediaBase = useMediaBase();
  if (!coverHash) return <TrackArt className="absolute inset-0 size-full opacity-70" />;
  const sources = coverSources(coverHash, mediaBase);
  return (
    <>
      <picture>
        <source type="image/avif" srcSet={sources.avif} sizes="(min-width: 1024px) 700px, 100vw" />
        <img
          src={sources.src}
          srcSet={sources.webp}
          sizes="(min-width: 1024px) 700px, 100vw"
          alt=""
          className="absolute inset-y-0 right-0 h-full w-full object-cover opacity-55 md:w-3/5"
        />
      </picture>
      <div className="absolute inset-0 bg-gradient-to-r from-asphalt-950 via-asphalt-950/90 to-asphalt-950/30" />
    </>
  );
}

/** The top of every page of one event: what, when, where, its state, and the tabs between its pages. */
export function EventHeader({ event, now }: { event: HeaderEvent; now: Date }) {
  const ended = event.endsAt < now;
  const tabs = [
    { to: `/admin/events/${event.id}`, label: "Details", icon: Info, end: true, note: null },
    {
      to: `/admin/events/${event.id}/cover`,
      label: "Cover",
      icon: ImageIcon,
      end: false,
      note: event.coverHash ? null : "none",
    },
    {
      to: `/admin/events/${event.id}/tickets`,
      label: "Tickets",
      icon: Ticket,
      end: false,
      note: String(event.ticketTypeCount),
    },
    { to: `/admin/events/${event.id}/checkin`, label: "Check-in", icon: ScanLine, end: false, note: null },
    { to: `/admin/events/${event.id}/applications`, label: "Applications", icon: Car, end: false, note: null },
    { to: `/admin/events/${event.id}/queue`, label: "Queue", icon: Users, end: false, note: null },
  ];
  return (
    <header className="space-y-4">
      <Link
        to="/admin/events"
        className="inline-flex items-center gap-1.5 text-sm font-semibold text-muted hover:text-text"
      >
        <ArrowLeft aria-hidden className="size-4" /> Events
      </Link>
      <div className="dark-band relative isolate overflow-hidden rounded-3xl bg-asphalt-950 text-white ring-1 ring-white/10">
        <div aria-hidden className="absolute inset-0 -z-10">
          <HeaderBackdrop coverHash={event.coverHash} />
        </div>
        <div className="flex flex-wrap items-start gap-4 p-5 sm:gap-5 sm:p-7">
          <DateBlock day={event.labels.day} month={event.labels.month} dim={ended || event.status === "cancelled"} />
          <div className="min-w-0 flex-1 basis-64 space-y-1.5">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
              <h1 className="wide text-2xl font-extrabold break-words sm:text-3xl">{event.title}</h1>
              <StatusBadge status={event.status} ended={ended} />
            </div>
            <p>
              {event.labels.dates}
              <span className="text-asphalt-300">
                {" "}
                · {event.labels.times} {event.labels.zone}
              </span>
            </p>
            <p className="text-asphalt-300">
              {event.venue}, {event.town}
            </p>
          </div>
          <div className="flex w-full flex-wrap items-center justify-between gap-4 rounded-2xl bg-white/5 p-3 ring-1 ring-white/10 sm:w-auto sm:flex-col sm:items-end sm:bg-transparent sm:p-0 sm:ring-0">
            <SoldMeter sold={event.sold} places={event.places} ticketTypeCount={event.ticketTypeCount} onDark />
            {event.status === "published" ? (
              <Link
                to={`/events/${event.slug}`}
                className="inline-flex items-center gap-1.5 text-sm font-semibold text-accent-strong underline"
              >
                View on the site <ExternalLink aria-hidden className="size-4" />
              </Link>
            ) : null}
          </div>
        </div>
      </div>
      <nav aria-label="Event pages" className="-mx-1 overflow-x-auto border-b border-line px-1">
        <ul className="flex gap-1">
          {tabs.map((tab) => (
            <li key={tab.to}>
              <NavLink
                to={tab.to}
                end={tab.end}
                className={({ isActive }) =>
                  `-mb-px inline-flex items-center gap-2 border-b-[3px] px-4 py-3 font-bold ${
                    isActive ? "border-accent text-text" : "border-transparent text-muted hover:text-text"
                  }`
                }
              >
                <tab.icon aria-hidden className="size-4" />
                {tab.label}
                {tab.note ? (
                  <span className="tabular rounded-full bg-surface-sunken px-1.5 text-xs font-semibold text-muted">
                    {tab.note}
                  </span>
                ) : null}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
