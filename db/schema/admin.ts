import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";

/**
 * What staff did, and to what (role changes, refunds, draws, settings), and the account's security
 * events (failed sign-ins, lockouts, two-factor changes, mailbox reads).
 * The actor is null for changes made from the command line. Entries outlive the accounts they
 * name, so a deleted actor leaves the entry with no actor rather than removing it.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id").notNull(),
    /** The address the request came from: kept for security events (sign-ins, lockouts, role changes). */
    ip: text("ip"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("audit_log_created_at_idx").on(table.createdAt),
    index("audit_log_subject_idx").on(table.subjectType, table.subjectId),
  ],
);
