import { sql } from "drizzle-orm";
import { check, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { draws } from "./draws";
import { outboundMessages } from "./site";

/** A limit change that waits before it applies: raising or removing a limit is never immediate. */
export type PendingSpendLimits = { weekly: number | null; monthly: number | null; from: string };

/**
 * A member's responsible-play settings for paid prize draws (docs/responsible-play.md). Limits
 * are in minor units over the last 7 and 30 days; `null` is no limit and 0 stops paid entries.
 * Lowering a limit applies at once; raising or removing one waits in `pending_limits`. A cool-off
 * or a self-exclusion blocks every entry until its end and can never be shortened.
 */
export const playSettings = pgTable(
  "play_settings",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    weeklyLimit: integer("weekly_limit"),
    monthlyLimit: integer("monthly_limit"),
    pendingLimits: jsonb("pending_limits").$type<PendingSpendLimits>(),
    coolOffUntil: timestamp("cool_off_until", { withTimezone: true }),
    excludedUntil: timestamp("excluded_until", { withTimezone: true }),
    /** When the member was asked about limits (during onboarding), whatever they chose. */
    limitsOfferedAt: timestamp("limits_offered_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "play_settings_limits_non_negative",
      sql`coalesce(${table.weeklyLimit}, 0) >= 0 and coalesce(${table.monthlyLimit}, 0) >= 0`,
    ),
  ],
);

/**
 * The result emails a draw sends: one row per entrant, so each goes out once. A sender first
 * claims the row (`claimed_at`, no `sent_at`), then sends, then records the message and `sent_at`
 * in one statement; a failed send deletes the claim, and a claim never recorded lapses and can be
 * taken over. Rows written before claims existed have `sent_at` and no `claimed_at`.
 */
export const drawResultEmails = pgTable(
  "draw_result_emails",
  {
    drawId: uuid("draw_id")
      .notNull()
      .references(() => draws.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    messageId: uuid("message_id").references(() => outboundMessages.id, { onDelete: "set null" }),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    /** When the email went out (its message, if any, is `message_id`); null while only claimed. */
    sentAt: timestamp("sent_at", { withTimezone: true }).defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.drawId, table.userId] })],
);
