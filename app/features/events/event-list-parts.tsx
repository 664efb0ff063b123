import { CalendarSearch } from "lucide-react";
import { Link } from "react-router";
import { Card } from "~/ui/card";
import { plural } from "~/ui/plural";
import { EVENT_TYPE_LABELS, isEventType } from "./event-types";
import { type EventFilters, eventsHref } from "./events-header";

/** The results heading: "3 upcoming shows in June 2027 matching “silver”". */
export function describeResults(total: number, filters: EventFilters, monthName?: string) {
  const kind = isEventType(filters.type) ? EVENT_TYPE_LABELS[filters.type].toLowerCase() : "event";
  const noun = plural(total, kind, `${kind}s`);
  const parts = [`${total} ${filters.when === "past" ? "past" : "upcoming"} ${noun}`];
  if (monthName) parts.push(`in ${monthName}`);
  if (filters.q) parts.push(`matching “${filters.q}”`);
  return parts.join(" ");
}

/** The empty state: says why nothing shows and what to do next. */
export function NoEvents({ filters }: { filters: EventFilters }) {
  const filtered = Boolean(filters.type || filters.month || filters.q);
  const past = filters.when === "past";
  return (
    <Card variant="empty" className="grid place-items-center bg-surface-raised px-6 py-16">
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
    </Card>
  );
}
