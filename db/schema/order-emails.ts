import { pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { orders } from "./commerce";
import { outboundMessages } from "./site";

/** The emails an order triggers that must go out exactly once. */
export const ORDER_EMAIL_KINDS = ["confirmation", "payment_refused"] as const;
export type OrderEmailKind = (typeof ORDER_EMAIL_KINDS)[number];

/**
 * One row per email an order has had (docs/payments.md: a repeated notification never emails
 * twice). A sender first claims the row (`claimed_at`, no `sent_at`), then sends, then records
 * the message and `sent_at` in one statement; a failed send deletes the claim, so the retry sends.
 * The primary key makes every other sender find the claim and send nothing. A claim that was
 * never recorded (its server stopped mid-send) lapses and can be taken over. Rows written before
 * claims existed have `sent_at` and no `claimed_at`.
 */
export const orderEmails = pgTable(
  "order_emails",
  {
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ORDER_EMAIL_KINDS }).notNull(),
    messageId: uuid("message_id").references(() => outboundMessages.id, { onDelete: "set null" }),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    /** When the email went out (its message, if any, is `message_id`); null while only claimed. */
    sentAt: timestamp("sent_at", { withTimezone: true }).defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.orderId, table.kind] })],
);
