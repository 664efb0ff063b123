import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { orderItems, orders } from "./commerce";
import { draws, ENTRY_SOURCES, ENTRY_STATUSES } from "./draws";

/**
 * An entry: one number in one draw. Numbers are unique per draw (the unique index is the last
 * line of defence; allocation picks from the numbers left under the draw's lock). `eligible` is
 * fixed when the entry is made: a wrong answer is accepted but never goes into the draw.
 * Postal entries keep the name and address from the envelope.
 */
export const drawEntries = pgTable(
  "draw_entries",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    drawId: uuid("draw_id")
      .notNull()
      .references(() => draws.id, { onDelete: "restrict" }),
    number: integer("number").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    source: text("source", { enum: ENTRY_SOURCES }).notNull(),
    answer: integer("answer").notNull(),
    eligible: boolean("eligible").notNull(),
    status: text("status", { enum: ENTRY_STATUSES }).notNull().default("valid"),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    orderItemId: uuid("order_item_id").references(() => orderItems.id, { onDelete: "set null" }),
    postalName: text("postal_name"),
    postalAddress: text("postal_address"),
    receivedAt: timestamp("received_at", { withTimezone: true }),
    recordedBy: text("recorded_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    voidedAt: timestamp("voided_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("draw_entries_number_key").on(table.drawId, table.number),
    index("draw_entries_member_idx").on(table.drawId, table.userId),
    index("draw_entries_user_idx").on(table.userId, table.createdAt),
    index("draw_entries_order_item_idx").on(table.orderItemId),
    check("draw_entries_number_positive", sql`${table.number} > 0`),
  ],
);
