import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import type { ItemKind } from "./item-kinds";

/**
 * What a voucher does to each item it applies to: takes an amount off its price, takes a
 * percentage off, or sets the price it is sold at.
 */
export const VOUCHER_EFFECTS = ["amount_off", "percent_off", "set_price"] as const;
export type VoucherEffect = (typeof VOUCHER_EFFECTS)[number];

/** The longest code staff may choose; generated codes are shorter. */
export const VOUCHER_CODE_MAX = 32;

/**
 * A voucher or discount code (docs/membership.md, "Vouchers"). `code` is stored in capitals and
 * matched without regard to case. What it applies to is every item when all the target lists are
 * empty, otherwise any item in one of them: a whole kind, an event's tickets, one ticket type, a
 * product's variants, a tier, a draw's entries. One use is one item (a ticket, an entry bundle, a
 * tee, a membership); uses are counted from `voucher_uses` under the voucher's row lock, never
 * kept in a counter. A voucher that `holds_places` keeps its unused uses' places of its one
 * ticket type (or variant) from the public sale until it ends; any voucher lets hidden ticket types among its
 * targets be bought.
 */
export const vouchers = pgTable(
  "vouchers",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    code: text("code").notNull(),
    /** Codes generated together share a batch, listed and exported as one. */
    batchId: uuid("batch_id"),
    /** Staff's own name for it ("Crew", "Spring joining offer"); never shown to buyers. */
    label: text("label").notNull().default(""),
    effect: text("effect", { enum: VOUCHER_EFFECTS }).notNull(),
    /** Pence off or the price set; a whole percentage for `percent_off`. */
    value: integer("value").notNull(),
    kinds: text("kinds").array().$type<ItemKind[]>().notNull().default(sql`'{}'::text[]`),
    eventIds: uuid("event_ids").array().notNull().default(sql`'{}'::uuid[]`),
    ticketTypeIds: uuid("ticket_type_ids").array().notNull().default(sql`'{}'::uuid[]`),
    productIds: uuid("product_ids").array().notNull().default(sql`'{}'::uuid[]`),
    /** Single variants of a product: only waiting-list offers name these. */
    variantIds: uuid("variant_ids").array().notNull().default(sql`'{}'::uuid[]`),
    tierIds: uuid("tier_ids").array().notNull().default(sql`'{}'::uuid[]`),
    drawIds: uuid("draw_ids").array().notNull().default(sql`'{}'::uuid[]`),
    /** Items in all; null: no limit. */
    maxUses: integer("max_uses"),
    /** Items per member; null: no limit. */
    maxUsesPerMember: integer("max_uses_per_member"),
    validFrom: timestamp("valid_from", { withTimezone: true }),
    validUntil: timestamp("valid_until", { withTimezone: true }),
    /** Pence the basket must come to, before any discount, for the code to apply. */
    minBasket: integer("min_basket"),
    holdsPlaces: boolean("holds_places").notNull().default(false),
    /**
     * A code for one member alone: a waiting-list offer, which nobody else may use. Such codes are
     * made by the waiting lists, not listed with staff's own.
     */
    forUserId: text("for_user_id").references(() => users.id, { onDelete: "cascade" }),
    /** Staff can switch a code off without losing its history. */
    active: boolean("active").notNull().default(true),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("vouchers_code_key").on(table.code),
    index("vouchers_batch_idx").on(table.batchId),
    index("vouchers_holding_idx").on(table.holdsPlaces).where(sql`${table.holdsPlaces}`),
    check(
      "vouchers_code_capitals",
      sql`${table.code} = upper(${table.code}) and length(${table.code}) between 3 and 32`,
    ),
    check(
      "vouchers_value_range",
      sql`${table.value} >= 0 and (${table.effect} <> 'percent_off' or ${table.value} between 1 and 100)`,
    ),
    check(
      "vouchers_limits_positive",
      sql`coalesce(${table.maxUses}, 1) > 0 and coalesce(${table.maxUsesPerMember}, 1) > 0`,
    ),
    check("vouchers_min_basket_non_negative", sql`coalesce(${table.minBasket}, 0) >= 0`),
    check(
      "vouchers_valid_window",
      sql`${table.validFrom} is null or ${table.validUntil} is null or ${table.validFrom} < ${table.validUntil}`,
    ),
    check(
      "vouchers_holds_one_ticket_type",
      sql`not ${table.holdsPlaces} or (${table.maxUses} is not null and cardinality(${table.ticketTypeIds}) + cardinality(${table.variantIds}) = 1)`,
    ),
  ],
);
