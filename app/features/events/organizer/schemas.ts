import { z } from "zod";
import {
  eventDays,
  type FieldIssue,
  isValidTimeZone,
  parseLocalDateTime,
  readLocalField,
} from "~/features/dates/time-zones";
import {
  checkbox,
  line,
  listPage,
  listSearch,
  listView,
  localTime,
  MESSAGES,
  memberPriceField,
  moneyField,
  optionalLine,
  optionalLocalTime as optionalLocalTimeOf,
  optionalWholeNumber,
  type PriceTier,
  prose,
  requiredProse,
  slugField as slugFieldOf,
  tierPriceIssues,
  tierPricesField,
  wholeNumber,
} from "~/features/forms/fields";
import { isUsableSlug as isUsableEventSlug } from "~/features/forms/slug";
import type { EventType } from "../../../../db/schema/events";

// The organizer's event forms: one schema per form, run in the browser for instant feedback and
// again on the server as the authority. Schemas that depend on the event (its zone, its days)
// are made per event by the factories below.

export const LIMITS = {
  title: 120,
  slug: 80,
  summary: 280,
  description: 20_000,
  venue: 120,
  address: 200,
  town: 80,
  postcode: 16,
  placeId: 300,
  criteria: 5_000,
  cancelReason: 500,
  coverAlt: 200,
  ticketName: 80,
  ticketDescription: 1_000,
  capacity: 100_000,
  applicationSpots: 10_000,
  maxPerOrder: 50,
  sortOrder: 1_000,
  eventDays: 14,
} as const;

/** The site's event types in the order the form offers them (db/schema/events.ts EVENT_TYPES). */
export const EVENT_TYPE_LABELS = {
  meet: "Meet",
  show: "Show",
  track_day: "Track day",
  cruise: "Cruise",
} as const satisfies Record<EventType, string>;
const eventTypes = Object.keys(EVENT_TYPE_LABELS) as [EventType, ...EventType[]];

/**
 * Zones clubs run events in, offered in the time-zone menu after the site's own. Any valid IANA
 * zone is accepted; an event already in another zone keeps it in the menu.
 */
const COMMON_TIME_ZONES = [
  "Europe/London",
  "Europe/Dublin",
  "Europe/Lisbon",
  "Europe/Paris",
  "Europe/Brussels",
  "Europe/Amsterdam",
  "Europe/Berlin",
  "Europe/Zurich",
  "Europe/Madrid",
  "Europe/Rome",
  "Europe/Vienna",
  "Europe/Prague",
  "Europe/Warsaw",
  "Europe/Copenhagen",
  "Europe/Oslo",
  "Europe/Stockholm",
  "Europe/Helsinki",
  "Europe/Athens",
  "Europe/Istanbul",
  "Asia/Dubai",
  "Asia/Singapore",
  "Asia/Tokyo",
  "Australia/Perth",
  "Australia/Sydney",
  "Pacific/Auckland",
  "Africa/Johannesburg",
  "America/Toronto",
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Los_Angeles",
  "UTC",
] as const;

/** The time-zone menu: the site's zone first, then the event's own, then the common ones. */
export function timeZoneOptions(siteZone: string, current?: string) {
  return [...new Set([siteZone, ...(current ? [current] : []), ...COMMON_TIME_ZONES])];
}

/** Slugs that would shadow a page under /events/ (the catalogue's own addresses). */
const RESERVED_SLUGS = new Set([
  "new",
  "edit",
  "past",
  "upcoming",
  "calendar",
  "calendar-ics",
  "ics",
  "feed",
  "rss",
  "search",
  "page",
  "month",
  "type",
  "types",
  "tickets",
  "apply",
  "applications",
  "map",
  "admin",
  "api",
  "all",
]);

/** Whether `slug` can be an event's address: shaped right, not a word of the catalogue's own pages, not an id. */
export function isUsableSlug(slug: string) {
  return isUsableEventSlug(slug, { max: LIMITS.slug, reserved: RESERVED_SLUGS });
}

const slugField = slugFieldOf({ max: LIMITS.slug, reserved: RESERVED_SLUGS, example: "summer-meet-2027" });
const optionalLocalTime = optionalLocalTimeOf();

const coordinate = (limit: number, what: string) =>
  z
    .number({ error: `Enter the ${what} as a decimal number, like ${limit === 90 ? "52.0786" : "-1.0169"}` })
    .min(-limit, `Enter a ${what} between -${limit} and ${limit}`)
    .max(limit, `Enter a ${what} between -${limit} and ${limit}`)
    .optional()
    .transform((value) => value ?? null);

type Issue = FieldIssue;

const DAY = 24 * 60 * 60 * 1000;
const EARLIEST_YEAR = 2000;
/** How far ahead an event may be put on sale. */
const YEARS_AHEAD = 5;

/** Paths a cross-field rule reads; it runs once each of them is valid on its own. */
function validAt(paths: string[]) {
  return (payload: { issues: readonly { path?: PropertyKey[] }[] }) =>
    !payload.issues.some((issue) => paths.includes(String(issue.path?.[0])));
}

function addAll(ctx: z.RefinementCtx, issues: Issue[]) {
  for (const issue of issues) ctx.addIssue({ code: "custom", ...issue });
}

const EVENT_TIME_FIELDS = ["timeZone", "startsAt", "endsAt", "salesStartAt", "salesEndAt", "applicationsDeadline"];

/** The event form's fields one by one; the browser's constraints (required, lengths) come from these. */
export function eventFormFields(options: { currency: string }) {
  return z.object({
    title: line(LIMITS.title, "Enter the event's title"),
    slug: slugField,
    summary: prose(LIMITS.summary),
    description: prose(LIMITS.description),
    type: z.enum(eventTypes, { error: "Choose the kind of event" }),
    headline: checkbox,
    membersEvent: checkbox,
    timeZone: z
      .string({ error: "Choose the time zone the event happens in" })
      .max(64, "Choose a time zone from the list")
      .refine(isValidTimeZone, "Choose a time zone from the list"),
    startsAt: localTime("Enter when the event starts"),
    endsAt: localTime("Enter when the event ends"),
    venue: line(LIMITS.venue, "Enter the venue's name"),
    address: optionalLine(LIMITS.address),
    town: line(LIMITS.town, "Enter the town"),
    postcode: optionalLine(LIMITS.postcode),
    latitude: coordinate(90, "latitude"),
    longitude: coordinate(180, "longitude"),
    placeId: z
      .string()
      .trim()
      .max(LIMITS.placeId, "That place could not be used: pick it again")
      .regex(/^[A-Za-z0-9_-]+$/, "That place could not be used: pick it again")
      .optional()
      .transform((value) => value ?? null),
    capacity: optionalWholeNumber(1, LIMITS.capacity, "the capacity"),
    salesStartAt: optionalLocalTime,
    salesEndAt: optionalLocalTime,
    applicationsOpen: checkbox,
    applicationsDeadline: optionalLocalTime,
    applicationSpots: optionalWholeNumber(1, LIMITS.applicationSpots, "the number of spots"),
    applicationFee: moneyField(options.currency, "Enter the fee (0 for none)")
      .optional()
      .transform((value) => value ?? 0),
    applicationCriteria: prose(LIMITS.criteria),
  });
}

/** The event form, on /admin/events/new and on an event's page. */
export function eventFormSchema(options: { currency: string; now?: Date }) {
  const now = options.now ?? new Date();
  return eventFormFields(options)
    .superRefine(
      (value, ctx) => {
        const issues: Issue[] = [];
        const zone = value.timeZone;
        const startsAt = readLocalField(value.startsAt, zone, "startsAt", issues);
        const endsAt = readLocalField(value.endsAt, zone, "endsAt", issues);
        if (startsAt) {
          const latest = new Date(now);
          latest.setUTCFullYear(latest.getUTCFullYear() + YEARS_AHEAD);
          if (startsAt.getUTCFullYear() < EARLIEST_YEAR)
            issues.push({ path: ["startsAt"], message: `Enter a date in ${EARLIEST_YEAR} or later` });
          else if (startsAt > latest)
            issues.push({ path: ["startsAt"], message: `Enter a date at most ${YEARS_AHEAD} years from now` });
        }
        if (startsAt && endsAt) {
          if (endsAt <= startsAt) issues.push({ path: ["endsAt"], message: "The end must be after the start" });
          else if (endsAt.getTime() - startsAt.getTime() > LIMITS.eventDays * DAY)
            issues.push({ path: ["endsAt"], message: `An event can last at most ${LIMITS.eventDays} days` });
        }
        const salesStartAt = value.salesStartAt
          ? readLocalField(value.salesStartAt, zone, "salesStartAt", issues)
          : null;
        const salesEndAt = value.salesEndAt ? readLocalField(value.salesEndAt, zone, "salesEndAt", issues) : null;
        if (salesStartAt && salesEndAt && salesEndAt <= salesStartAt)
          issues.push({ path: ["salesEndAt"], message: "Sales must close after they open" });
        if (endsAt && salesEndAt && salesEndAt > endsAt)
          issues.push({ path: ["salesEndAt"], message: "Sales must close by the time the event ends" });
        if (endsAt && salesStartAt && salesStartAt >= endsAt)
          issues.push({ path: ["salesStartAt"], message: "Sales must open before the event ends" });
        const deadline = value.applicationsDeadline
          ? readLocalField(value.applicationsDeadline, zone, "applicationsDeadline", issues)
          : null;
        if (deadline && endsAt && deadline > endsAt)
          issues.push({ path: ["applicationsDeadline"], message: "The deadline must be before the event ends" });
        addAll(ctx, issues);
      },
      { when: validAt(EVENT_TIME_FIELDS) },
    )
    .superRefine(
      (value, ctx) => {
        if ((value.latitude === null) !== (value.longitude === null)) {
          const missing = value.latitude === null ? "latitude" : "longitude";
          ctx.addIssue({ code: "custom", path: [missing], message: `Enter the ${missing} too, or neither` });
        }
      },
      { when: validAt(["latitude", "longitude"]) },
    )
    .transform((value) => {
      const at = (local: string | null) =>
        local ? (parseLocalDateTime(local, value.timeZone) as { instant: Date }).instant : null;
      return {
        ...value,
        startsAt: at(value.startsAt)!,
        endsAt: at(value.endsAt)!,
        salesStartAt: at(value.salesStartAt),
        salesEndAt: at(value.salesEndAt),
        applicationsDeadline: at(value.applicationsDeadline),
      };
    });
}

export type EventInput = z.output<ReturnType<typeof eventFormSchema>>;
/** The event form's fields, and their saved values as the form shows them (text). */
export type EventFormShape = z.input<ReturnType<typeof eventFormSchema>>;
export type EventFormDefaults = { [Field in keyof EventFormShape]?: string | null };

/** What a ticket type's form needs to know about its event. */
export type TicketTypeContext = {
  currency: string;
  timeZone: string;
  startsAt: Date;
  endsAt: Date;
  /** The membership tiers, each with its own optional price (none: only the member price). */
  tiers?: readonly PriceTier[];
};

/** The ticket-type form's fields one by one. */
export function ticketTypeFields(event: TicketTypeContext) {
  const days = eventDays(event.startsAt, event.endsAt, event.timeZone);
  return z.object({
    name: line(LIMITS.ticketName, "Name the ticket, like Day ticket or Weekend pass"),
    description: prose(LIMITS.ticketDescription),
    price: moneyField(event.currency, "Enter the price (0 for free)"),
    capacity: optionalWholeNumber(1, LIMITS.capacity, "the number of tickets"),
    maxPerOrder: wholeNumber(1, LIMITS.maxPerOrder, "the most per order")
      .optional()
      .transform((value) => value ?? 10),
    days: z
      .array(z.string().max(10), { error: "Choose days of the event" })
      .max(days.length, "Choose days of the event")
      .optional()
      .transform((value) => value ?? [])
      .refine((chosen) => chosen.every((day) => days.includes(day)), "Choose days of the event"),
    salesStartAt: optionalLocalTime,
    salesEndAt: optionalLocalTime,
    memberPrice: memberPriceField(event.currency),
    tierPrices: tierPricesField(event.currency, event.tiers ?? []),
    membersOnly: checkbox,
    memberSalesStartAt: optionalLocalTime,
    sortOrder: wholeNumber(0, LIMITS.sortOrder, "the position")
      .optional()
      .transform((value) => value ?? 0),
    hidden: checkbox,
  });
}

/** The ticket-type form, on an event's tickets page. */
export function ticketTypeSchema(event: TicketTypeContext) {
  const days = eventDays(event.startsAt, event.endsAt, event.timeZone);
  return ticketTypeFields(event)
    .superRefine(
      (value, ctx) => {
        const issues: Issue[] = [];
        const opens = value.salesStartAt
          ? readLocalField(value.salesStartAt, event.timeZone, "salesStartAt", issues)
          : null;
        const closes = value.salesEndAt ? readLocalField(value.salesEndAt, event.timeZone, "salesEndAt", issues) : null;
        if (opens && closes && closes <= opens)
          issues.push({ path: ["salesEndAt"], message: "Sales must close after they open" });
        if (closes && closes > event.endsAt)
          issues.push({ path: ["salesEndAt"], message: "Sales must close by the time the event ends" });
        if (opens && opens >= event.endsAt)
          issues.push({ path: ["salesStartAt"], message: "Sales must open before the event ends" });
        const presale = value.memberSalesStartAt
          ? readLocalField(value.memberSalesStartAt, event.timeZone, "memberSalesStartAt", issues)
          : null;
        if (presale && presale >= event.endsAt)
          issues.push({ path: ["memberSalesStartAt"], message: "Sales must open before the event ends" });
        if (value.memberPrice !== null && value.memberPrice > value.price)
          issues.push({ path: ["memberPrice"], message: MESSAGES.memberPriceAbove });
        issues.push(...tierPriceIssues(value.price, value.tierPrices, event.tiers ?? []));
        addAll(ctx, issues);
      },
      { when: validAt(["salesStartAt", "salesEndAt", "memberSalesStartAt", "price", "memberPrice", "tierPrices"]) },
    )
    .transform((value) => {
      const at = (local: string | null) =>
        local ? (parseLocalDateTime(local, event.timeZone) as { instant: Date }).instant : null;
      // No day ticked: the ticket covers every day of the event (the only one, for a one-day event).
      const chosen = value.days.length > 0 ? days.filter((day) => value.days.includes(day)) : days;
      return {
        ...value,
        days: chosen,
        salesStartAt: at(value.salesStartAt),
        salesEndAt: at(value.salesEndAt),
        memberSalesStartAt: at(value.memberSalesStartAt),
      };
    });
}

export type TicketTypeInput = z.output<ReturnType<typeof ticketTypeSchema>>;
export type TicketTypeFormShape = z.input<ReturnType<typeof ticketTypeSchema>>;
export type TicketTypeFormDefaults = {
  [Field in keyof TicketTypeFormShape]?: Field extends "days"
    ? string[]
    : Field extends "tierPrices"
      ? Record<string, string>
      : string | null;
};

export const CancelEventSchema = z.object({
  reason: requiredProse(LIMITS.cancelReason, "Say why the event is cancelled: ticket holders will read it"),
});

export const PublishEventSchema = z.object({ noTickets: checkbox });

export const COVER_ACCEPT = "image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif";
const COVER_UPLOAD_MAX_BYTES = 15 * 1024 * 1024;

/** The cover form: a new image (optional once the event has one) and its description. */
export function coverSchema(options: { hasCover: boolean }) {
  return z
    .object({
      cover: z
        .file({ error: "Choose an image" })
        .max(COVER_UPLOAD_MAX_BYTES, "Choose an image of at most 15 MB")
        .optional()
        // An empty file input sends a nameless, empty file.
        .transform((file) => (file && file.size > 0 ? file : undefined)),
      coverAlt: line(LIMITS.coverAlt, "Describe the image for people who cannot see it"),
    })
    .superRefine((value, ctx) => {
      if (!value.cover && !options.hasCover)
        ctx.addIssue({ code: "custom", path: ["cover"], message: "Choose an image" });
    });
}

/** The events list's address: `?show=…&q=…&page=…`. Nonsense falls back to the defaults. */
export const EVENT_FILTERS = {
  upcoming: "Upcoming",
  draft: "Drafts",
  past: "Past",
  cancelled: "Cancelled",
} as const;
export type EventFilter = keyof typeof EVENT_FILTERS;

export const EventsQuerySchema = z.object({ show: listView(EVENT_FILTERS, "upcoming"), q: listSearch, page: listPage });

export const EventIdSchema = z.uuid();
