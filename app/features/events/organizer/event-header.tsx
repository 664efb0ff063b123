import { Car, ImageIcon, Info, ListOrdered, Repeat, ScanLine, Ticket, Trophy, Users } from "lucide-react";
import { RecordHeader, type RecordTab } from "~/ui/record-header";
import { useMediaBase } from "~/ui/site";
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
  | "waitingPlaces"
>;

/** The top of every page of one event: what, when, where, its state, and the tabs between its pages. */
export function EventHeader({ event, now }: { event: HeaderEvent; now: Date }) {
  const mediaBase = useMediaBase();
  const ended = event.endsAt < now;
  const tabs: RecordTab[] = [
    { to: `/admin/events/${event.id}`, label: "Details", icon: Info, end: true },
    { to: `/admin/events/${event.id}/cover`, label: "Cover", icon: ImageIcon, note: event.coverHash ? null : "none" },
    { to: `/admin/events/${event.id}/tickets`, label: "Tickets", icon: Ticket, note: String(event.ticketTypeCount) },
    { to: `/admin/events/${event.id}/checkin`, label: "Check-in", icon: ScanLine },
    { to: `/admin/events/${event.id}/applications`, label: "Applications", icon: Car },
    { to: `/admin/events/${event.id}/show`, label: "Show", icon: Trophy },
    { to: `/admin/events/${event.id}/queue`, label: "Queue", icon: Users },
    {
      to: `/admin/events/${event.id}/waiting-list`,
      label: "Waiting list",
      icon: ListOrdered,
      note: event.waitingPlaces > 0 ? `${event.waitingPlaces} waiting` : null,
    },
    { to: `/admin/events/${event.id}/passing-on`, label: "Transfers", icon: Repeat },
  ];
  return (
    <RecordHeader
      back={{ to: "/admin/events", label: "Events" }}
      backdrop={event.coverHash ? coverSources(event.coverHash, mediaBase) : null}
      lead={<DateBlock day={event.labels.day} month={event.labels.month} dim={ended || event.status === "cancelled"} />}
      title={event.title}
      badge={<StatusBadge status={event.status} ended={ended} />}
      facts={
        <>
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
        </>
      }
      figures={<SoldMeter sold={event.sold} places={event.places} ticketTypeCount={event.ticketTypeCount} onDark />}
      publicHref={event.status === "published" ? `/events/${event.slug}` : null}
      tabsLabel="Event pages"
      tabs={tabs}
    />
  );
}
