import { asc, eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { orderItems, orders, tickets, ticketTypes, transactions } from "../../../db/schema";

/**
 * The columns every reading of an order shares: the buyer's pages and emails, the staff order
 * page and the member's data file. Each adds its own (ids, joins, times) around these, so a
 * column added to an order line, a ticket or a payment is added once.
 */

/** An order as its buyer knows it: its number, its state, and what it came to. */
export const orderSummaryColumns = {
  id: orders.id,
  number: orders.number,
  status: orders.status,
  email: orders.email,
  currency: orders.currency,
  subtotal: orders.subtotal,
  shipping: orders.shipping,
  discount: orders.discount,
  voucherCode: orders.voucherCode,
  /** Account credit the order spent; `total` is what was left to pay. */
  credit: orders.credit,
  total: orders.total,
};

/** How an order's merch travels: the way chosen, the address, where it stands, and the parcel. */
export const deliveryColumns = {
  shippingMethod: orders.shippingMethod,
  shippingAddress: orders.shippingAddress,
  fulfilmentStatus: orders.fulfilmentStatus,
  carrier: orders.carrier,
  trackingNumber: orders.trackingNumber,
};

/** What a line sold: its words, its price, how many were bought and how many went back. */
export const orderLineColumns = {
  description: orderItems.description,
  unitPrice: orderItems.unitPrice,
  quantity: orderItems.quantity,
  refundedQuantity: orderItems.refundedQuantity,
};

/** A ticket and who it is for; the select must join `ticketTypes` on the ticket's type. */
export const ticketColumns = {
  ticketType: ticketTypes.name,
  attendeeName: tickets.attendeeName,
  status: tickets.status,
  code: tickets.code,
  checkedInAt: tickets.checkedInAt,
};

/** A charge or refund on an order; its times are named by each reader (the data file says `at`). */
export const paymentColumns = {
  kind: transactions.kind,
  status: transactions.status,
  amount: transactions.amount,
  currency: transactions.currency,
  reason: transactions.reason,
};

/** An order's charges and refunds, oldest first, as the buyer's and the staff's order pages list them. */
export function orderPayments(db: Db, orderId: string) {
  return db
    .select({
      id: transactions.id,
      ...paymentColumns,
      createdAt: transactions.createdAt,
      completedAt: transactions.completedAt,
    })
    .from(transactions)
    .where(eq(transactions.orderId, orderId))
    .orderBy(asc(transactions.createdAt));
}
