import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/** How a tier's periods run: every member's year from the same day, or from the day each joined. */
export const MEMBERSHIP_PERIODS = ["season", "rolling"] as const;
export type MembershipPeriodKind = (typeof MEMBERSHIP_PERIODS)[number];

/** The most people one membership can name (a family tier). */
export const MAX_MEMBERSHIP_PEOPLE = 8;

/**
 * A membership tier the club sells (docs/membership.md): its price, what it gives, and the terms
 * its periods run by. A season tier starts every member's year on `season_start_month`/`_day`
 * and may charge less from a late-join day on (a set price, or pro rata when `late_join_price` is
 * null); a rolling tier runs `rolling_months` from the day each member joined. The dates are
 * reckoned in `time_zone`, the club's when the tier was saved. `capacity` caps the members
 * holding it at once (null: no cap); the cap is checked under the tier row's lock, in checkout
 * and settlement alike, like a ticket type's places.
 */
export const membershipTiers = pgTable(
  "membership_tiers",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    /** One line under the name. */
    summary: text("summary").notNull().default(""),
    /** What membership gives, one benefit a line. */
    benefits: text("benefits").notNull().default(""),
    /** Pence for one period. */
    price: integer("price").notNull(),
    period: text("period", { enum: MEMBERSHIP_PERIODS }).notNull(),
    rollingMonths: integer("rolling_months"),
    seasonStartMonth: integer("season_start_month"),
    seasonStartDay: integer("season_start_day"),
    lateJoinMonth: integer("late_join_month"),
    lateJoinDay: integer("late_join_day"),
    /** Pence for joining from the late-join day on; null with a late-join day: the months left, pro rata. */
    lateJoinPrice: integer("late_join_price"),
    timeZone: text("time_zone").notNull(),
    /** How many people one membership names: 1, or more for a family tier. */
    people: integer("people").notNull().default(1),
    capacity: integer("capacity"),
    /** Whether memberships of this tier renew by themselves, charging the saved card, until turned off. */
    autoRenews: boolean("auto_renews").notNull().default(true),
    /** Whether the member card admits to members' events. */
    admitsToMembersEvents: boolean("admits_to_members_events").notNull().default(true),
    onSale: boolean("on_sale").notNull().default(false),
    position: integer("position").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("membership_tiers_slug_key").on(table.slug),
    index("membership_tiers_listing_idx").on(table.onSale, table.position),
    check("membership_tiers_price_non_negative", sql`${table.price} >= 0`),
    check(
      "membership_tiers_period_terms",
      sql`(${table.period} = 'rolling') = (${table.rollingMonths} is not null and ${table.seasonStartMonth} is null) and (${table.period} = 'season') = (${table.seasonStartMonth} is not null and ${table.seasonStartDay} is not null)`,
    ),
    check(
      "membership_tiers_rolling_months",
      sql`${table.rollingMonths} is null or ${table.rollingMonths} between 1 and 24`,
    ),
    check(
      "membership_tiers_late_join",
      sql`(${table.lateJoinMonth} is null) = (${table.lateJoinDay} is null) and (${table.lateJoinPrice} is null or ${table.lateJoinMonth} is not null)`,
    ),
    check("membership_tiers_people", sql`${table.people} between 1 and ${sql.raw(String(MAX_MEMBERSHIP_PEOPLE))}`),
    check("membership_tiers_capacity", sql`${table.capacity} is null or ${table.capacity} >= 0`),
  ],
);
