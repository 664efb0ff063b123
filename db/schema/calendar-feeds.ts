import { pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./accounts";

/**
 * A member's personal calendar feed (docs/calendar.md): the secret address a calendar app
 * subscribes to, one per member. The address's token is never stored: it is worked out from
 * `nonce` with the site's secret when the member looks at their settings, and found again by its
 * SHA-256 (`token_hash`). Resetting the link draws a new nonce, so the old address stops at once.
 */
export const calendarFeeds = pgTable(
  "calendar_feeds",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    /** 16 random bytes as hex; a new one on every reset. */
    nonce: text("nonce").notNull(),
    /** SHA-256 of the token in the address, as hex. */
    tokenHash: text("token_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("calendar_feeds_token_hash_key").on(table.tokenHash)],
);
