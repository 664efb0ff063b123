import { sql } from "drizzle-orm";
import { type AnyPgColumn, bigint, check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { orders } from "./commerce";

/**
 * What a line of a member's account credit records (docs/credit.md): credit given by a refund
 * to credit, credit spent on an order, spent credit given back (the order was cancelled, expired
 * unpaid or refunded), credit that ran out, or a correction by staff.
 */
export const CREDIT_ENTRY_KINDS = ["refund", "spend", "spend_returned", "expiry", "adjustment"] as const;
export type CreditEntryKind = (typeof CREDIT_ENTRY_KINDS)[number];

/**
 * A member's account credit, as a ledger: lines are only ever added, and the balance is their
 * sum. A positive line is a grant, which may run out at `expires_at` (null: never); a negative
 * line (a spend, an expiry, a negative adjustment) draws on exactly one grant, named by
 * `grant_id`, so what is left of each grant, and what runs out when, follows from the lines
 * alone. Spending takes a lock of the member's (`pg_advisory_xact_lock`, credit.server.ts), so two
 * checkouts at once never spend the same credit.
 */
export const creditEntries = pgTable(
  "credit_entries",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    /** The order lines were written in, for lines written at the same moment. */
    position: bigint("position", { mode: "number" }).notNull().generatedAlwaysAsIdentity({ startWith: 1 }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** In pence: positive for a grant, negative for a spend, an expiry or a deduction. */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    kind: text("kind", { enum: CREDIT_ENTRY_KINDS }).notNull(),
    /** The order the credit came from (a refund) or went to (a spend, a spend given back). */
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    /** Grants only: when what is left of it runs out; null for credit that never does. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** Negative lines only: the grant this line draws on. */
    grantId: uuid("grant_id").references((): AnyPgColumn => creditEntries.id, { onDelete: "restrict" }),
    reason: text("reason").notNull(),
    /** The staff member who gave or took the credit; null when the member or a job did. */
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("credit_entries_user_idx").on(table.userId, table.createdAt, table.position),
    index("credit_entries_order_idx").on(table.orderId).where(sql`${table.orderId} is not null`),
    index("credit_entries_grant_idx").on(table.grantId).where(sql`${table.grantId} is not null`),
    // The expiry job's read: grants that run out.
    index("credit_entries_expiry_idx").on(table.expiresAt).where(sql`${table.expiresAt} is not null`),
    check("credit_entries_amount_non_zero", sql`${table.amount} <> 0`),
    check(
      "credit_entries_sign",
      sql`(${table.kind} in ('refund', 'spend_returned') and ${table.amount} > 0) or (${table.kind} in ('spend', 'expiry') and ${table.amount} < 0) or ${table.kind} = 'adjustment'`,
    ),
    check("credit_entries_draws_on_a_grant", sql`(${table.amount} < 0) = (${table.grantId} is not null)`),
    check("credit_entries_expiry_on_grants", sql`${table.expiresAt} is null or ${table.amount} > 0`),
  ],
);
