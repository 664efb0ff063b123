import { Search } from "lucide-react";
import type { ChangeEvent } from "react";
import { Form, Link } from "react-router";
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

const control =
  "h-12 w-full min-w-0 rounded-xl border border-white/15 bg-white/[0.06] px-3 text-base sm:px-4 text-white transition-colors hover:border-white/30 focus:border-accent-strong";
const label = "mb-1.5 block text-xs font-bold uppercase tracking-[0.16em] text-asphalt-300";

// A choice in a select shows its results at once; the search box waits for Enter or the button.
const submitOnChange = (event: ChangeEvent<HTMLSelectElement>) => event.currentTarget.form?.requestSubmit();

/**
 * The seed's EventsHeader: a dark floodlit band with the page title, the filters (a GET form, so
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
          <div className="col-span-2 lg:col-span-1">
            <label htmlFor="events-q" className={label}>
              Search
            </label>
            <input
              id="events-q"
              type="search"
              name="q"
              defaultValue={filters.q}
              maxLength={100}
              placeholder="Event, venue or town"
              className={`${control} placeholder:text-asphalt-400`}
            />
          </div>
          <div>
            <label htmlFor="events-type" className={label}>
              Type
            </label>
            <select
              id="events-type"
              name="type"
              defaultValue={filters.type}
              onChange={submitOnChange}
              className={control}
            >
              <option value="">All types</option>
              {EVENT_TYPE_OPTIONS.map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="events-month" className={label}>
              Month
            </label>
            <select
              id="events-month"
              name="month"
              defaultValue={filters.month}
              onChange={submitOnChange}
              className={control}
            >
              <option value="">Any month ({monthTotal})</option>
              {months.map((month) => (
                <option key={month.value} value={month.value}>
                  {month.label} ({month.count})
                </option>
              ))}
            </select>
          </div>
          <button
            type="submit"
            className="inline-flex h-12 items-center justify-center gap-2 rounded-xl bg-accent px-6 font-bold text-on-accent transition-colors hover:bg-accent-strong col-span-2 lg:col-span-1"
          >
            <Search aria-hidden className="size-5" />
            Find events
          </button>
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
