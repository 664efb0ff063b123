import { ChevronRight, ScanLine } from "lucide-react";
import { Link } from "react-router";
import { z } from "zod";
import { formatEventInstant } from "~/features/dates/event-dates";
import { listSearch } from "~/features/forms/fields";
import { eventsAtTheGate, GATE_LIST_SIZE } from "~/features/gate/gate.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Badge } from "~/ui/badge";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { ListPageHeader, ListResults } from "~/ui/list-page";
import { ListSearch } from "~/ui/list-search";
import type { Route } from "./+types/check-in";

const QuerySchema = z.object({ q: listSearch });

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const now = new Date();
  const { q } = QuerySchema.parse({ q: url.searchParams.get("q") ?? "" });
  const list = await eventsAtTheGate(db, { now, timeZone: env.TIME_ZONE, q });
  return {
    q,
    more: list.more,
    listSize: GATE_LIST_SIZE,
    events: list.events.map((event) => ({
      id: event.id,
      title: event.title,
      where: `${event.venue}, ${event.town}`,
      when: formatEventInstant(event.startsAt, event.timeZone),
      live: event.live,
      checkedIn: event.checkedIn,
      sold: event.sold,
    })),
  };
}

export default function CheckInEvents({ loaderData }: Route.ComponentProps) {
  const { events, q, more, listSize } = loaderData;
  return (
    <div className="mx-auto max-w-[1100px]">
      <ListPageHeader
        area="Gate"
        title="Check-in"
        intro="Today's and upcoming published events. Open one to scan tickets with the camera or type their codes."
      />
      <ListSearch
        id="gate-search"
        label="Find an event by title, venue or town"
        q={q}
        resetKey={q}
        quiet
        className="mt-8"
      />
      <ListResults
        total={events.length}
        noun={["event", "events"]}
        q={q}
        layout="cards"
        empty={
          events.length > 0
            ? null
            : q
              ? "No event today or coming up matches. Try part of the title, the venue or the town."
              : "No published events today or coming up."
        }
      >
        {events.map((event) => (
          <li key={event.id}>
            <Link
              to={`/admin/events/${event.id}/checkin`}
              className="group flex flex-wrap items-center gap-4 rounded-2xl border border-line bg-surface-raised p-4 hover:border-accent sm:p-5"
            >
              <ScanLine aria-hidden className="size-8 shrink-0 text-accent-ink" />
              <div className="min-w-0 flex-1 basis-56">
                <p className="flex flex-wrap items-center gap-2 font-bold">
                  {event.title}
                  {event.live ? <Badge tone="success">On now</Badge> : null}
                </p>
                <p className="text-sm text-muted">
                  {event.when} · {event.where}
                </p>
              </div>
              <p className="tabular text-sm">
                <span className="font-bold">{event.checkedIn}</span>
                <span className="text-muted"> / {event.sold} checked in</span>
              </p>
              <ChevronRight aria-hidden className="size-5 text-muted group-hover:text-text" />
            </Link>
          </li>
        ))}
      </ListResults>
      {more ? (
        <p className="mt-4 text-sm text-muted">
          These are the next {listSize} events. Search to find one further ahead.
        </p>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => dashboardMeta(matches, "Check-in");
