import { sql } from "drizzle-orm";
import { check, index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { events } from "./events";

/** What a scan decided: on the device when it was made offline, and again on the server. */
export const GATE_DECISIONS = ["admitted", "already", "refused"] as const;
export type GateDecision = (typeof GATE_DECISIONS)[number];

/** Which way a scan lets someone through: in, or out at an event with re-entry. */
export const GATE_DIRECTIONS = ["in", "out"] as const;
export type GateDirection = (typeof GATE_DIRECTIONS)[number];

/**
 * A scan made at the gate while the device was offline, sent when it was back online
 * (docs/gate.md). `id` is the device's own id for the scan, so sending the same outbox again
 * records nothing twice. `local` is what the device told the steward, `outcome` what the server
 * made of it at `scanned_at`; `conflict` says, for a supervisor, when the two disagree in a way
 * that matters (someone admitted twice, or admitted on a ticket refunded meanwhile). `code_hash`
 * is the hash the admission list carries (null for a code that could not be read), so scans of
 * one ticket, card or pass are found together; the code itself is not kept.
 */
export const gateScans = pgTable(
  "gate_scans",
  {
    id: uuid("id").primaryKey(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    staffId: text("staff_id").references(() => users.id, { onDelete: "set null" }),
    gate: text("gate").notNull(),
    codeHash: text("code_hash"),
    scannedAt: timestamp("scanned_at", { withTimezone: true }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
    /** An entry, or (at an event with re-entry) an exit. */
    direction: text("direction", { enum: GATE_DIRECTIONS }).notNull().default("in"),
    local: text("local", { enum: GATE_DECISIONS }).notNull(),
    outcome: text("outcome", { enum: GATE_DECISIONS }).notNull(),
    headline: text("headline").notNull(),
    conflict: text("conflict"),
  },
  (table) => [
    index("gate_scans_event_idx").on(table.eventId, table.scannedAt),
    index("gate_scans_code_idx").on(table.eventId, table.codeHash),
    index("gate_scans_conflict_idx").on(table.eventId).where(sql`${table.conflict} is not null`),
    check("gate_scans_gate_length", sql`length(${table.gate}) between 1 and 40`),
  ],
);

/** What a member does at an event's gate: scan only, or also search, let in by hand and see conflicts. */
export const GATE_ROLES = ["steward", "supervisor"] as const;
export type GateRole = (typeof GATE_ROLES)[number];

/**
 * Members an organizer has put on an event's gate (docs/gate.md). Organizers and admins need no
 * row: they supervise every gate. A row gives a member who is not staff the event's gate page and
 * nothing else of the dashboard.
 */
export const gateStaff = pgTable(
  "gate_staff",
  {
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: GATE_ROLES }).notNull(),
    addedBy: text("added_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.eventId, table.userId] }), index("gate_staff_user_idx").on(table.userId)],
);
