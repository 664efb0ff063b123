import { sql } from "drizzle-orm";
import {
  boolean,
  check,
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

export const DRAW_KINDS = ["competition", "giveaway"] as const;
export type DrawKind = (typeof DRAW_KINDS)[number];

/** draft → live → closed → drawn; cancelled from draft, live or closed (paid entries refunded). */
export const DRAW_STATUSES = ["draft", "live", "closed", "drawn", "cancelled"] as const;
export type DrawStatus = (typeof DRAW_STATUSES)[number];

/**
 * What happens when a draw closes with fewer entries than `min_entries`, chosen before it opens
 * and shown before anyone pays: closing once more `extend_days` later, drawing with the cash
 * alternative as the prize, or cancelling and refunding every paid entry.
 */
export const UNDERSOLD_POLICIES = ["extend", "cash", "refund"] as const;
export type UndersoldPolicy = (typeof UNDERSOLD_POLICIES)[number];

export const ENTRY_SOURCES = ["paid", "postal", "free"] as const;
export type EntrySource = (typeof ENTRY_SOURCES)[number];

/** An entry is void once refunded or cancelled; void entries never go into the draw. */
export const ENTRY_STATUSES = ["valid", "void"] as const;

/**
 * Entry bundles: `entries` for `price` minor units ("5 for £8"), and what members (a membership
 * with its benefits) pay for it when it differs (absent: the same as everyone), and what members
 * of a tier pay, by tier id, over that (absent: the member price).
 */
export type DrawBundle = { entries: number; price: number; memberPrice?: number; tierPrices?: Record<string, number> };

/** An instant win: the entry allocated `number` wins `prize` on the spot. */
export type InstantWin = { number: number; prize: string };

/** What the winner of a draw with a cash alternative chose. */
export const PRIZE_CHOICES = ["prize", "cash"] as const;
export type PrizeChoice = (typeof PRIZE_CHOICES)[number];

/** A stored prize photo: the content hash of its renditions (cover pipeline), colour and text. */
export type DrawImage = { hash: string; color: string; alt: string };

/**
 * A prize draw: a paid competition or a free giveaway (docs/draws.md). `allocated` counts valid
 * entries; it changes only in transactions that hold this row's lock, and the check keeps it
 * within `total_entries` whatever happens. The seed stays secret until the draw is drawn; only
 * its SHA-256 (`commitment`) is shown before. `answer` is the skill question's right option,
 * never sent to a browser before close.
 */
export const draws = pgTable(
  "draws",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    kind: text("kind", { enum: DRAW_KINDS }).notNull(),
    status: text("status", { enum: DRAW_STATUSES }).notNull().default("draft"),
    summary: text("summary").notNull().default(""),
    /** Markdown, rendered with raw HTML escaped. */
    description: text("description").notNull().default(""),
    prize: text("prize").notNull(),
    prizeValue: integer("prize_value").notNull(),
    cashAlternative: integer("cash_alternative"),
    /** Markdown: the terms of this draw, beside the site's general terms. */
    rules: text("rules").notNull().default(""),
    images: jsonb("images").$type<DrawImage[]>().notNull().default([]),
    /** Price of one entry in minor units; 0 for a giveaway. */
    price: integer("price").notNull().default(0),
    bundles: jsonb("bundles").$type<DrawBundle[]>().notNull().default([]),
    totalEntries: integer("total_entries").notNull(),
    maxPerMember: integer("max_per_member").notNull(),
    /** Below this many entries at close, the undersold policy applies. */
    minEntries: integer("min_entries").notNull().default(1),
    undersoldPolicy: text("undersold_policy", { enum: UNDERSOLD_POLICIES }).notNull().default("cash"),
    extendDays: integer("extend_days").notNull().default(7),
    extended: boolean("extended").notNull().default(false),
    /** Set when the undersold policy made the cash alternative the prize. */
    cashPrize: boolean("cash_prize").notNull().default(false),
    opensAt: timestamp("opens_at", { withTimezone: true }).notNull(),
    closesAt: timestamp("closes_at", { withTimezone: true }).notNull(),
    question: text("question").notNull(),
    options: text("options").array().notNull(),
    /** Index into `options` of the right answer. */
    answer: integer("answer").notNull(),
    /** Members may choose their entry numbers (the rest are chosen at random). */
    allowPicks: boolean("allow_picks").notNull().default(false),
    /** Where free postal entries go, and what they must contain. */
    postalRoute: text("postal_route").notNull().default(""),
    /** The public value named before opening, only known after close (a drand round, a lottery draw). */
    beaconSource: text("beacon_source").notNull(),
    beaconValue: text("beacon_value"),
    /** SHA-256 of the seed, published at go-live. */
    commitment: text("commitment"),
    /** 32 random bytes as hex: secret until drawn, then shown beside the commitment. */
    seed: text("seed"),
    /** SHA-256 of the canonical list of eligible entry numbers, frozen at close. */
    listHash: text("list_hash"),
    eligibleCount: integer("eligible_count"),
    allocated: integer("allocated").notNull().default(0),
    winnerNumber: integer("winner_number"),
    /**
     * Instant wins, secret until close: at go-live only `instant_commitment` (SHA-256 of the
     * canonical list followed by `instant_salt`) is published; after close both are shown.
     */
    instantWins: jsonb("instant_wins").$type<InstantWin[]>().notNull().default([]),
    instantSalt: text("instant_salt"),
    instantCommitment: text("instant_commitment"),
    /** The winner's claim: the prize itself or its cash alternative. */
    prizeChoice: text("prize_choice", { enum: PRIZE_CHOICES }),
    prizeChosenAt: timestamp("prize_chosen_at", { withTimezone: true }),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    drawnAt: timestamp("drawn_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    cancelReason: text("cancel_reason"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("draws_slug_key").on(table.slug),
    index("draws_listing_idx").on(table.status, table.closesAt),
    check("draws_total_entries_positive", sql`${table.totalEntries} > 0`),
    check("draws_max_per_member_positive", sql`${table.maxPerMember} > 0`),
    check("draws_allocated_within_total", sql`${table.allocated} >= 0 and ${table.allocated} <= ${table.totalEntries}`),
    check("draws_money_non_negative", sql`${table.price} >= 0 and ${table.prizeValue} >= 0`),
    check("draws_closes_after_opening", sql`${table.closesAt} > ${table.opensAt}`),
    check("draws_answer_is_an_option", sql`${table.answer} >= 0 and ${table.answer} < cardinality(${table.options})`),
  ],
);
