import { feedName } from "~/features/events/calendar-feeds.server";
import { SubscribeLinks } from "~/features/events/calendar-subscribe";
import { isMonth, listEvents, monthLabel, normaliseQuery } from "~/features/events/catalogue.server";
import { describeResults, NoEvents } from "~/features/events/event-list-parts";
import { EventTiles } from "~/features/events/event-tile";
import { EVENT_TYPE_LABELS, isEventType } from "~/features/events/event-types";
import { type EventFilters, EventsHeader, eventsHref } from "~/features/events/events-header";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext } from "~/server/context.server";
import { CatalogueResults } from "~/ui/catalogue-results";
import { catalogueMeta } from "~/ui/page-meta";
import { pageTitle, siteNameOf } from "~/ui/page-title";
import type { Route } from "./+types/list";

export async function loader({ context, url }: Route.LoaderArgs) {
  const { db, env } = context.get(runtimeContext);
  const params = url.searchParams;
  // Whatever the address says, the page answers: unknown values are ignored, not refused.
  const typeParam = params.get("type");
  const type = isEventType(typeParam) ? typeParam : undefined;
  const month = params.get("month");
  const filters: EventFilters = {
    when: params.get("when") === "past" ? "past" : "upcoming",
    type: type ?? "",
    month: isMonth(month) ? month : "",
    q: normaliseQuery(params.get("q")),
  };
  const list = await listEvents(db, {
    when: filters.when,
    type,
    month: filters.month || undefined,
    q: filters.q,
    page: Number.parseInt(params.get("page") ?? "1", 10),
    now: new Date(),
    timeZone: env.TIME_ZONE,
  });
  const months =
    filters.month && !list.months.some((row) => row.value === filters.month)
      ? [...list.months, { value: filters.month, label: monthLabel(filters.month), count: 0 }]
      : list.months;
  const monthTotal = list.months.reduce((sum, row) => sum + row.count, 0);
  // The calendar feed of what the page lists: every event, or the type chosen (docs/calendar.md).
  const feed = {
    url: `${env.SITE_URL}/events.ics${type ? `?type=${type.replace(/_/g, "-")}` : ""}`,
    name: feedName(env.SITE_NAME, type ? [type] : []),
    typeLabel: type ? EVENT_TYPE_LABELS[type] : null,
  };
  return { ...list, months, monthTotal, filters, feed };
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export default function EventsPage({ loaderData }: Route.ComponentProps) {
  const { events, total, page, pageCount, months, monthTotal, filters, feed } = loaderData;
  const filtered = Boolean(filters.type || filters.month || filters.q);
  const monthName = months.find((month) => month.value === filters.month)?.label;
  return (
    <main id="main">
      <EventsHeader filters={filters} months={months} monthTotal={monthTotal} />
      <CatalogueResults
        summary={describeResults(total, filters, monthName)}
        clearHref={filtered ? eventsHref({ when: filters.when }) : null}
        page={page}
        pageCount={pageCount}
        pageHref={(n) => eventsHref({ ...filters, page: n })}
      >
        {events.length > 0 ? <EventTiles events={events} firstPriority /> : <NoEvents filters={filters} />}
      </CatalogueResults>
      <section aria-labelledby="subscribe-title" className="mx-auto max-w-[1200px] space-y-3 px-4 pb-12 sm:px-6">
        <h2 id="subscribe-title" className="wide text-xl font-extrabold">
          {feed.typeLabel ? `${feed.typeLabel} dates in your calendar` : "Every event in your calendar"}
        </h2>
        <p className="text-muted">Subscribe once: new events, changes and cancellations appear by themselves.</p>
        <SubscribeLinks feedUrl={feed.url} name={feed.name} label="Subscribe to the events calendar" />
      </section>
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const site = siteNameOf(matches);
  const past = data?.filters.when === "past";
  const title = pageTitle(matches, past ? "Past events" : "Events");
  const description = `Car meets, shows, cruises and track days from ${site}: dates, venues and tickets.`;
  return catalogueMeta(title, description);
};
