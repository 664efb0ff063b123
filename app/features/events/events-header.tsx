import { Form, Link } from "react-router";
import { FilterSearch, FilterSelect, FilterSubmit } from "~/ui/catalogue-filters";
import type { MonthFacet } from "./catalogue.server";
import { EVENT_TYPE_OPTIONS } from "./event-types";

export type EventFilters = { when: "upcoming" | "past"; type: string; month: string; q: string };

/** The /events address for a set of filters, leaving out defaults so links stay short. */
export function eventsHref(filters: Partial<EventFilters> & { page?: number }) {
  const params = new URLSearchParams();
  if (filters.when === "past") params.set("when", "past");
  if (filters.type) params.set("type", filters.type);
  if (filters.month) params.set("month", filters.month);
  if (filters.q) params.set("q", filters.q);
  if (filters.page && filters.page > 1) params.set("page", String(filters.page));
  const query = params.toString();
  return query ? `/events?${query}` : "/events";
}

/**
 * The /events page's header: a dark floodlit band with the page title, the filters (a GET form, so
 * it works before scripts load and every result has its own address) and the Upcoming / Past tabs.
 */
export function EventsHeader({
  filters,
  months,
  monthTotal,
}: {
  filters: EventFilters;
  months: MonthFacet[];
  monthTotal: number;
}) {
  const past = filters.when === "past";
  return (
    <section className="dark-band relative isolate overflow-hidden bg-asphalt-950 text-white [color-scheme:dark]">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_60%_90%_at_85%_-10%,rgb(255_122_26/0.32),transparent_70%),radial-gradient(ellipse_40%_60%_at_10%_110%,rgb(255_255_255/0.06),transparent_70%)]"
      />
      <div
        aria-hidden="true"
        className="absolute inset-x-0 bottom-0 -z-10 h-px bg-gradient-to-r from-transparent via-accent/60 to-transparent"
      />
      <div className="mx-auto max-w-[1200px] px-4 pt-10 sm:px-6 md:pt-16">
        <p className="text-sm font-bold uppercase tracking-[0.25em] text-accent-strong">
          {past ? "Look back" : "What's on"}
        </p>
        <h1 className="wide mt-2 text-4xl font-black leading-none sm:text-6xl">{past ? "Past events" : "Events"}</h1>
        <p className="mt-4 max-w-xl text-lg text-asphalt-300">
          {past
            ? "Every meet, show, cruise and track day we have run. Relive them, then book the next one."
            : "Meets, shows, cruises and track days. Tickets in seconds, QR at the gate."}
        </p>

        <Form
          method="get"
          action="/events"
          role="search"
          aria-label="Find events"
          className="mt-8 grid grid-cols-2 gap-3 lg:grid-cols-[minmax(0,1.6fr)_minmax(0,1fr)_minmax(0,1fr)_auto] lg:items-end"
        >
          {past ? <input type="hidden" name="when" value="past" /> : null}
          <FilterSearch id="events-q" value={filters.q} maxLength={100} placeholder="Event, venue or town" />
          <FilterSelect id="events-type" name="type" label="Type" value={filters.type}>
            <option value="">All types</option>
            {EVENT_TYPE_OPTIONS.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </FilterSelect>
          <FilterSelect id="events-month" name="month" label="Month" value={filters.month}>
            <option value="">Any month ({monthTotal})</option>
            {months.map((month) => (
              <option key={month.value} value={month.value}>
                {month.label} ({month.count})
              </option>
            ))}
          </FilterSelect>
          <FilterSubmit>Find events</FilterSubmit>
        </Form>

        <nav aria-label="Upcoming or past events" className="mt-8 flex gap-6 text-base font-bold">
          {(["upcoming", "past"] as const).map((when) => {
            const current = filters.when === when;
            return (
              <Link
                key={when}
                to={eventsHref({ when, type: filters.type, q: filters.q })}
                aria-current={current ? "page" : undefined}
                className={`-mb-px border-b-[3px] pb-3 pt-1 transition-colors ${current ? "border-accent text-white" : "border-transparent text-asphalt-300 hover:text-white"}`}
              >
                {when === "upcoming" ? "Upcoming" : "Past"}
              </Link>
            );
          })}
        </nav>
      </div>
    </section>
  );
}
