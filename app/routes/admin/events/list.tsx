import { EventListRow, emptyEventList } from "~/features/events/organizer/event-list";
import { listEventsForAdmin } from "~/features/events/organizer/queries.server";
import { EVENT_FILTERS, type EventFilter, EventsQuerySchema } from "~/features/events/organizer/schemas";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { FilterTabs, ListPageHeader, ListResults, listHref } from "~/ui/list-page";
import { ListSearch } from "~/ui/list-search";
import type { Route } from "./+types/list";

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db } = context.get(runtimeContext);
  const query = EventsQuerySchema.parse(Object.fromEntries(url.searchParams));
  const now = new Date();
  const list = await listEventsForAdmin(db, { ...query, now });
  return { ...list, show: query.show, q: query.q, now };
}

export default function EventsList({ loaderData }: Route.ComponentProps) {
  const { events, counts, total, page, pageCount, show, q, now } = loaderData;
  const href = (filter: EventFilter, target = 1) =>
    listHref({ show: filter, q, page: target }, { show: "upcoming", page: 1 });
  return (
    <div className="mx-auto max-w-[1100px]">
      <ListPageHeader
        area="Organize"
        title="Events"
        intro="Meets, shows, cruises and track days: their details, tickets and covers. New events stay drafts until you publish them."
        create={{ to: "/admin/events/new", label: "New event" }}
      />

      <ListSearch
        id="event-search"
        label="Search by title, venue or town"
        q={q}
        resetKey={`${show}|${q}`}
        quiet
        className="mt-8"
      >
        {show !== "upcoming" ? <input type="hidden" name="show" value={show} /> : null}
      </ListSearch>

      <div className="mt-6">
        <FilterTabs
          label="Which events"
          names={EVENT_FILTERS}
          show={show}
          counts={counts}
          href={(filter) => href(filter)}
        />
      </div>
      <ListResults
        total={total}
        noun={["event", "events"]}
        q={q}
        empty={events.length === 0 ? emptyEventList(show, Boolean(q)) : null}
        page={page}
        pageCount={pageCount}
        href={(target) => href(show, target)}
      >
        {events.map((event) => (
          <EventListRow key={event.id} event={event} now={now} />
        ))}
      </ListResults>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => dashboardMeta(matches, "Events");
