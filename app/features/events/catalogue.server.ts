import { and, asc, desc, eq, gt, inArray, lte, ne, or, type SQL, sql } from "drizzle-orm";
import { heldQuantity, liveHolds } from "~/features/commerce/live-holds.server";
import { renderMarkdown } from "~/features/content/markdown.server";
import { eventDateLabels, formatEventInstant, formatLocalDay } from "~/features/dates/event-dates";
import { listRunning } from "~/features/places/line-state";
import { withPlacesSetAside } from "~/features/places/places-set-aside.server";
import type { Db } from "~/server/db/client.server";
import { isUuid } from "~/server/db/uuid";
import { holds } from "../../../db/schema/commerce";
import { type EventType, events, ticketTypes } from "../../../db/schema/events";
import {
  type Buyer,
  eventSalesSummary,
  inPresale,
  mayBuy,
  type SalesEvent,
  type SalesTicketType,
  ticketPrice,
  ticketSalesState,
} from "./sales";

/**
 * The public catalogue: what visitors can see of events (the list, an event's page, the
 * home page). Drafts never leave this module; cancelled events stay visible with their badge.
 * Every date label is worked out here, on the server, in the event's own time zone.
 */

const PUBLIC_STATUSES = ["published", "cancelled"] as const;
const isPublic = inArray(events.status, [...PUBLIC_STATUSES]);

const PER_PAGE = 12;
/** Longest search text we look at: anything longer is cut, never refused. */
export const MAX_QUERY_LENGTH = 100;
const MAX_SEARCH_WORDS = 8;

export type EventCover = { hash: string | null; alt: string; color: string | null };

/** What an EventTile shows. */
export type EventTileData = {
  id: string;
  slug: string;
  title: string;
  town: string;
  type: EventType;
  /** "Sat 12 – Sun 13 June 2027", in the event's zone. */
  dates: string;
  /** The date block on the cover: "12" over "Jun". */
  day: string;
  month: string;
  cover: EventCover;
  /** Cheapest ticket still to be had, in minor units; null when there is none to show. */
  fromPrice: number | null;
  badges: { soldOut: boolean; fewLeft: boolean; applicationsOpen: boolean; cancelled: boolean; past: boolean };
};

type TicketFacts = Omit<SalesTicketType, "salesStartAt" | "salesEndAt"> & {
  salesStartAt: string | null;
  salesEndAt: string | null;
};

/** What the sales rules (`SalesEvent`) read of an event, for the catalogue and the cart's stock. */
export const eventSalesColumns = {
  status: events.status,
  startsAt: events.startsAt,
  endsAt: events.endsAt,
  salesStartAt: events.salesStartAt,
  salesEndAt: events.salesEndAt,
  capacity: events.capacity,
};

const tileColumns = (now: Date) => ({
  ...eventSalesColumns,
  id: events.id,
  slug: events.slug,
  title: events.title,
  town: events.town,
  type: events.type,
  timeZone: events.timeZone,
  coverHash: events.coverHash,
  coverAlt: events.coverAlt,
  coverColor: events.coverColor,
  applicationsOpen: events.applicationsOpen,
  applicationsDeadline: events.applicationsDeadline,
  // Every ticket type of the event in the same row (hidden ones too: they share the event's
  // capacity), so a page of tiles is one query however many events it shows.
  // Column names are spelled out: Drizzle leaves columns of a one-table select unqualified,
  // which inside the subquery would name the ticket type's own id.
  tickets: sql<TicketFacts[]>`coalesce((
    select json_agg(json_build_object(
      'price', tt.price, 'capacity', tt.capacity, 'sold', tt.sold,
      'salesStartAt', tt.sales_start_at, 'salesEndAt', tt.sales_end_at, 'hidden', tt.hidden,
      -- Places held by buyers who are paying count as taken, as on the event page.
      'held', (select coalesce(sum(h.quantity), 0) from ${holds} h
        where h.ticket_type_id = tt.id and h.status = 'active' and h.expires_at > ${now})))
    from ${ticketTypes} tt where tt.event_id = ${events}.id), '[]'::json)`,
});

type TileRow = SalesEvent & {
  id: string;
  slug: string;
  title: string;
  town: string;
  type: EventType;
  timeZone: string;
  coverHash: string | null;
  coverAlt: string;
  coverColor: string | null;
  applicationsOpen: boolean;
  applicationsDeadline: Date | null;
  tickets: TicketFacts[] | string;
};

const toDate = (value: string | Date | null) => (value === null ? null : new Date(value));

function ticketFacts(raw: TicketFacts[] | string): SalesTicketType[] {
  // node-postgres parses json; a driver that hands back text gets parsed here.
  const list: TicketFacts[] = typeof raw === "string" ? JSON.parse(raw) : raw;
  return list.map((ticket) => ({
    ...ticket,
    salesStartAt: toDate(ticket.salesStartAt),
    salesEndAt: toDate(ticket.salesEndAt),
  }));
}

function applicationsOpenAt(row: { applicationsOpen: boolean; applicationsDeadline: Date | null }, now: Date) {
  return row.applicationsOpen && (row.applicationsDeadline === null || row.applicationsDeadline > now);
}

function toTile(row: TileRow, now: Date): EventTileData {
  const labels = eventDateLabels(row.startsAt, row.endsAt, row.timeZone);
  const summary = eventSalesSummary(row, ticketFacts(row.tickets), now);
  const past = summary.state === "past";
  const cancelled = row.status === "cancelled";
  const live = !past && !cancelled;
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    town: row.town,
    type: row.type,
    dates: labels.dates,
    day: labels.day,
    month: labels.month,
    cover: { hash: row.coverHash, alt: row.coverAlt, color: row.coverColor },
    fromPrice: live ? summary.fromPrice : null,
    badges: {
      soldOut: live && summary.state === "sold_out",
      fewLeft: live && summary.state === "on_sale" && summary.fewLeft,
      applicationsOpen: live && applicationsOpenAt(row, now),
      cancelled,
      past,
    },
  };
}

export type EventsListQuery = {
  when: "upcoming" | "past";
  type?: EventType;
  /** "YYYY-MM": events starting in that month, in `timeZone`. */
  month?: string;
  q?: string;
  page: number;
  perPage?: number;
  now: Date;
  /** The site's zone, in which months are counted. */
  timeZone: string;
};

export type MonthFacet = { value: string; label: string; count: number };

export type EventsList = {
  events: EventTileData[];
  total: number;
  /** The page shown: the one asked for, kept between the first and the last. */
  page: number;
  pageCount: number;
  perPage: number;
  /** Months that have events for the other filters (for the month select). */
  months: MonthFacet[];
};

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function isMonth(value: string | null | undefined): value is string {
  return value != null && MONTH.test(value);
}

/** "2027-06" → "June 2027". */
export function monthLabel(month: string) {
  const [year, number] = month.split("-").map(Number) as [number, number];
  return new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(Date.UTC(year, number - 1, 15)),
  );
}

/** The search text as we use it: trimmed, spaces collapsed, at most MAX_QUERY_LENGTH characters. */
export function normaliseQuery(q: string | null | undefined) {
  return (q ?? "").replace(/\s+/g, " ").trim().slice(0, MAX_QUERY_LENGTH).trim();
}

/**
 * Full-text search on the generated `search` column. websearch_to_tsquery reads what people
 * type ("quoted phrases", -excluded, or) and never fails on odd input; it only matches whole
 * words, so a second query matches the last word as a prefix, for someone still typing
 * ("silver" finds Silverstone). That query is built from letters and digits only, so nothing
 * typed can break its syntax.
 */
function searchCondition(q: string): SQL {
  const web = sql`${events.search} @@ websearch_to_tsquery('english', ${q})`;
  // Quotes, exclusions and "or" ask for websearch's own meaning: no second guess then.
  if (/"|(^|\s)-|\bor\b/i.test(q)) return web;
  const words = (q.match(/[\p{L}\p{N}]+/gu) ?? []).slice(-MAX_SEARCH_WORDS);
  if (words.length === 0) return web;
  const prefix = words.map((word, i) => (i === words.length - 1 ? `${word}:*` : word)).join(" & ");
  return or(web, sql`${events.search} @@ to_tsquery('english', ${prefix})`)!;
}

const startMonth = (timeZone: string) => sql<string>`to_char(${events.startsAt} at time zone ${timeZone}, 'YYYY-MM')`;

/**
 * One page of the catalogue. Two queries whatever the page size: the months facet (which also
 * gives the total), then the page's events with their ticket types aggregated in.
 */
export async function listEvents(db: Db, query: EventsListQuery): Promise<EventsList> {
  const perPage = Math.min(Math.max(1, Math.trunc(query.perPage ?? PER_PAGE)), 48);
  const upcoming = query.when === "upcoming";
  const q = normaliseQuery(query.q);
  const filters: SQL[] = [isPublic, upcoming ? gt(events.endsAt, query.now) : lte(events.endsAt, query.now)];
  if (query.type) filters.push(eq(events.type, query.type));
  if (q) filters.push(searchCondition(q));

  const facet = await db
    .select({ month: startMonth(query.timeZone), count: sql<number>`count(*)::int` })
    .from(events)
    .where(and(...filters))
    .groupBy(sql`1`)
    .orderBy(upcoming ? sql`1 asc` : sql`1 desc`);
  const months = facet.map((row) => ({ value: row.month, label: monthLabel(row.month), count: row.count }));

  const month = isMonth(query.month) ? query.month : undefined;
  const total = month
    ? (months.find((row) => row.value === month)?.count ?? 0)
    : months.reduce((sum, row) => sum + row.count, 0);
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const page = Math.min(Math.max(1, Number.isFinite(query.page) ? Math.trunc(query.page) : 1), pageCount);

  if (month) filters.push(sql`${startMonth(query.timeZone)} = ${month}`);
  const rows =
    total === 0
      ? []
      : await db
          .select(tileColumns(query.now))
          .from(events)
          .where(and(...filters))
          .orderBy(...(upcoming ? [asc(events.startsAt), asc(events.id)] : [desc(events.startsAt), desc(events.id)]))
          .limit(perPage)
          .offset((page - 1) * perPage);

  return {
    events: rows.map((row) => toTile(row, query.now)),
    total,
    page,
    pageCount,
    perPage,
    months,
  };
}

/** The next upcoming events for the home page's DiscoverEvents: published ones only, soonest first. */
export async function upcomingEvents(db: Db, options: { limit: number; now: Date; excludeId?: string }) {
  const filters = [eq(events.status, "published"), gt(events.endsAt, options.now)];
  if (options.excludeId) filters.push(ne(events.id, options.excludeId));
  const rows = await db
    .select(tileColumns(options.now))
    .from(events)
    .where(and(...filters))
    .orderBy(asc(events.startsAt), asc(events.id))
    .limit(options.limit);
  return rows.map((row) => toTile(row, options.now));
}

export type HeadlineEvent = {
  id: string;
  slug: string;
  title: string;
  summary: string;
  town: string;
  type: EventType;
  dates: string;
  cover: EventCover;
};

/** The home page hero: the next headline event still to finish, else the next published event. */
export async function nextHeadlineEvent(db: Db, now: Date): Promise<HeadlineEvent | null> {
  const [row] = await db
    .select({
      id: events.id,
      slug: events.slug,
      title: events.title,
      summary: events.summary,
      town: events.town,
      type: events.type,
      startsAt: events.startsAt,
      endsAt: events.endsAt,
      timeZone: events.timeZone,
      coverHash: events.coverHash,
      coverAlt: events.coverAlt,
      coverColor: events.coverColor,
    })
    .from(events)
    .where(and(eq(events.status, "published"), gt(events.endsAt, now)))
    .orderBy(desc(events.headline), asc(events.startsAt), asc(events.id))
    .limit(1);
  if (!row) return null;
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    summary: row.summary,
    town: row.town,
    type: row.type,
    dates: eventDateLabels(row.startsAt, row.endsAt, row.timeZone).dates,
    cover: { hash: row.coverHash, alt: row.coverAlt, color: row.coverColor },
  };
}

/**
 * `/events/{id}` takes the id or the slug; only a well-formed uuid is compared with ids (slugs
 * never have that shape: the event forms refuse it).
 */
export function eventByIdOrSlug(idOrSlug: string) {
  return isUuid(idOrSlug) ? eq(events.id, idOrSlug.toLowerCase()) : eq(events.slug, idOrSlug);
}

/** The public event (not a draft) at `/events/{idOrSlug}`; null for an address too long to be one. */
function publicEventAt(idOrSlug: string) {
  if (!idOrSlug || idOrSlug.length > 200) return null;
  return and(eventByIdOrSlug(idOrSlug), isPublic);
}

/** When and where an event is, as its page and its calendar file both show it. */
export const whenAndWhereColumns = {
  id: events.id,
  slug: events.slug,
  title: events.title,
  summary: events.summary,
  status: events.status,
  cancelReason: events.cancelReason,
  startsAt: events.startsAt,
  endsAt: events.endsAt,
  timeZone: events.timeZone,
  venue: events.venue,
  address: events.address,
  town: events.town,
  postcode: events.postcode,
  latitude: events.latitude,
  longitude: events.longitude,
  updatedAt: events.updatedAt,
};

/** What the sales rules (`./sales`) read of a ticket type, for the event page and the cart's stock. */
export const ticketTypeSalesColumns = {
  id: ticketTypes.id,
  name: ticketTypes.name,
  price: ticketTypes.price,
  capacity: ticketTypes.capacity,
  maxPerOrder: ticketTypes.maxPerOrder,
  days: ticketTypes.days,
  salesStartAt: ticketTypes.salesStartAt,
  salesEndAt: ticketTypes.salesEndAt,
  hidden: ticketTypes.hidden,
  memberPrice: ticketTypes.memberPrice,
  tierPrices: ticketTypes.tierPrices,
  membersOnly: ticketTypes.membersOnly,
  memberSalesStartAt: ticketTypes.memberSalesStartAt,
  sold: ticketTypes.sold,
};

/**
 * The event a form on its public page was posted to, by id or slug: its id and slug, or null for
 * a draft, an unknown event or an address too long to be one.
 */
export async function publicEventRef(db: Db, idOrSlug: string): Promise<{ id: string; slug: string } | null> {
  const found = publicEventAt(idOrSlug);
  if (!found) return null;
  const [event] = await db.select({ id: events.id, slug: events.slug }).from(events).where(found);
  return event ?? null;
}

/** Whether the ticket type is one of this event's (hidden or not). */
export async function eventHasTicketType(db: Db, eventId: string, ticketTypeId: string) {
  const [type] = await db
    .select({ id: ticketTypes.id })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.id, ticketTypeId), eq(ticketTypes.eventId, eventId)));
  return Boolean(type);
}

export type TicketState =
  | { kind: "on_sale"; remaining: number | null; fewLeft: boolean }
  | { kind: "not_yet"; opensAt: string; opensLabel: string }
  | { kind: "ended" }
  | { kind: "sold_out" }
  | { kind: "cancelled" };

export type EventPageTicket = {
  id: string;
  name: string;
  description: string;
  price: number;
  maxPerOrder: number;
  /** Days a pass admits to, as labels ("Sat 12 June"); empty on a one-day event. */
  days: string[];
  state: TicketState;
  /** When this type's sales open, if it has a window (for search engines' offers). */
  validFrom: string | null;
  /** What members pay, shown to a buyer who is not one; null when it is the same or they are one. */
  memberPrice: number | null;
  /** The buyer pays the member price. */
  memberPriced: boolean;
  membersOnly: boolean;
  /** Members can buy now while everyone else waits (a presale). */
  presale: boolean;
  /** Sold out with the event's waiting list running: members may join the line for places. */
  waitingList: boolean;
};

export type EventPage = NonNullable<Awaited<ReturnType<typeof getEventPage>>>;

/**
 * Everything the event page shows, or null when there is no such public event (drafts are
 * not found). The event and its ticket types at once, then the places vouchers keep.
 */
export async function getEventPage(db: Db, idOrSlug: string, now: Date, buyer: Buyer = { member: false }) {
  const found = publicEventAt(idOrSlug);
  if (!found) return null;
  // The event and its ticket types (found by the same condition) are read at the same time.
  const [[event], heldTypes] = await Promise.all([
    db
      .select({
        ...whenAndWhereColumns,
        description: events.description,
        type: events.type,
        placeId: events.placeId,
        coverHash: events.coverHash,
        coverAlt: events.coverAlt,
        coverColor: events.coverColor,
        ...eventSalesColumns,
        applicationsOpen: events.applicationsOpen,
        applicationsDeadline: events.applicationsDeadline,
        applicationSpots: events.applicationSpots,
        applicationFee: events.applicationFee,
        applicationCriteria: events.applicationCriteria,
        publishedAt: events.publishedAt,
        waitingListEnabled: events.waitingListEnabled,
        waitingListOfferHours: events.waitingListOfferHours,
        waitingListClosesHours: events.waitingListClosesHours,
      })
      .from(events)
      .where(found)
      .limit(1),
    // Places held by buyers who are paying count as taken (available = capacity − sold − holds):
    // the live holds are summed in the same query as the types.
    db
      .select({ ...ticketTypeSalesColumns, description: ticketTypes.description, held: heldQuantity })
      .from(ticketTypes)
      .leftJoin(holds, and(eq(holds.ticketTypeId, ticketTypes.id), liveHolds(db, now)))
      .where(inArray(ticketTypes.eventId, db.select({ id: events.id }).from(events).where(found).limit(1)))
      .groupBy(ticketTypes.id)
      .orderBy(asc(ticketTypes.sortOrder), asc(ticketTypes.createdAt), asc(ticketTypes.id)),
  ]);
  if (!event) return null;
  // Places kept for the holders of vouchers, and set aside for a waiting list, are gone for everyone else.
  const setAside = await withPlacesSetAside(db, heldTypes, now);
  const types = heldTypes.map((type) => ({ ...type, held: setAside.get(type.id)?.held ?? type.held }));

  const zone = event.timeZone;
  const dates = eventDateLabels(event.startsAt, event.endsAt, zone);
  const summary = eventSalesSummary(event, types, now);
  const tickets: EventPageTicket[] = types
    .filter((type) => !type.hidden && mayBuy(type, buyer))
    .map((type) => {
      const state = ticketSalesState(event, type, types, now, buyer);
      const price = ticketPrice(type, buyer);
      return {
        id: type.id,
        name: type.name,
        description: type.description,
        price,
        memberPrice: !buyer.member && type.memberPrice !== null ? type.memberPrice : null,
        memberPriced: price !== type.price,
        membersOnly: type.membersOnly,
        presale: inPresale(event, type, now),
        waitingList: state.kind === "sold_out" && listRunning(event, now),
        maxPerOrder: type.maxPerOrder,
        days: dates.multiDay ? [...type.days].sort().map(formatLocalDay) : [],
        state:
          state.kind === "not_yet"
            ? {
                kind: "not_yet",
                opensAt: state.opensAt.toISOString(),
                opensLabel: formatEventInstant(state.opensAt, zone),
              }
            : state,
        validFrom: (type.salesStartAt ?? event.salesStartAt)?.toISOString() ?? null,
      };
    });

  const applicationsOpen = applicationsOpenAt(event, now) && summary.state !== "past" && event.status !== "cancelled";
  return {
    event: {
      id: event.id,
      slug: event.slug,
      title: event.title,
      summary: event.summary,
      descriptionHtml: renderMarkdown(event.description),
      type: event.type,
      status: event.status,
      cancelReason: event.cancelReason,
      startsAt: event.startsAt.toISOString(),
      endsAt: event.endsAt.toISOString(),
      timeZone: zone,
      dates,
      startsLabel: formatEventInstant(event.startsAt, zone),
      endsLabel: formatEventInstant(event.endsAt, zone),
      venue: event.venue,
      address: event.address,
      town: event.town,
      postcode: event.postcode,
      latitude: event.latitude,
      longitude: event.longitude,
      placeId: event.placeId,
      cover: { hash: event.coverHash, alt: event.coverAlt, color: event.coverColor } satisfies EventCover,
      publishedAt: event.publishedAt?.toISOString() ?? null,
      updatedAt: event.updatedAt.toISOString(),
    },
    sales: {
      state: summary.state,
      fromPrice: summary.fromPrice,
      fewLeft: summary.fewLeft,
      opensLabel: summary.opensAt ? formatEventInstant(summary.opensAt, zone) : null,
    },
    tickets,
    /** Ticket types only members may buy, left out of `tickets` for a buyer who is not one. */
    membersOnlyHidden: types.some((type) => !type.hidden && !mayBuy(type, buyer)),
    applications: applicationsOpen
      ? {
          deadlineLabel: event.applicationsDeadline ? formatEventInstant(event.applicationsDeadline, zone) : null,
          spots: event.applicationSpots,
          fee: event.applicationFee,
          criteriaHtml: event.applicationCriteria ? renderMarkdown(event.applicationCriteria) : "",
        }
      : null,
  };
}

/** What the calendar file needs of a public event, or null. */
export async function calendarEvent(db: Db, idOrSlug: string) {
  const found = publicEventAt(idOrSlug);
  if (!found) return null;
  const [event] = await db.select(whenAndWhereColumns).from(events).where(found).limit(1);
  return event ?? null;
}

/** Published events for the sitemap, with when they last changed. */
export async function sitemapEvents(db: Db) {
  return db
    .select({ slug: events.slug, updatedAt: events.updatedAt })
    .from(events)
    .where(eq(events.status, "published"))
    .orderBy(desc(events.startsAt));
}
