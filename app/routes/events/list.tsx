import { ArrowLeft, ArrowRight, CalendarSearch } from "lucide-react";
import { Link } from "react-router";
import { isMonth, listEvents, monthLabel, normaliseQuery } from "~/features/events/catalogue.server";
import { EventTiles } from "~/features/events/event-tile";
import { EVENT_TYPE_LABELS, isEventType } from "~/features/events/event-types";
import { type EventFilters, EventsHeader, eventsHref } from "~/features/events/events-header";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext } from "~/server/context.server";
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
  return { ...list, months, monthTotal, filters };
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

function describeResults(total: number, filters: EventFilters, monthName?: string) {
  const kind = filters.type ? EVENT_TYPE_LABELS[filters.type as keyof typeof EVENT_TYPE_LABELS].toLowerCase() : "event";
  const noun = total === 1 ? kind : `${kind}s`;
  const parts = [`${total} ${filters.when === "past" ? "past" : "upcoming"} ${noun}`];
  if (monthName) parts.push(`in ${monthName}`);
  if (filters.q) parts.push(`matching “${filters.q}”`);
  return parts.join(" ");
}

export default function EventsPage({ loaderData }: Route.ComponentProps) {
  const { events, total, page, pageCount, months, monthTotal, filters } = loaderData;
  const filtered = Boolean(filters.type || filters.month || filters.q);
  const monthName = months.find((month) => month.value === filters.month)?.label;
  const past = filters.when === "past";
  return (
    <main id="main">
      <EventsHeader filters={filters} months={months} monthTotal={monthTotal} />
      <section aria-labelledby="results" className="mx-auto max-w-[1200px] px-4 py-10 sm:px-6 md:py-14">
        <div className="mb-6 flex flex-wrap items-baseline justify-between gap-3">
          <h2 id="results" className="text-lg font-bold" aria-live="polite">
            {describeResults(total, filters, monthName)}
          </h2>
          {filtered ? (
            <Link to={eventsHref({ when: filters.when })} className="text-sm font-semibold text-link underline">
              Clear filters
            </Link>
          ) : null}
        </div>

        {events.length > 0 ? (
          <EventTiles events={events} firstPriority />
        ) : (
          <div className="grid place-items-center rounded-2xl border border-dashed border-line bg-surface-raised px-6 py-16 text-center">
            <CalendarSearch aria-hidden className="size-10 text-muted" />
            <p className="mt-4 text-xl font-bold">
              {filtered
                ? `No ${past ? "past" : "upcoming"} events match these filters`
                : past
                  ? "No past events yet"
                  : "No upcoming events announced yet"}
            </p>
            <p className="mt-2 max-w-md text-muted">
              {filtered
                ? "Try another type or month, or search for a town or venue instead."
                : past
                  ? "Once our first event has run, you will find it here."
                  : "New dates land here first. Meanwhile, look back at what we have run before."}
            </p>
            <p className="mt-6 flex flex-wrap justify-center gap-3">
              {filtered ? (
                <Link
                  to={eventsHref({ when: filters.when })}
                  className="rounded-full bg-accent px-5 py-2.5 font-bold text-on-accent hover:bg-accent-strong"
                >
                  Clear filters
                </Link>
              ) : null}
              <Link
                to={eventsHref({ when: past ? "upcoming" : "past" })}
                className="rounded-full px-5 py-2.5 font-bold ring-1 ring-line hover:bg-surface-sunken"
              >
                {past ? "See upcoming events" : "See past events"}
              </Link>
            </p>
          </div>
        )}

        {pageCount > 1 ? <Pagination page={page} pageCount={pageCount} filters={filters} /> : null}
      </section>
    </main>
  );
}

function Pagination({ page, pageCount, filters }: { page: number; pageCount: number; filters: EventFilters }) {
  const step = "inline-flex h-11 items-center gap-1.5 rounded-full px-4 font-semibold ring-1 ring-line";
  const pages = Array.from({ length: pageCount }, (_, i) => i + 1).filter(
    (n) => n === 1 || n === pageCount || Math.abs(n - page) <= 1,
  );
  return (
    <nav aria-label="Pages" className="mt-10 flex flex-wrap items-center justify-center gap-2">
      {page > 1 ? (
        <Link to={eventsHref({ ...filters, page: page - 1 })} rel="prev" className={`${step} hover:bg-surface-sunken`}>
          <ArrowLeft aria-hidden className="size-4" /> Previous
        </Link>
      ) : null}
      <ul className="flex items-center gap-1">
        {pages.map((n, i) => (
          <li key={n} className="flex items-center gap-1">
            {i > 0 && n - pages[i - 1]! > 1 ? <span className="px-1 text-muted">…</span> : null}
            <Link
              to={eventsHref({ ...filters, page: n })}
              aria-current={n === page ? "page" : undefined}
              aria-label={`Page ${n}`}
              className={`tabular grid size-11 place-items-center rounded-full font-bold ${n === page ? "bg-accent text-on-accent" : "hover:bg-surface-sunken"}`}
            >
              {n}
            </Link>
          </li>
        ))}
      </ul>
      {page < pageCount ? (
        <Link to={eventsHref({ ...filters, page: page + 1 })} rel="next" className={`${step} hover:bg-surface-sunken`}>
          Next <ArrowRight aria-hidden className="size-4" />
        </Link>
      ) : null}
    </nav>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const site = (matches[0]?.data as { site?: { name: string } } | undefined)?.site?.name ?? "Pitlane";
  const past = data?.filters.when === "past";
  const description = `Car meets, shows, cruises and track days from ${site}: dates, venues and tickets.`;
  return [
    { title: `${past ? "Past events" : "Events"} · ${site}` },
    { name: "description", content: description },
    { property: "og:title", content: `${past ? "Past events" : "Events"} · ${site}` },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
  ];
};
