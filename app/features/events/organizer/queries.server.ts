import { and, asc, desc, eq, gte, ilike, lt, or, type SQL, sql } from "drizzle-orm";
import { eventDateLabels, formatEventInstant } from "~/features/dates/event-dates";
import { eventDays, toLocalInputValue } from "~/features/dates/time-zones";
import { tierPriceInputValues } from "~/features/forms/fields";
import type { Db } from "~/server/db/client.server";
import { containing } from "~/server/db/like";
import { moneyInputValue } from "~/ui/money";
import { pageOf } from "~/ui/paging";
import { events, ticketTypes, waitingListEntries } from "../../../../db/schema";
import type { EventFilter } from "./schemas";

// What the organizer's event pages read. Plain queries returning plain data; each selects only
// the columns its page shows, with ticket figures summed in the same statement.

const EVENTS_PER_PAGE = 20;

/** Ticket figures of an event, summed over its types in the query that reads the event. */
const ticketFigures = {
  sold: sql<number>`coalesce(sum(${ticketTypes.sold}), 0)::int`,
  ticketTypeCount: sql<number>`count(${ticketTypes.id})::int`,
  visibleTicketTypes: sql<number>`(count(${ticketTypes.id}) filter (where not ${ticketTypes.hidden}))::int`,
  // Only when every type has a limit do the types limit the event as a whole.
  typesCapacity: sql<
    number | null
  >`case when count(${ticketTypes.id}) > 0 and bool_and(${ticketTypes.capacity} is not null) then sum(${ticketTypes.capacity})::int end`,
};

/** What an event's row in the list and the header of its pages both show; the ticket types joined. */
const overviewColumns = {
  id: events.id,
  slug: events.slug,
  title: events.title,
  status: events.status,
  startsAt: events.startsAt,
  endsAt: events.endsAt,
  timeZone: events.timeZone,
  venue: events.venue,
  town: events.town,
  capacity: events.capacity,
  coverHash: events.coverHash,
  ...ticketFigures,
};

type EventRow = typeof events.$inferSelect;

/** The named columns of one event: the short reads of its pages and forms; null when there is no such event. */
async function eventColumns<Key extends keyof EventRow>(db: Db, eventId: string, keys: Key[]) {
  const columns = Object.fromEntries(keys.map((key) => [key, events[key]]));
  const [event] = await db.select(columns).from(events).where(eq(events.id, eventId));
  return (event as Pick<EventRow, Key> | undefined) ?? null;
}

/** Events whose title, venue, town or address holds `q`; everything when `q` is empty. */
export function eventSearch(q: string) {
  if (!q) return undefined;
  const pattern = containing(q);
  return or(
    ilike(events.title, pattern),
    ilike(events.venue, pattern),
    ilike(events.town, pattern),
    ilike(events.slug, pattern),
  );
}

/** The most people the event admits: its own limit, its ticket types' limits, or no limit (null). */
function placesOf(capacity: number | null, typesCapacity: number | null) {
  if (capacity === null) return typesCapacity;
  if (typesCapacity === null) return capacity;
  return Math.min(capacity, typesCapacity);
}

export async function listEventsForAdmin(db: Db, input: { show: EventFilter; q: string; page: number; now: Date }) {
  const filters: Record<EventFilter, SQL> = {
    upcoming: and(eq(events.status, "published"), gte(events.endsAt, input.now))!,
    draft: eq(events.status, "draft"),
    past: and(eq(events.status, "published"), lt(events.endsAt, input.now))!,
    cancelled: eq(events.status, "cancelled"),
  };
  const search = eventSearch(input.q);
  // What is coming soonest first; what is over, most recent first.
  const order =
    input.show === "upcoming" || input.show === "draft"
      ? [asc(events.startsAt), asc(events.id)]
      : [desc(events.startsAt), desc(events.id)];

  const [rows, [counts]] = await Promise.all([
    db
      .select({ ...overviewColumns, type: events.type, headline: events.headline })
      .from(events)
      .leftJoin(ticketTypes, eq(ticketTypes.eventId, events.id))
      .where(and(filters[input.show], search))
      .groupBy(events.id)
      .orderBy(...order)
      .limit(EVENTS_PER_PAGE)
      .offset((input.page - 1) * EVENTS_PER_PAGE),
    db
      .select({
        upcoming: sql<number>`(count(*) filter (where ${filters.upcoming}))::int`,
        draft: sql<number>`(count(*) filter (where ${filters.draft}))::int`,
        past: sql<number>`(count(*) filter (where ${filters.past}))::int`,
        cancelled: sql<number>`(count(*) filter (where ${filters.cancelled}))::int`,
      })
      .from(events)
      .where(search),
  ]);
  const totals = counts ?? { upcoming: 0, draft: 0, past: 0, cancelled: 0 };
  const total = totals[input.show];
  return {
    events: rows.map(({ typesCapacity, capacity, ...row }) => ({
      ...row,
      places: placesOf(capacity, typesCapacity),
      labels: eventDateLabels(row.startsAt, row.endsAt, row.timeZone),
    })),
    counts: totals,
    ...pageOf(total, input.page, EVENTS_PER_PAGE),
  };
}

/** The header every page of one event shows: what it is, when, its state and its sales. */
export async function getEventSummary(db: Db, eventId: string) {
  const [row] = await db
    .select({
      ...overviewColumns,
      publishedAt: events.publishedAt,
      cancelledAt: events.cancelledAt,
      cancelReason: events.cancelReason,
      // Places people wait for on the event's lists: "you could sell N more".
      waitingPlaces: sql<number>`(
        select coalesce(sum(w.quantity), 0)::int from ${waitingListEntries} w
        join ${ticketTypes} wt on wt.id = w.ticket_type_id
        where wt.event_id = ${events.id} and w.status = 'waiting'
      )`.mapWith(Number),
    })
    .from(events)
    .leftJoin(ticketTypes, eq(ticketTypes.eventId, events.id))
    .where(eq(events.id, eventId))
    .groupBy(events.id);
  if (!row) return null;
  const { typesCapacity, ...summary } = row;
  return {
    ...summary,
    places: placesOf(row.capacity, typesCapacity),
    labels: eventDateLabels(row.startsAt, row.endsAt, row.timeZone),
    publishedLabel: row.publishedAt ? formatEventInstant(row.publishedAt, row.timeZone) : null,
    cancelledLabel: row.cancelledAt ? formatEventInstant(row.cancelledAt, row.timeZone) : null,
  };
}

export type EventSummary = NonNullable<Awaited<ReturnType<typeof getEventSummary>>>;

const checked = (value: boolean) => (value ? "on" : undefined);
const localValue = (instant: Date | null, timeZone: string) => (instant ? toLocalInputValue(instant, timeZone) : "");
const numberValue = (value: number | null) => (value === null ? "" : String(value));

/** An event's saved values as its form shows them: times in its own zone, money in pounds. */
export async function getEventFormValues(db: Db, eventId: string) {
  const event = await eventColumns(db, eventId, [
    "title",
    "slug",
    "summary",
    "description",
    "type",
    "headline",
    "membersEvent",
    "timeZone",
    "startsAt",
    "endsAt",
    "venue",
    "address",
    "town",
    "postcode",
    "latitude",
    "longitude",
    "placeId",
    "capacity",
    "salesStartAt",
    "salesEndAt",
    "applicationsOpen",
    "applicationsDeadline",
    "applicationSpots",
    "applicationFee",
    "applicationCriteria",
  ]);
  if (!event) return null;
  const zone = event.timeZone;
  return {
    ...event,
    headline: checked(event.headline),
    membersEvent: checked(event.membersEvent),
    startsAt: localValue(event.startsAt, zone),
    endsAt: localValue(event.endsAt, zone),
    latitude: numberValue(event.latitude),
    longitude: numberValue(event.longitude),
    placeId: event.placeId ?? "",
    capacity: numberValue(event.capacity),
    salesStartAt: localValue(event.salesStartAt, zone),
    salesEndAt: localValue(event.salesEndAt, zone),
    applicationsOpen: checked(event.applicationsOpen),
    applicationsDeadline: localValue(event.applicationsDeadline, zone),
    applicationSpots: numberValue(event.applicationSpots),
    applicationFee: event.applicationFee ? moneyInputValue(event.applicationFee) : "",
  };
}

/** When the event runs, in its own time zone: what a ticket type's dates are checked against. */
export function getEventTimes(db: Db, eventId: string) {
  return eventColumns(db, eventId, ["startsAt", "endsAt", "timeZone"]);
}

/** Whether the event was cancelled, with its title and reason: what refunding its holders needs. */
export function getEventCancellation(db: Db, eventId: string) {
  return eventColumns(db, eventId, ["status", "title", "cancelReason"]);
}

/** The event's cover as its cover page shows it. */
export function getEventCover(db: Db, eventId: string) {
  return eventColumns(db, eventId, ["coverHash", "coverAlt", "coverColor"]);
}

/** The event's ticket types for its tickets page, with what each form needs to show them again. */
export async function getTicketTypesPage(db: Db, eventId: string) {
  const event = await eventColumns(db, eventId, [
    "status",
    "startsAt",
    "endsAt",
    "timeZone",
    "capacity",
    "salesStartAt",
    "salesEndAt",
  ]);
  if (!event) return null;
  const types = await db
    .select({
      id: ticketTypes.id,
      name: ticketTypes.name,
      description: ticketTypes.description,
      price: ticketTypes.price,
      capacity: ticketTypes.capacity,
      maxPerOrder: ticketTypes.maxPerOrder,
      days: ticketTypes.days,
      salesStartAt: ticketTypes.salesStartAt,
      salesEndAt: ticketTypes.salesEndAt,
      memberPrice: ticketTypes.memberPrice,
      tierPrices: ticketTypes.tierPrices,
      membersOnly: ticketTypes.membersOnly,
      memberSalesStartAt: ticketTypes.memberSalesStartAt,
      sortOrder: ticketTypes.sortOrder,
      hidden: ticketTypes.hidden,
      sold: ticketTypes.sold,
    })
    .from(ticketTypes)
    .where(eq(ticketTypes.eventId, eventId))
    .orderBy(asc(ticketTypes.sortOrder), asc(ticketTypes.createdAt));
  const zone = event.timeZone;
  return {
    event: { ...event, days: eventDays(event.startsAt, event.endsAt, zone) },
    ticketTypes: types.map((type) => ({
      ...type,
      memberSalesLabel: type.memberSalesStartAt ? formatEventInstant(type.memberSalesStartAt, zone) : null,
      salesLabel: {
        opens: type.salesStartAt ? formatEventInstant(type.salesStartAt, zone) : null,
        closes: type.salesEndAt ? formatEventInstant(type.salesEndAt, zone) : null,
      },
      formValues: {
        name: type.name,
        description: type.description,
        price: moneyInputValue(type.price),
        capacity: numberValue(type.capacity),
        maxPerOrder: String(type.maxPerOrder),
        days: type.days,
        salesStartAt: localValue(type.salesStartAt, zone),
        salesEndAt: localValue(type.salesEndAt, zone),
        memberPrice: type.memberPrice === null ? "" : moneyInputValue(type.memberPrice),
        tierPrices: tierPriceInputValues(type.tierPrices),
        membersOnly: checked(type.membersOnly),
        memberSalesStartAt: localValue(type.memberSalesStartAt, zone),
        sortOrder: String(type.sortOrder),
        hidden: checked(type.hidden),
      },
    })),
  };
}

export type TicketTypesPage = NonNullable<Awaited<ReturnType<typeof getTicketTypesPage>>>;
