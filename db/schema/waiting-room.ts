import { sql } from "drizzle-orm";
import { bigint, bigserial, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { events } from "./events";

/**
 * A place in an event's waiting room (docs/waiting-room.md, ADR 0016). Nothing here stores a
 * position: every server derives the same order from these rows. Those who joined before sales
 * opened come first, in the order of `draw` (a random number drawn when they joined); later
 * arrivals follow in `seq` order. A place belongs to an account from the moment it is taken,
 * so an admitted place cannot be handed to someone else.
 */
export const waitingRoomEntries = pgTable(
  "waiting_room_entries",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    /** Unused since places need an account; kept until no running server still writes it. */
    tokenHash: text("token_hash"),
    /** The account the place belongs to; a place is only ever taken by a signed-in member. */
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** A keyed hash of the network the place was taken from, to cap places per network. */
    networkHash: text("network_hash"),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull(),
    /** Uniform random 48-bit number: the order among those who were there when sales opened. */
    draw: bigint("draw", { mode: "number" }).notNull(),
    /** Arrival order, for those who came after opening (and to break a tie between draws). */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    /** When the place's turn was recorded; set once, so nobody is let through twice. */
    admittedAt: timestamp("admitted_at", { withTimezone: true }),
    /** The end of the turn: tickets may be added and paid for until then. */
    admissionEndsAt: timestamp("admission_ends_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("waiting_room_entries_user_key")
      .on(table.eventId, table.userId)
      .where(sql`${table.userId} is not null`),
    index("waiting_room_entries_network_idx").on(table.eventId, table.networkHash),
    index("waiting_room_entries_order_idx").on(table.eventId, table.joinedAt, table.draw, table.seq),
    check(
      "waiting_room_entries_admission_whole",
      sql`(${table.admittedAt} is null) = (${table.admissionEndsAt} is null)`,
    ),
  ],
);
