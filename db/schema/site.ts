import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** Editable content pages such as the privacy notice and the terms. */
export const sitePages = pgTable("site_pages", {
  slug: text("slug").primaryKey(),
  title: text("title").notNull(),
  body: text("body").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Demo-content seeders that have run on this database, so each runs once. */
export const seedRuns = pgTable("seed_runs", {
  name: text("name").primaryKey(),
  appliedAt: timestamp("applied_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every outgoing email and SMS. With no provider configured this table is the local mailbox
 * (`/dev/mailbox`); with one, it is a delivery log.
 */
export const outboundMessages = pgTable(
  "outbound_messages",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    channel: text("channel", { enum: ["email", "sms"] }).notNull(),
    to: text("to").notNull(),
    subject: text("subject"),
    // Kept only while the local mailbox is the delivery: a provider's copy is the one that counts.
    text: text("text"),
    html: text("html"),
    transport: text("transport", { enum: ["mailbox", "smtp", "twilio"] }).notNull(),
    providerId: text("provider_id"),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("outbound_messages_sent_at_idx").on(table.sentAt)],
);
