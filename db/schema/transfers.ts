import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { orders, tickets } from "./commerce";
import { events, ticketTypes } from "./events";

/**
 * Where a ticket sent to someone else stands: `pending` until the recipient accepts by the link
 * in their email (`accepted`), the sender takes it back (`cancelled`), or the event's transfers
 * close first (`lapsed`).
 */
export const TRANSFER_STATUSES = ["pending", "accepted", "cancelled", "lapsed"] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/**
 * A ticket sent by its holder to an email address (docs/transfers.md). The link's token is stored
 * only as its SHA-256 (`tokenHash`), like a password-reset link. On acceptance the sender's ticket
 * becomes `transferred` and a new ticket with a new code (`newTicketId`) is made for the recipient.
 */
export const ticketTransfers = pgTable(
  "ticket_transfers",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    ticketId: uuid("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    fromUserId: text("from_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    toEmail: text("to_email").notNull(),
    toName: text("to_name").notNull(),
    tokenHash: text("token_hash").notNull(),
    status: text("status", { enum: TRANSFER_STATUSES }).notNull().default("pending"),
    toUserId: text("to_user_id").references(() => users.id, { onDelete: "set null" }),
    newTicketId: uuid("new_ticket_id").references(() => tickets.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("ticket_transfers_token_key").on(table.tokenHash),
    // One transfer at a time per ticket.
    uniqueIndex("ticket_transfers_pending_key").on(table.ticketId).where(sql`${table.status} = 'pending'`),
    index("ticket_transfers_from_idx").on(table.fromUserId, table.status),
  ],
);

/**
 * Where a ticket handed back stands: `listed` back on sale, to the waiting list first, while it
 * stays its holder's and valid; `sold` someone bought the place, so the holder's ticket was
 * refunded; `withdrawn` the holder took it back (or its event's resale closed).
 */
export const HAND_BACK_STATUSES = ["listed", "sold", "withdrawn"] as const;
export type HandBackStatus = (typeof HAND_BACK_STATUSES)[number];

/**
 * A ticket its holder cannot use, put back on sale at face value (docs/transfers.md). While
 * listed, the stock reads count its place as free; when a buyer's order settles past the type's
 * capacity, the oldest listed hand-backs are refunded to their holders, less `fee`.
 */
export const ticketHandBacks = pgTable(
  "ticket_hand_backs",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    ticketId: uuid("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    ticketTypeId: uuid("ticket_type_id")
      .notNull()
      .references(() => ticketTypes.id, { onDelete: "cascade" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    status: text("status", { enum: HAND_BACK_STATUSES }).notNull().default("listed"),
    fee: integer("fee").notNull().default(0),
    /** The order that bought the place, once sold. */
    soldToOrderId: uuid("sold_to_order_id").references(() => orders.id, { onDelete: "set null" }),
    /** What the holder was refunded when it was resold (what they paid, less the fee). */
    refunded: integer("refunded"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("ticket_hand_backs_listed_key").on(table.ticketId).where(sql`${table.status} = 'listed'`),
    index("ticket_hand_backs_type_idx").on(table.ticketTypeId, table.createdAt).where(sql`${table.status} = 'listed'`),
    check("ticket_hand_backs_fee_non_negative", sql`${table.fee} >= 0`),
  ],
);

/**
 * A booking moved by staff to another ticket type, of the same event or another date
 * (docs/transfers.md "Moves"). The moved tickets' value is refunded to the buyer's account credit
 * and spent at once on a new order for the new tickets (`toOrderId`): the credit ledger carries
 * the money across, so a later refund of either order gives back what it was paid. When the new
 * tickets cost more and the difference is not waived, the new order waits for the buyer's
 * payment with its places held; checkout never replaces it with the buyer's next cart.
 */
export const bookingMoves = pgTable(
  "booking_moves",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    fromOrderId: uuid("from_order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    toOrderId: uuid("to_order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    fromTicketTypeId: uuid("from_ticket_type_id")
      .notNull()
      .references(() => ticketTypes.id, { onDelete: "cascade" }),
    toTicketTypeId: uuid("to_ticket_type_id")
      .notNull()
      .references(() => ticketTypes.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    /** What the moved tickets were worth, and what the new ones cost, in pence. */
    movedValue: integer("moved_value").notNull(),
    newValue: integer("new_value").notNull(),
    /** The extra the new tickets cost that staff chose not to charge. */
    waived: integer("waived").notNull().default(0),
    reason: text("reason").notNull(),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex("booking_moves_to_order_key").on(table.toOrderId),
    index("booking_moves_from_order_idx").on(table.fromOrderId),
    check(
      "booking_moves_amounts",
      sql`${table.quantity} > 0 and ${table.movedValue} >= 0 and ${table.newValue} >= 0 and ${table.waived} >= 0`,
    ),
  ],
);
