import { type SQL, sql } from "drizzle-orm";
import {
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const EVENT_TYPES = ["meet", "show", "track_day", "cruise"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Whether a ticket may be sent to someone else: never, once (the recipient cannot pass it on), or any number of times. */
export const TRANSFER_RULES = ["off", "once", "unlimited"] as const;
export type TransferRule = (typeof TRANSFER_RULES)[number];

export const EVENT_STATUSES = ["draft", "published", "cancelled"] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/**
 * An event (docs/events.md). Times are instants (UTC); `timeZone` is the IANA zone the
 * event happens in, used to show and edit its times. Money is integer minor units.
 */
export const events = pgTable(
  "events",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    summary: text("summary").notNull().default(""),
    /** Markdown, rendered with raw HTML escaped. */
    description: text("description").notNull().default(""),
    type: text("type", { enum: EVENT_TYPES }).notNull(),
    status: text("status", { enum: EVENT_STATUSES }).notNull().default("draft"),
    /** A headline event leads the home page's hero while it is the next one. */
    headline: boolean("headline").notNull().default(false),
    /** A members' event: a valid member card whose tier admits to members' events is let in at the gate. */
    membersEvent: boolean("members_event").notNull().default(false),
    /** Ticket holders may go out and come back in: the gate scans exits too (docs/gate.md). */
    gateReentry: boolean("gate_reentry").notNull().default(false),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    timeZone: text("time_zone").notNull(),
    venue: text("venue").notNull(),
    address: text("address").notNull().default(""),
    town: text("town").notNull(),
    postcode: text("postcode").notNull().default(""),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    /** Google Places id, when the venue was picked from Places autocomplete. */
    placeId: text("place_id"),
    /** Content hash of the stored cover renditions (`events/<hash>-<width>.<avif|webp>`). */
    coverHash: text("cover_hash"),
    coverAlt: text("cover_alt").notNull().default(""),
    /** Dominant colour of the cover, shown while the image loads. */
    coverColor: text("cover_color"),
    /** Default sales window for ticket types that set none. Null start: on sale once published. */
    salesStartAt: timestamp("sales_start_at", { withTimezone: true }),
    salesEndAt: timestamp("sales_end_at", { withTimezone: true }),
    /**
     * Waiting room (docs/waiting-room.md): when on and sales have an opening time, buyers queue
     * and are let through `queueRatePerMinute` at a time, each for `queueAdmissionMinutes`.
     */
    queueEnabled: boolean("queue_enabled").notNull().default(false),
    queueRatePerMinute: integer("queue_rate_per_minute").notNull().default(50),
    queueAdmissionMinutes: integer("queue_admission_minutes").notNull().default(20),
    /**
     * Waiting lists (docs/waiting-lists.md): members may join a sold-out ticket type's list while
     * it is on and until `waitingListClosesHours` before the start; an offer holds places for
     * `waitingListOfferHours`.
     */
    waitingListEnabled: boolean("waiting_list_enabled").notNull().default(true),
    waitingListOfferHours: integer("waiting_list_offer_hours").notNull().default(24),
    waitingListClosesHours: integer("waiting_list_closes_hours").notNull().default(24),
    /**
     * Passing tickets on (docs/transfers.md): whether holders may send a ticket to someone else
     * (`off`, `once` per ticket, or `unlimited`) and hand one back for resale, until
     * `transfersCloseHours` before the start; `handBackFee` (pence) is kept from a resold ticket's refund.
     */
    transfers: text("transfers", { enum: TRANSFER_RULES }).notNull().default("unlimited"),
    transfersCloseHours: integer("transfers_close_hours").notNull().default(2),
    handBackEnabled: boolean("hand_back_enabled").notNull().default(true),
    handBackFee: integer("hand_back_fee").notNull().default(0),
    /** People admitted across every ticket type; null when only the ticket types limit it. */
    capacity: integer("capacity"),
    applicationsOpen: boolean("applications_open").notNull().default(false),
    applicationsDeadline: timestamp("applications_deadline", { withTimezone: true }),
    applicationSpots: integer("application_spots"),
    applicationFee: integer("application_fee").notNull().default(0),
    applicationCriteria: text("application_criteria").notNull().default(""),
    cancelReason: text("cancel_reason"),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** Full-text search over what a visitor would type: title, summary, venue, town, description. */
    search: tsvector("search").generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('english', coalesce(${events.title}, '')), 'A') || setweight(to_tsvector('english', coalesce(${events.venue}, '') || ' ' || coalesce(${events.town}, '')), 'B') || setweight(to_tsvector('english', coalesce(${events.summary}, '')), 'C') || setweight(to_tsvector('english', coalesce(${events.description}, '')), 'D')`,
    ),
  },
  (table) => [
    uniqueIndex("events_slug_key").on(table.slug),
    index("events_listing_idx").on(table.status, table.startsAt),
    index("events_search_idx").using("gin", table.search),
    check("events_ends_after_start", sql`${table.endsAt} >= ${table.startsAt}`),
    check("events_capacity_positive", sql`${table.capacity} is null or ${table.capacity} > 0`),
    check("events_application_fee_non_negative", sql`${table.applicationFee} >= 0`),
    check("events_queue_rate_positive", sql`${table.queueRatePerMinute} > 0`),
    check("events_queue_admission_positive", sql`${table.queueAdmissionMinutes} > 0`),
    check("events_waiting_list_offer_hours", sql`${table.waitingListOfferHours} between 2 and 336`),
    check("events_waiting_list_closes_hours", sql`${table.waitingListClosesHours} between 0 and 720`),
    check("events_transfers_close_hours", sql`${table.transfersCloseHours} between 0 and 720`),
    check("events_hand_back_fee_non_negative", sql`${table.handBackFee} >= 0`),
  ],
);

/**
 * A kind of ticket for an event. `days` lists the event's local dates (YYYY-MM-DD) the ticket
 * admits to; more than one makes it a multi-day pass, which needs an attendee name per ticket.
 * `sold` counts tickets sold and not refunded; holds while paying live with the cart.
 */
export const ticketTypes = pgTable(
  "ticket_types",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    price: integer("price").notNull(),
    /** Null: limited only by the event's capacity. */
    capacity: integer("capacity"),
    maxPerOrder: integer("max_per_order").notNull().default(10),
    days: text("days").array().notNull().default(sql`'{}'::text[]`),
    salesStartAt: timestamp("sales_start_at", { withTimezone: true }),
    salesEndAt: timestamp("sales_end_at", { withTimezone: true }),
    sortOrder: integer("sort_order").notNull().default(0),
    hidden: boolean("hidden").notNull().default(false),
    /** What members (a membership with its benefits) pay; null: the same as everyone. */
    memberPrice: integer("member_price"),
    /** What members of a tier pay, by tier id, over `memberPrice` for that tier (none: `memberPrice`). */
    tierPrices: jsonb("tier_prices").$type<Record<string, number>>().notNull().default({}),
    /** Only members may buy this type. */
    membersOnly: boolean("members_only").notNull().default(false),
    /** Members may buy from this moment, before the general sale opens (a presale). */
    memberSalesStartAt: timestamp("member_sales_start_at", { withTimezone: true }),
    sold: integer("sold").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("ticket_types_event_idx").on(table.eventId, table.sortOrder),
    check("ticket_types_price_non_negative", sql`${table.price} >= 0`),
    check("ticket_types_member_price", sql`${table.memberPrice} is null or ${table.memberPrice} >= 0`),
    check("ticket_types_capacity_positive", sql`${table.capacity} is null or ${table.capacity} > 0`),
    check("ticket_types_max_per_order_positive", sql`${table.maxPerOrder} > 0`),
    check(
      "ticket_types_sold_within_capacity",
      sql`${table.sold} >= 0 and (${table.capacity} is null or ${table.sold} <= ${table.capacity})`,
    ),
  ],
);
