import { and, asc, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { MemberDataSection } from "~/features/accounts/member-data-section";
import { formatOrderNumber } from "~/features/commerce/order-number";
import type { Db } from "~/server/db/client.server";
import {
  cartItems,
  carts,
  events,
  orderEmails,
  orderItems,
  orders,
  outboundMessages,
  products,
  productVariants,
  tickets,
  ticketTypes,
  transactions,
  users,
} from "../../../db/schema";
import {
  deliveryColumns,
  orderLineColumns,
  orderSummaryColumns,
  paymentColumns,
  ticketColumns,
} from "./order-columns.server";

/**
 * What the shop keeps about a member, for "Download my data" and for deleting an account
 * (docs/payments.md "Personal data in orders"). Orders are the club's accounting record and
 * outlive the account: on deletion they keep their number, lines, prices, status and payments,
 * and lose everything that names a person: the buyer's email, the attendee names on the lines
 * and the tickets, and the emails sent about them. The member's cart goes altogether.
 *
 * Listed with every area's sections by `privacy.server.ts`.
 */

/** The end of a ticket code, as staff see it: enough to recognise a ticket, not to use it. */
const codeEnd = (code: string) => code.slice(-4);

async function ordersOf(db: Db, userId: string) {
  const rows = await db
    .select({
      ...orderSummaryColumns,
      provider: orders.provider,
      failureReason: orders.failureReason,
      placedAt: orders.createdAt,
      paidAt: orders.paidAt,
      ...deliveryColumns,
      shippedAt: orders.shippedAt,
    })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(asc(orders.createdAt), asc(orders.number));
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [items, issued, money] = await Promise.all([
    db
      .select({
        orderId: orderItems.orderId,
        ...orderLineColumns,
        attendeeNames: orderItems.attendeeNames,
      })
      .from(orderItems)
      .where(inArray(orderItems.orderId, ids))
      .orderBy(asc(orderItems.createdAt), asc(orderItems.description)),
    db
      .select({
        orderId: tickets.orderId,
        event: events.title,
        ...ticketColumns,
        issuedAt: tickets.createdAt,
      })
      .from(tickets)
      .innerJoin(events, eq(events.id, tickets.eventId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
      .where(inArray(tickets.orderId, ids))
      .orderBy(asc(tickets.createdAt), asc(tickets.code)),
    db
      .select({
        orderId: transactions.orderId,
        ...paymentColumns,
        at: transactions.createdAt,
        completedAt: transactions.completedAt,
      })
      .from(transactions)
      .where(inArray(transactions.orderId, ids))
      .orderBy(asc(transactions.createdAt)),
  ]);
  return rows.map(({ id, number, ...order }) => ({
    number: formatOrderNumber(number),
    ...order,
    items: items.filter((item) => item.orderId === id).map(({ orderId: _, ...item }) => item),
    // The full code is what gets someone in at the gate, so the file carries only its end.
    tickets: issued
      .filter((ticket) => ticket.orderId === id)
      .map(({ orderId: _, code, ...ticket }) => ({ ...ticket, codeEnds: codeEnd(code) })),
    payments: money.filter((row) => row.orderId === id).map(({ orderId: _, ...row }) => row),
  }));
}

/** The addresses the member's orders were sent to that no other account uses now. */
async function orderAddressesOf(tx: Db, userId: string) {
  const rows = await tx
    .selectDistinct({ email: sql<string>`lower(${orders.email})` })
    .from(orders)
    .where(eq(orders.userId, userId));
  if (rows.length === 0) return [];
  const addresses = rows.map((row) => row.email);
  const taken = await tx
    .select({ email: sql<string>`lower(${users.email})` })
    .from(users)
    .where(and(ne(users.id, userId), inArray(sql`lower(${users.email})`, addresses)));
  return addresses.filter((address) => !taken.some((row) => row.email === address));
}

export const commerceMemberData: MemberDataSection[] = [
  {
    name: "orders",
    tables: ["orders", "tickets"],
    collect: ordersOf,
    async erase(tx, userId) {
      const own = tx.select({ id: orders.id }).from(orders).where(eq(orders.userId, userId));
      // The emails about the orders: the confirmations (by their link, whatever address they went
      // to) and anything else sent to an address the orders used (refund notices, say).
      const linked = await tx
        .select({ id: orderEmails.messageId })
        .from(orderEmails)
        .where(and(inArray(orderEmails.orderId, own), isNotNull(orderEmails.messageId)));
      if (linked.length > 0)
        await tx.delete(outboundMessages).where(
          inArray(
            outboundMessages.id,
            linked.map((row) => row.id!),
          ),
        );
      const addresses = await orderAddressesOf(tx, userId);
      if (addresses.length > 0)
        await tx
          .delete(outboundMessages)
          .where(and(eq(outboundMessages.channel, "email"), inArray(sql`lower(${outboundMessages.to})`, addresses)));

      await tx.update(orderItems).set({ attendeeNames: sql`'{}'::text[]` }).where(inArray(orderItems.orderId, own));
      await tx.update(tickets).set({ attendeeName: null, updatedAt: new Date() }).where(inArray(tickets.orderId, own));
      // Same form as the account's own anonymised address (deletedMemberEmail).
      await tx
        .update(orders)
        .set({ email: `deleted-${userId}@invalid`, updatedAt: new Date() })
        .where(eq(orders.userId, userId));
      // A delivered order keeps only its country (for the accounts): the name and street go.
      await tx
        .update(orders)
        .set({
          shippingAddress: sql`jsonb_build_object('name', 'Deleted member', 'line1', '(removed)', 'town', '(removed)', 'postcode', '(removed)', 'country', ${orders.shippingAddress}->>'country')`,
        })
        .where(and(eq(orders.userId, userId), isNotNull(orders.shippingAddress)));
    },
  },
  {
    name: "cart",
    tables: ["carts"],
    collect: (db, userId) =>
      db
        .select({
          ticketType: ticketTypes.name,
          event: events.title,
          product: products.title,
          options: productVariants.options,
          quantity: cartItems.quantity,
          attendeeNames: cartItems.attendeeNames,
          addedAt: cartItems.createdAt,
        })
        .from(cartItems)
        .innerJoin(carts, eq(carts.id, cartItems.cartId))
        .leftJoin(ticketTypes, eq(ticketTypes.id, cartItems.ticketTypeId))
        .leftJoin(events, eq(events.id, ticketTypes.eventId))
        .leftJoin(productVariants, eq(productVariants.id, cartItems.variantId))
        .leftJoin(products, eq(products.id, productVariants.productId))
        .where(eq(carts.userId, userId))
        .orderBy(asc(cartItems.createdAt)),
    async erase(tx, userId) {
      await tx.delete(carts).where(eq(carts.userId, userId));
    },
  },
  {
    // Staff: the tickets they let in at the gate (the tickets table is covered by "orders").
    name: "checkIns",
    tables: [],
    collect: (db, userId) =>
      db
        .select({ event: events.title, ticketType: ticketTypes.name, checkedInAt: tickets.checkedInAt })
        .from(tickets)
        .innerJoin(events, eq(events.id, tickets.eventId))
        .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
        .where(eq(tickets.checkedInBy, userId))
        .orderBy(asc(tickets.checkedInAt)),
  },
];
