import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { events } from "./events";
import { cars } from "./garage";

/**
 * submitted → approved | waitlisted | rejected; waitlisted → approved | rejected; approved → paid
 * (a fee paid, or at once when free); submitted, waitlisted or approved → withdrawn.
 */
export const APPLICATION_STATUSES = ["submitted", "approved", "waitlisted", "rejected", "withdrawn", "paid"] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/**
 * A member's application to show a car at an event: one per car per event. Approval takes the
 * event's row lock and counts approved and paid applications against `events.application_spots`,
 * so spots are never over-approved on any number of servers. `fee` is the event's fee when
 * approved, what the cart then charges.
 */
export const showCarApplications = pgTable(
  "show_car_applications",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "restrict" }),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    carId: uuid("car_id").references(() => cars.id, { onDelete: "set null" }),
    /** The car as applied with ("1991 Mazda MX-5"), kept if the car is later deleted. */
    carLabel: text("car_label").notNull(),
    note: text("note").notNull().default(""),
    status: text("status", { enum: APPLICATION_STATUSES }).notNull().default("submitted"),
    fee: integer("fee").notNull().default(0),
    decisionNote: text("decision_note"),
    reviewedBy: text("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("show_car_applications_event_car_key").on(table.eventId, table.carId),
    index("show_car_applications_event_idx").on(table.eventId, table.status),
    index("show_car_applications_user_idx").on(table.userId, table.createdAt),
    check("show_car_applications_fee_non_negative", sql`${table.fee} >= 0`),
  ],
);
