import { sql } from "drizzle-orm";
import {
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { ticketTypes } from "./events";
import { productVariants } from "./shop";
import { vouchers } from "./vouchers";

/**
 * Where a place on a waiting list stands: `waiting` in line; `offered` places held for them
 * until the offer ends; `bought` they took the offer; `lapsed` the offer ended unused; `left`
 * they left the list (or staff removed them).
 */
export const WAITING_LIST_STATUSES = ["waiting", "offered", "bought", "lapsed", "left"] as const;
export type WaitingListStatus = (typeof WAITING_LIST_STATUSES)[number];

/** The hours an offer holds places, unless the organizer sets otherwise, and the least they may set. */
export const DEFAULT_OFFER_HOURS = 24;
export const MIN_OFFER_HOURS = 2;

/**
 * A member waiting for places of a sold-out ticket type, or units of a sold-out merch variant
 * (docs/waiting-lists.md): each entry is in exactly one of the two kinds of line. The line is
 * ordered by `sortKey` (the time they joined, in milliseconds, or a point between two others when
 * staff move someone up), so a move never renumbers anyone. An offer is a voucher for the member
 * alone (`offerVoucherId`) that keeps `quantity` places of the type until `offerEndsAt`: the
 * stock and checkout already count such places (or units) as taken by everyone else.
 */
export const waitingListEntries = pgTable(
  "waiting_list_entries",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    ticketTypeId: uuid("ticket_type_id").references(() => ticketTypes.id, { onDelete: "cascade" }),
    variantId: uuid("variant_id").references(() => productVariants.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    status: text("status", { enum: WAITING_LIST_STATUSES }).notNull().default("waiting"),
    sortKey: doublePrecision("sort_key").notNull(),
    offerVoucherId: uuid("offer_voucher_id").references(() => vouchers.id, { onDelete: "set null" }),
    offeredAt: timestamp("offered_at", { withTimezone: true }),
    offerEndsAt: timestamp("offer_ends_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // One place in line per member and ticket type (or variant) while they wait or hold an offer.
    uniqueIndex("waiting_list_entries_live_key")
      .on(table.ticketTypeId, table.userId)
      .where(sql`${table.status} in ('waiting', 'offered')`),
    uniqueIndex("waiting_list_entries_live_variant_key")
      .on(table.variantId, table.userId)
      .where(sql`${table.status} in ('waiting', 'offered')`),
    index("waiting_list_entries_line_idx").on(table.ticketTypeId, table.status, table.sortKey),
    index("waiting_list_entries_variant_line_idx").on(table.variantId, table.status, table.sortKey),
    check("waiting_list_entries_one_line", sql`num_nonnulls(${table.ticketTypeId}, ${table.variantId}) = 1`),
    index("waiting_list_entries_user_idx").on(table.userId),
    index("waiting_list_entries_offer_idx").on(table.offerEndsAt).where(sql`${table.status} = 'offered'`),
    check("waiting_list_entries_quantity_positive", sql`${table.quantity} > 0`),
    check(
      "waiting_list_entries_offer_complete",
      sql`${table.status} <> 'offered' or (${table.offerVoucherId} is not null and ${table.offerEndsAt} is not null)`,
    ),
  ],
);
