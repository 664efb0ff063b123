import { and, asc, desc, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import { formatOrderNumber } from "~/features/commerce/order-number";
import { eventDateLabels, formatEventInstant, formatLocalDay } from "~/features/dates/event-dates";
import { addressLines } from "~/features/shipping/address";
import { formatTicketCode, signTicketCode } from "~/features/tickets/ticket-codes.server";
import type { Db } from "~/server/db/client.server";
import { jsonObject } from "~/server/db/json-object";
import {
  drawEntries,
  draws,
  events,
  exhibitorPasses,
  type OrderStatus,
  orderItems,
  orders,
  showCarApplications,
  type TicketStatus,
  tickets,
  ticketTypes,
  transactions,
} from "../../../db/schema";
import { ORDER_STATUS_LABELS } from "./admin-schemas";
import {
  orderLineColumns,
  orderPayments,
  orderSummaryColumns,
  paymentColumns,
  ticketColumns,
} from "./order-columns.server";
import { isOrderId } from "./order-id";

/**
 * What a buyer sees of their orders after paying: /success, the order email, /transactions, the
 * printable receipt and /members/events. Every date is labelled on the server, in the event's
 * own zone for event times and in the site's zone for payments, so pages and emails agree.
 */

/** Orders that took money, or that were settled for free: the ones a receipt exists for. */
export const SETTLED_ORDER_STATUSES: OrderStatus[] = ["paid", "fulfilled", "refunded", "partly_refunded"];

export type TicketView = {
  id: string;
  /** The code in groups of four, for typing at the gate. */
  shortCode: string;
  /** What the QR carries (code.signature); null when the ticket can no longer admit anyone. */
  qrPayload: string | null;
  status: TicketStatus;
  /** "Valid", "Checked in Sat 12 Jun 2027, 09:14 BST", "Refunded", "Cancelled". */
  statusLabel: string;
  attendeeName: string | null;
  ticketTypeName: string;
  /** The days a day ticket or pass admits on ("Sat 12 June"); empty when it is the whole event. */
  validDays: string[];
  orderId: string;
  orderNumber: string;
  event: EventSummary;
};

type EventSummary = {
  id: string;
  slug: string;
  title: string;
  dates: string;
  times: string;
  zone: string;
  day: string;
  month: string;
  venue: string;
  town: string;
  startsAt: string;
  endsAt: string;
};

type OrderLineView = {
  id: string;
  description: string;
  unitPrice: number;
  quantity: number;
  refundedQuantity: number;
  lineTotal: number;
};

type TransactionView = {
  id: string;
  kind: "charge" | "refund";
  status: "pending" | "succeeded" | "failed";
  amount: number;
  at: string;
  reason: string | null;
};

export type OrderView = {
  id: string;
  number: string;
  status: OrderStatus;
  statusLabel: string;
  email: string;
  currency: string;
  subtotal: number;
  shipping: number;
  /** What the order's voucher took off, and its code (null without one). */
  discount: number;
  voucherCode: string | null;
  /** Account credit spent on the order; `total` is what was left to pay. */
  credit: number;
  total: number;
  placedAt: string;
  paidAt: string | null;
  /** While the order waits for payment: until when its places are held, as an instant and in words. */
  holdEndsAt: Date | null;
  holdEndsLabel: string | null;
  items: OrderLineView[];
  tickets: TicketView[];
  /** Competition entries bought on this order: per draw, the numbers allocated at payment. */
  entries: EntryNumbersView[];
  /** Exhibitor passes issued when this order paid show-car application fees. */
  passes: PassView[];
  transactions: TransactionView[];
  /** How the order's merch reaches the buyer; null for an order without merch. */
  delivery: DeliveryView | null;
};

/** Where merch goes: an address as label lines, or the event it is collected at. */
type DeliveryView = {
  method: "delivery" | "collection";
  /** "Delivery to" or "Collect at". */
  heading: string;
  lines: string[];
};

/** An exhibitor pass as its holder sees it: the car, the event, and the code to show at the gate. */
type PassView = {
  id: string;
  carLabel: string;
  eventTitle: string;
  eventSlug: string;
  shortCode: string;
  /** What the QR carries; null once the pass was cancelled. */
  qrPayload: string | null;
};

/** A draw's entries on one order: the numbers, and the instant wins among them. */
type EntryNumbersView = {
  drawSlug: string;
  drawTitle: string;
  numbers: number[];
  instantWins: { number: number; prize: string }[];
};

type Secrets = { secret: string; siteTimeZone: string };

/**
 * The buyer's own order, or null when there is no such order or it is someone else's. The owner
 * check is part of the query, so an id taken from a URL can only ever find the member's orders.
 */
export async function orderForBuyer(
  db: Db,
  input: { orderId: string; userId: string } & Secrets,
): Promise<OrderView | null> {
  if (!isOrderId(input.orderId)) return null;
  return loadOrder(db, and(eq(orders.id, input.orderId), eq(orders.userId, input.userId))!, input);
}

/** The order as its confirmation email shows it: everything but its payments. */
export type ConfirmationView = Omit<OrderView, "transactions">;

/** Any order by id, for the confirmation email job (which trusts its own job data, not a URL). */
export async function orderForConfirmation(
  db: Db,
  input: { orderId: string } & Secrets,
): Promise<ConfirmationView | null> {
  if (!isOrderId(input.orderId)) return null;
  const view = await loadOrder(db, eq(orders.id, input.orderId), input, { payments: false });
  if (!view) return null;
  const { transactions: _none, ...order } = view;
  return order;
}

/** The order's view; `payments: false` leaves its payments unread (the list is then empty). */
async function loadOrder(
  db: Db,
  where: SQL,
  { secret, siteTimeZone }: Secrets,
  { payments = true } = {},
): Promise<OrderView | null> {
  // The order with its lines (a row per line) and its tickets (one JSON list, made once per order)
  // in one query; then, at once, only the other lists its lines can have: payments, entries for
  // draw lines, passes for application fees.
  const orderTickets = orderTicketsList(db);
  const rows = await db
    .select({
      order: {
        ...orderSummaryColumns,
        createdAt: orders.createdAt,
        paidAt: orders.paidAt,
        holdExpiresAt: orders.holdExpiresAt,
        shippingMethod: orders.shippingMethod,
        shippingAddress: orders.shippingAddress,
        collectionTitle: events.title,
        collectionStartsAt: events.startsAt,
        tickets: orderTickets.list,
      },
      line: { id: orderItems.id, kind: orderItems.kind, ...orderLineColumns },
    })
    .from(orders)
    .leftJoin(events, eq(events.id, orders.collectionEventId))
    .leftJoinLateral(orderTickets, sql`true`)
    .leftJoin(orderItems, eq(orderItems.orderId, orders.id))
    .leftJoin(ticketTypes, eq(ticketTypes.id, orderItems.ticketTypeId))
    .where(where)
    // Lines of one checkout share a time: the catalogue's order of ticket types settles it.
    .orderBy(asc(orderItems.createdAt), asc(ticketTypes.sortOrder), asc(orderItems.description));
  const order = rows[0]?.order;
  if (!order) return null;
  const lines = rows.flatMap((row) => (row.line?.id ? [row.line] : []));
  const has = (kind: (typeof lines)[number]["kind"]) => lines.some((line) => line.kind === kind);
  const items = lines.map(({ kind: _kind, ...line }) => line);

  const ticketRows = ticketRowsFromJson(order.tickets, order.number);
  const [money, entryRows, passRows] = await Promise.all([
    payments ? orderPayments(db, order.id) : [],
    has("entry")
      ? db
          .select({
            drawSlug: draws.slug,
            drawTitle: draws.title,
            number: drawEntries.number,
            eligible: drawEntries.eligible,
            instantWins: draws.instantWins,
          })
          .from(drawEntries)
          .innerJoin(draws, eq(draws.id, drawEntries.drawId))
          .where(and(eq(drawEntries.orderId, order.id), eq(drawEntries.status, "valid")))
          .orderBy(asc(draws.title), asc(drawEntries.number))
      : [],
    has("application")
      ? db
          .select({
            id: exhibitorPasses.id,
            code: exhibitorPasses.code,
            status: exhibitorPasses.status,
            carLabel: showCarApplications.carLabel,
            eventTitle: events.title,
            eventSlug: events.slug,
          })
          .from(exhibitorPasses)
          .innerJoin(showCarApplications, eq(showCarApplications.id, exhibitorPasses.applicationId))
          .innerJoin(events, eq(events.id, exhibitorPasses.eventId))
          .where(eq(exhibitorPasses.orderId, order.id))
          .orderBy(asc(exhibitorPasses.createdAt), asc(exhibitorPasses.id))
      : [],
  ]);
  const entries = new Map<string, EntryNumbersView>();
  for (const row of entryRows) {
    const draw = entries.get(row.drawSlug) ?? {
      drawSlug: row.drawSlug,
      drawTitle: row.drawTitle,
      numbers: [],
      instantWins: [],
    };
    draw.numbers.push(row.number);
    // Only an eligible entry wins; an ineligible one says nothing, as answers stay secret until close.
    const win = row.eligible ? row.instantWins.find((candidate) => candidate.number === row.number) : undefined;
    if (win) draw.instantWins.push({ number: win.number, prize: win.prize });
    entries.set(row.drawSlug, draw);
  }

  // Tickets follow the order of the lines they were bought on.
  const lineIndex = new Map(items.map((item, index) => [item.id, index]));
  ticketRows.sort((a, b) => (lineIndex.get(a.orderItemId) ?? 0) - (lineIndex.get(b.orderItemId) ?? 0));

  return {
    id: order.id,
    number: formatOrderNumber(order.number),
    status: order.status,
    statusLabel: ORDER_STATUS_LABELS[order.status],
    email: order.email,
    currency: order.currency,
    subtotal: order.subtotal,
    shipping: order.shipping,
    discount: order.discount,
    voucherCode: order.voucherCode,
    credit: order.credit,
    total: order.total,
    placedAt: formatEventInstant(order.createdAt, siteTimeZone),
    paidAt: order.paidAt ? formatEventInstant(order.paidAt, siteTimeZone) : null,
    holdEndsAt: order.status === "pending" ? order.holdExpiresAt : null,
    holdEndsLabel:
      order.status === "pending" && order.holdExpiresAt ? formatEventInstant(order.holdExpiresAt, siteTimeZone) : null,
    items: items.map((item) => ({ ...item, lineTotal: item.unitPrice * item.quantity })),
    tickets: ticketRows.map((row) => ticketView(row, { secret, withQr: true })),
    entries: [...entries.values()],
    passes: passRows.map((row) => ({
      id: row.id,
      carLabel: row.carLabel,
      eventTitle: row.eventTitle,
      eventSlug: row.eventSlug,
      shortCode: formatTicketCode(row.code),
      qrPayload: row.status === "valid" ? signTicketCode(row.code, secret) : null,
    })),
    transactions: money.map((row) => ({
      id: row.id,
      kind: row.kind,
      status: row.status,
      amount: row.amount,
      at: formatEventInstant(row.completedAt ?? row.createdAt, siteTimeZone),
      reason: row.reason,
    })),
    delivery:
      order.shippingMethod === "delivery" && order.shippingAddress
        ? { method: "delivery", heading: "Delivery to", lines: addressLines(order.shippingAddress) }
        : order.shippingMethod === "collection" && order.collectionTitle
          ? {
              method: "collection",
              heading: "Collect at",
              lines: [
                order.collectionTitle,
                ...(order.collectionStartsAt ? [formatEventInstant(order.collectionStartsAt, siteTimeZone)] : []),
              ],
            }
          : null,
  };
}

/** A ticket with its type and event; the select must join `ticketTypes` and `events` on the ticket's. */
const ticketFields = {
  id: tickets.id,
  ...ticketColumns,
  orderId: tickets.orderId,
  orderItemId: tickets.orderItemId,
  typeDays: ticketTypes.days,
  eventId: events.id,
  slug: events.slug,
  title: events.title,
  startsAt: events.startsAt,
  endsAt: events.endsAt,
  timeZone: events.timeZone,
  venue: events.venue,
  town: events.town,
};

/** Tickets with their type, event and order: one join, whatever the number of tickets. */
function ticketQuery(db: Db) {
  return db
    .select({ ...ticketFields, orderNumber: orders.number })
    .from(tickets)
    .innerJoin(orders, eq(orders.id, tickets.orderId))
    .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
    .innerJoin(events, eq(events.id, tickets.eventId));
}

type TicketRow = Awaited<ReturnType<ReturnType<typeof ticketQuery>["execute"]>>[number];

/** A ticket of `orderTicketsList`: its fields as JSON gives them, times as ISO 8601 strings. */
type OrderTicketJson = Omit<TicketRow, "orderNumber" | "checkedInAt" | "startsAt" | "endsAt"> & {
  checkedInAt: string | null;
  startsAt: string;
  endsAt: string;
};

/**
 * The tickets of the order in the outer query, with their type and event, as one JSON list in the
 * order they were issued: for a lateral join, which makes the list once per order row. Its
 * `tickets`, `ticket_types` and `events` are its own; `orders` is the outer query's.
 */
function orderTicketsList(db: Db) {
  return db
    .select({
      list: sql<OrderTicketJson[]>`coalesce(json_agg(${jsonObject(ticketFields)}
        order by ${tickets.orderItemId}, ${tickets.createdAt}, ${tickets.code}), '[]'::json)`.as("list"),
    })
    .from(tickets)
    .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where(eq(tickets.orderId, orders.id))
    .as("order_tickets");
}

function ticketRowsFromJson(list: OrderTicketJson[] | null, orderNumber: number): TicketRow[] {
  return (list ?? []).map((ticket) => ({
    ...ticket,
    orderNumber,
    checkedInAt: ticket.checkedInAt ? new Date(ticket.checkedInAt) : null,
    startsAt: new Date(ticket.startsAt),
    endsAt: new Date(ticket.endsAt),
  }));
}

function ticketView(row: TicketRow, options: { secret: string; withQr: boolean }): TicketView {
  const labels = eventDateLabels(row.startsAt, row.endsAt, row.timeZone);
  // A refunded or cancelled ticket admits no one, so it has no code to scan.
  const admits = row.status === "valid" || row.status === "checked_in";
  return {
    id: row.id,
    shortCode: formatTicketCode(row.code),
    qrPayload: options.withQr && admits ? signTicketCode(row.code, options.secret) : null,
    status: row.status,
    statusLabel: ticketStatusLabel(row.status, row.checkedInAt, row.timeZone),
    attendeeName: row.attendeeName,
    ticketTypeName: row.ticketType,
    validDays: row.typeDays.length > 0 && row.typeDays.length < labels.dayCount ? row.typeDays.map(formatLocalDay) : [],
    orderId: row.orderId,
    orderNumber: formatOrderNumber(row.orderNumber),
    event: {
      id: row.eventId,
      slug: row.slug,
      title: row.title,
      dates: labels.dates,
      times: labels.times,
      zone: labels.zone,
      day: labels.day,
      month: labels.month,
      venue: row.venue,
      town: row.town,
      startsAt: row.startsAt.toISOString(),
      endsAt: row.endsAt.toISOString(),
    },
  };
}

function ticketStatusLabel(status: TicketStatus, checkedInAt: Date | null, timeZone: string) {
  switch (status) {
    case "valid":
      return "Valid";
    case "checked_in":
      return checkedInAt ? `Checked in ${formatEventInstant(checkedInAt, timeZone)}` : "Checked in";
    case "refunded":
      return "Refunded";
    case "cancelled":
      return "Cancelled";
    case "transferred":
      return "Transferred";
  }
}

export type EventTickets = { event: EventSummary; tickets: TicketView[] };

/**
 * The member's tickets for /members/events in one query, grouped by event: upcoming events
 * (not yet ended) soonest first, with QR codes; past events latest first, without them.
 */
export async function ticketsForMember(db: Db, input: { userId: string; now: Date } & Pick<Secrets, "secret">) {
  const rows = await ticketQuery(db)
    .where(eq(tickets.userId, input.userId))
    .orderBy(asc(events.startsAt), asc(events.id), asc(orders.number), asc(tickets.orderItemId), asc(tickets.code));
  const upcoming = new Map<string, EventTickets>();
  const past = new Map<string, EventTickets>();
  for (const row of rows) {
    const isUpcoming = row.endsAt > input.now;
    const view = ticketView(row, { secret: input.secret, withQr: isUpcoming });
    const groups = isUpcoming ? upcoming : past;
    const group = groups.get(row.eventId) ?? { event: view.event, tickets: [] };
    group.tickets.push(view);
    groups.set(row.eventId, group);
  }
  return { upcoming: [...upcoming.values()], past: [...past.values()].reverse() };
}

export type MemberOrder = {
  id: string;
  number: string;
  status: OrderStatus;
  statusLabel: string;
  placedAt: string;
  total: number;
  currency: string;
  /** "Silverstone Festival of Speed — Weekend pass and 2 more". */
  summary: string;
  refunded: number;
  refundPending: number;
};

export type MemberRefund = {
  id: string;
  orderId: string;
  orderNumber: string;
  amount: number;
  currency: string;
  status: "pending" | "succeeded" | "failed";
  at: string;
  reason: string | null;
};

/**
 * The member's orders and refunds for /transactions, newest first, in two queries. Listed are the
 * orders that were settled or that moved money (a payment that arrived too late and went back);
 * abandoned checkouts never took a penny and are left out.
 */
export async function ordersForMember(db: Db, input: { userId: string; siteTimeZone: string }) {
  // Written out in full: in a one-table select Drizzle leaves column names unqualified, which
  // inside these correlated subqueries would bind to the inner table.
  const movedMoney = sql`exists (select 1 from transactions t where t.order_id = "orders"."id")`;
  const refundSum = (status: "succeeded" | "pending") =>
    sql<number>`coalesce((select sum(t.amount) from transactions t where t.order_id = "orders"."id" and t.kind = 'refund' and t.status = ${status}), 0)::int`;
  const [orderRows, refundRows] = await Promise.all([
    db
      .select({
        id: orders.id,
        number: orders.number,
        status: orders.status,
        createdAt: orders.createdAt,
        paidAt: orders.paidAt,
        total: orders.total,
        currency: orders.currency,
        firstLine: sql<
          string | null
        >`(select i.description from order_items i where i.order_id = "orders"."id" order by i.created_at, i.description limit 1)`,
        lineCount: sql<number>`(select count(*) from order_items i where i.order_id = "orders"."id")::int`,
        refunded: refundSum("succeeded"),
        refundPending: refundSum("pending"),
      })
      .from(orders)
      .where(and(eq(orders.userId, input.userId), or(inArray(orders.status, SETTLED_ORDER_STATUSES), movedMoney)))
      .orderBy(desc(orders.createdAt), desc(orders.number)),
    db
      .select({
        id: transactions.id,
        orderId: transactions.orderId,
        orderNumber: orders.number,
        ...paymentColumns,
        createdAt: transactions.createdAt,
        completedAt: transactions.completedAt,
      })
      .from(transactions)
      .innerJoin(orders, eq(orders.id, transactions.orderId))
      .where(and(eq(orders.userId, input.userId), eq(transactions.kind, "refund")))
      .orderBy(desc(transactions.createdAt)),
  ]);
  const zone = input.siteTimeZone;
  return {
    orders: orderRows.map(
      (row): MemberOrder => ({
        id: row.id,
        number: formatOrderNumber(row.number),
        status: row.status,
        statusLabel: ORDER_STATUS_LABELS[row.status],
        placedAt: formatEventInstant(row.paidAt ?? row.createdAt, zone),
        total: row.total,
        currency: row.currency,
        summary: row.lineCount > 1 ? `${row.firstLine} and ${row.lineCount - 1} more` : (row.firstLine ?? ""),
        refunded: row.refunded,
        refundPending: row.refundPending,
      }),
    ),
    refunds: refundRows.map(
      (row): MemberRefund => ({
        id: row.id,
        orderId: row.orderId,
        orderNumber: formatOrderNumber(row.orderNumber),
        amount: row.amount,
        currency: row.currency,
        status: row.status,
        at: formatEventInstant(row.completedAt ?? row.createdAt, zone),
        reason: row.reason,
      }),
    ),
  };
}
