import { pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { orders } from "./commerce";
import { outboundMessages } from "./site";

/** The emails an order triggers that must go out exactly once. */
export const ORDER_EMAIL_KINDS = ["confirmation"] as const;
export type OrderEmailKind = (typeof ORDER_EMAIL_KINDS)[number];

/**
 * One row per email an order has had (docs/payments.md: a repeated notification never emails
 * twice). The row is inserted in the same transaction that records the message, and its primary
 * key makes a second sender wait for the first and then find the email already sent, so a
 * replayed settlement or a job run twice can never send a second copy.
 */
export const orderEmails = pgTable(
  "order_emails",
  {
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ORDER_EMAIL_KINDS }).notNull(),
    messageId: uuid("message_id").references(() => outboundMessages.id, { onDelete: "set null" }),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.orderId, table.kind] })],
);
