import { and, asc, desc, eq, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { parseOrderNumber } from "~/features/commerce/order-number";
import { addressLines } from "~/features/shipping/address";
import type { Db } from "~/server/db/client.server";
import { containing } from "~/server/db/like";
import { pageOf } from "~/ui/paging";
import {
  events,
  type OrderStatus,
  orderHistory,
  orderItems,
  orders,
  tickets,
  ticketTypes,
  users,
} from "../../../db/schema";
import { orderLineColumns, orderPayments, ticketColumns } from "./order-columns.server";

const ORDERS_PER_PAGE = 25;

/**
 * One page of orders, newest first. `q` is an order number (PL-000123 or 123), or part of the
 * buyer's email or name.
 */
export async function listOrders(db: Db, input: { q: string; status: OrderStatus | "all"; page: number }) {
  const conditions: SQL[] = [];
  if (input.q) {
    const number = parseOrderNumber(input.q);
    const pattern = containing(input.q);
    conditions.push(
      or(
        number === null ? undefined : eq(orders.number, number),
        ilike(orders.email, pattern),
        ilike(users.name, pattern),
      )!,
    );
  }
  if (input.status !== "all") conditions.push(eq(orders.status, input.status));
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, [count]] = await Promise.all([
    db
      .select({
        id: orders.id,
        number: orders.number,
        email: orders.email,
        name: users.name,
        status: orders.status,
        total: orders.total,
        currency: orders.currency,
        createdAt: orders.createdAt,
        items: sql<number>`(select coalesce(sum(${orderItems.quantity}), 0)::int from ${orderItems} where ${orderItems.orderId} = ${orders.id})`,
      })
      .from(orders)
      .leftJoin(users, eq(users.id, orders.userId))
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.number))
      .limit(ORDERS_PER_PAGE)
      .offset((input.page - 1) * ORDERS_PER_PAGE),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(orders)
      .leftJoin(users, eq(users.id, orders.userId))
      .where(where),
  ]);
  const total = Number(count?.total ?? 0);
  return {
    orders: rows.map((row) => ({ ...row, items: Number(row.items) })),
    ...pageOf(total, input.page, ORDERS_PER_PAGE),
  };
}

/** Everything staff need to see about one order, and what can still be refunded. */
export async function getOrderDetail(db: Db, orderId: string) {
  const [order] = await db
    .select({
      id: orders.id,
      number: orders.number,
      email: orders.email,
      name: users.name,
      status: orders.status,
      currency: orders.currency,
      subtotal: orders.subtotal,
      shipping: orders.shipping,
      discount: orders.discount,
      voucherCode: orders.voucherCode,
      total: orders.total,
      credit: orders.credit,
      /** Whether the buyer's account is still there: only then can a refund go to account credit. */
      hasAccount: sql<boolean>`${orders.userId} is not null`,
      provider: orders.provider,
      createdAt: orders.createdAt,
      paidAt: orders.paidAt,
      failureReason: orders.failureReason,
      shippingMethod: orders.shippingMethod,
      shippingAddress: orders.shippingAddress,
      collectionEventTitle: events.title,
      fulfilmentStatus: orders.fulfilmentStatus,
      carrier: orders.carrier,
      trackingNumber: orders.trackingNumber,
    })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .leftJoin(events, eq(events.id, orders.collectionEventId))
    .where(eq(orders.id, orderId));
  if (!order) return null;
  const actor = alias(users, "actor");
  const checker = alias(users, "checker");
  const [items, ticketRows, money, history] = await Promise.all([
    db
      .select({
        id: orderItems.id,
        ...orderLineColumns,
        kind: orderItems.kind,
        eventId: orderItems.eventId,
        variantId: orderItems.variantId,
        eventTitle: events.title,
        eventTimeZone: events.timeZone,
      })
      .from(orderItems)
      .leftJoin(events, eq(events.id, orderItems.eventId))
      .where(eq(orderItems.orderId, orderId))
      .orderBy(asc(orderItems.createdAt), asc(orderItems.id)),
    db
      .select({
        id: tickets.id,
        orderItemId: tickets.orderItemId,
        ...ticketColumns,
        checkedInBy: checker.name,
      })
      .from(tickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
      .leftJoin(checker, eq(checker.id, tickets.checkedInBy))
      .where(eq(tickets.orderId, orderId))
      .orderBy(asc(tickets.createdAt), asc(tickets.id)),
    orderPayments(db, orderId),
    db
      .select({
        id: orderHistory.id,
        fromStatus: orderHistory.fromStatus,
        toStatus: orderHistory.toStatus,
        note: orderHistory.note,
        actor: actor.name,
        createdAt: orderHistory.createdAt,
      })
      .from(orderHistory)
      .leftJoin(actor, eq(actor.id, orderHistory.actorId))
      .where(eq(orderHistory.orderId, orderId))
      .orderBy(asc(orderHistory.createdAt), asc(orderHistory.id)),
  ]);
  return {
    order,
    items: items.map((item) => ({
      ...item,
      // Merch can be refunded unit by unit, posted or not (it comes back); tickets while unused.
      refundable: item.variantId
        ? item.quantity - item.refundedQuantity
        : ticketRows.filter((ticket) => ticket.orderItemId === item.id && ticket.status === "valid").length,
    })),
    delivery:
      order.shippingMethod === "delivery" && order.shippingAddress
        ? { heading: "Delivery to", lines: addressLines(order.shippingAddress) }
        : order.shippingMethod === "collection"
          ? { heading: "Collect at", lines: [order.collectionEventTitle ?? "An event"] }
          : null,
    tickets: ticketRows.map(({ code, ...ticket }) => ({ ...ticket, codeEnd: code.slice(-4) })),
    transactions: money,
    history,
    refundedBefore: items.reduce((sum, item) => sum + item.refundedQuantity, 0),
  };
}

export type OrderDetail = NonNullable<Awaited<ReturnType<typeof getOrderDetail>>>;

/** Holders of a cancelled event's tickets still to refund, for the cancel panel's button. */
async function refundableHolders(db: Db, eventId: string) {
  const [row] = await db
    .select({ orders: sql<number>`count(distinct ${tickets.orderId})::int` })
    .from(tickets)
    .innerJoin(orders, eq(orders.id, tickets.orderId))
    .where(
      and(
        eq(tickets.eventId, eventId),
        eq(tickets.status, "valid"),
        inArray(orders.status, ["paid", "fulfilled", "partly_refunded"]),
      ),
    );
  return Number(row?.orders ?? 0);
}

/** For a cancelled event, how many orders still wait for a refund; null for any other event. */
export async function cancelledEventRefunds(db: Db, eventId: string) {
  const [event] = await db.select({ status: events.status }).from(events).where(eq(events.id, eventId));
  if (event?.status !== "cancelled") return null;
  return refundableHolders(db, eventId);
}
