import { and, asc, desc, eq, ilike, inArray, isNotNull, or, type SQL, sql } from "drizzle-orm";
import type { Branding } from "~/features/accounts/emails.server";
import { recordAudit } from "~/features/audit/audit.server";
import { recordOrderChanges } from "~/features/commerce/order-history.server";
import { formatOrderNumber, parseOrderNumber } from "~/features/commerce/order-number";
import { deliveryColumns } from "~/features/orders/order-columns.server";
import type { Db } from "~/server/db/client.server";
import { containing } from "~/server/db/like";
import { isUuid } from "~/server/db/uuid";
import type { OutboundEmail } from "~/server/mail/mail.server";
import {
  events,
  type FulfilmentStatus,
  type OrderStatus,
  orderItems,
  orders,
  products,
  productVariants,
  users,
} from "../../../db/schema";
import { CARRIERS, type Carrier, carrierLabel, trackingUrlFor } from "./carriers";
import { collectionEmail, shippedEmail } from "./fulfilment-email.server";
import type { FulfilmentView } from "./schemas";

/**
 * Orders with merch after payment (docs/fulfilment.md). Refunded, cancelled and unpaid orders
 * never show: staff only pack what was paid for and is still owed.
 */
const FULFILLABLE: OrderStatus[] = ["paid", "partly_refunded", "fulfilled"];
const LIST_LIMIT = 100;

const VIEW_WHERE: Record<FulfilmentView, SQL> = {
  "to-ship": and(eq(orders.shippingMethod, "delivery"), eq(orders.fulfilmentStatus, "unfulfilled"))!,
  "to-collect": and(
    eq(orders.shippingMethod, "collection"),
    inArray(orders.fulfilmentStatus, ["unfulfilled", "ready_for_collection"]),
  )!,
  shipped: eq(orders.fulfilmentStatus, "shipped"),
  collected: eq(orders.fulfilmentStatus, "collected"),
};

const orderColumns = {
  id: orders.id,
  number: orders.number,
  email: orders.email,
  name: users.name,
  paidAt: orders.paidAt,
  ...deliveryColumns,
  trackingUrl: orders.trackingUrl,
  shippedAt: orders.shippedAt,
  eventId: events.id,
  eventTitle: events.title,
  eventStartsAt: events.startsAt,
  eventTimeZone: events.timeZone,
  eventVenue: events.venue,
};

import type { MerchLine } from "./lines";

export type { MerchLine };

/** The merch still owed on these orders (refunded units left out), in one query. */
async function merchLinesOf(db: Db, orderIds: readonly string[]): Promise<Map<string, MerchLine[]>> {
  const byOrder = new Map<string, MerchLine[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await db
    .select({
      id: orderItems.id,
      orderId: orderItems.orderId,
      product: products.title,
      options: productVariants.options,
      quantity: sql<number>`(${orderItems.quantity} - ${orderItems.refundedQuantity})::int`,
    })
    .from(orderItems)
    .innerJoin(productVariants, eq(productVariants.id, orderItems.variantId))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(
      and(
        inArray(orderItems.orderId, [...orderIds]),
        eq(orderItems.kind, "merch"),
        sql`${orderItems.quantity} > ${orderItems.refundedQuantity}`,
      ),
    )
    .orderBy(asc(orderItems.createdAt), asc(orderItems.id));
  for (const row of rows) {
    const lines = byOrder.get(row.orderId) ?? [];
    lines.push({ ...row, quantity: Number(row.quantity) });
    byOrder.set(row.orderId, lines);
  }
  return byOrder;
}

function searchCondition(q: string): SQL | undefined {
  if (!q) return undefined;
  const number = parseOrderNumber(q);
  const pattern = containing(q);
  return or(
    number === null ? undefined : eq(orders.number, number),
    ilike(users.name, pattern),
    ilike(orders.email, pattern),
  );
}

/**
 * One tab of the fulfilment list: what is left to do oldest first (the longest wait goes out
 * first), what is done newest first. Orders whose merch was all refunded drop out.
 */
export async function listFulfilment(db: Db, input: { view: FulfilmentView; q: string }) {
  const done = input.view === "shipped" || input.view === "collected";
  const base = and(inArray(orders.status, FULFILLABLE), isNotNull(orders.fulfilmentStatus));
  const search = searchCondition(input.q);
  const [rows, countRows] = await Promise.all([
    db
      .select(orderColumns)
      .from(orders)
      .leftJoin(users, eq(users.id, orders.userId))
      .leftJoin(events, eq(events.id, orders.collectionEventId))
      .where(and(base, VIEW_WHERE[input.view], search))
      .orderBy(done ? desc(orders.shippedAt) : asc(orders.paidAt), asc(orders.number))
      .limit(LIST_LIMIT),
    db
      .select({
        toShip: sql<number>`count(*) filter (where ${VIEW_WHERE["to-ship"]})::int`,
        toCollect: sql<number>`count(*) filter (where ${VIEW_WHERE["to-collect"]})::int`,
        shipped: sql<number>`count(*) filter (where ${VIEW_WHERE.shipped})::int`,
        collected: sql<number>`count(*) filter (where ${VIEW_WHERE.collected})::int`,
      })
      .from(orders)
      .where(base),
  ]);
  const lines = await merchLinesOf(
    db,
    rows.map((row) => row.id),
  );
  const counts = countRows[0]!;
  return {
    orders: rows
      .map((row) => ({ ...row, reference: formatOrderNumber(row.number), lines: lines.get(row.id) ?? [] }))
      .filter((row) => row.lines.length > 0),
    counts: {
      "to-ship": Number(counts.toShip),
      "to-collect": Number(counts.toCollect),
      shipped: Number(counts.shipped),
      collected: Number(counts.collected),
    } satisfies Record<FulfilmentView, number>,
  };
}

/** The orders of a packing list, in order-number order; ids that are not merch orders are skipped. */
export async function packingList(db: Db, orderIds: readonly string[]) {
  if (orderIds.length === 0) return [];
  const rows = await db
    .select(orderColumns)
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .leftJoin(events, eq(events.id, orders.collectionEventId))
    .where(
      and(inArray(orders.id, [...orderIds]), inArray(orders.status, FULFILLABLE), isNotNull(orders.fulfilmentStatus)),
    )
    .orderBy(asc(orders.number));
  const lines = await merchLinesOf(
    db,
    rows.map((row) => row.id),
  );
  return rows
    .map((row) => ({ ...row, reference: formatOrderNumber(row.number), lines: lines.get(row.id) ?? [] }))
    .filter((row) => row.lines.length > 0);
}

export type FulfilmentChange =
  | { intent: "ship"; orderId: string; carrier: Carrier; trackingNumber: string; trackingUrl?: string }
  | { intent: "ready"; orderId: string }
  | { intent: "collected"; orderId: string };

export type FulfilmentOutcome =
  | { ok: true; email: OutboundEmail | null; message: string; reference: string }
  | { ok: false; status: 404 | 409; message: string };

/** Which fulfilment states each change may start from, and where it leads. */
const MOVES: Record<
  FulfilmentChange["intent"],
  { method: "delivery" | "collection"; from: FulfilmentStatus[]; to: FulfilmentStatus }
> = {
  ship: { method: "delivery", from: ["unfulfilled"], to: "shipped" },
  ready: { method: "collection", from: ["unfulfilled"], to: "ready_for_collection" },
  collected: { method: "collection", from: ["unfulfilled", "ready_for_collection"], to: "collected" },
};

const REFUSED: Record<FulfilmentChange["intent"], string> = {
  ship: "This order has already been shipped, or is not for delivery.",
  ready: "This order is already set aside or handed over, or is not for collection.",
  collected: "This order has already been handed over, or is not for collection.",
};

/**
 * A staff member moves an order's merch on: shipped (with the carrier's tracking link), put aside
 * for collection, or handed over. The order's row is locked first, so two staff pressing the
 * same button at once make one change: the second finds it done and changes (and emails)
 * nothing. The change is in the order's history and the audit log, in the same transaction; the
 * buyer's email is returned for the outbox, only when the change was made.
 */
export async function changeFulfilment(
  db: Db,
  change: FulfilmentChange,
  context: { actorId: string; brand: Branding; now: Date; ip?: string | null },
): Promise<FulfilmentOutcome> {
  const move = MOVES[change.intent];
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select({
        id: orders.id,
        number: orders.number,
        email: orders.email,
        status: orders.status,
        shippingMethod: orders.shippingMethod,
        fulfilmentStatus: orders.fulfilmentStatus,
        collectionEventId: orders.collectionEventId,
      })
      .from(orders)
      .where(eq(orders.id, change.orderId))
      .for("update");
    if (!order?.fulfilmentStatus || !FULFILLABLE.includes(order.status)) {
      return { ok: false, status: 404, message: "That order has no merch to send." } as const;
    }
    const reference = formatOrderNumber(order.number);
    if (order.shippingMethod !== move.method || !move.from.includes(order.fulfilmentStatus)) {
      return { ok: false, status: 409, message: `${reference}: ${REFUSED[change.intent]}` } as const;
    }
    const lines = (await merchLinesOf(tx as unknown as Db, [order.id])).get(order.id) ?? [];
    if (lines.length === 0)
      return { ok: false, status: 404, message: `${reference} has no merch left to send.` } as const;

    let note: string;
    let email: OutboundEmail | null = null;
    let details: Record<string, unknown> = { from: order.fulfilmentStatus, to: move.to };
    if (change.intent === "ship") {
      const trackingUrl =
        change.carrier === "other"
          ? (change.trackingUrl ?? "")
          : trackingUrlFor(change.carrier, change.trackingNumber)!;
      await tx
        .update(orders)
        .set({
          fulfilmentStatus: "shipped",
          carrier: change.carrier,
          trackingNumber: change.trackingNumber,
          trackingUrl,
          shippedAt: context.now,
          fulfilledBy: context.actorId,
          updatedAt: context.now,
        })
        .where(eq(orders.id, order.id));
      const carrier = CARRIERS[change.carrier].label;
      note = `Merch shipped with ${carrier}, tracking ${change.trackingNumber}`;
      details = { ...details, carrier: change.carrier, trackingNumber: change.trackingNumber };
      email = shippedEmail(context.brand, {
        to: order.email,
        reference,
        orderId: order.id,
        carrier,
        trackingNumber: change.trackingNumber,
        trackingUrl,
        lines,
      });
    } else {
      await tx
        .update(orders)
        .set({ fulfilmentStatus: move.to, fulfilledBy: context.actorId, updatedAt: context.now })
        .where(eq(orders.id, order.id));
      note = change.intent === "ready" ? "Merch set aside for collection" : "Merch handed over";
      if (change.intent === "ready" && order.collectionEventId) {
        const [event] = await tx
          .select({
            title: events.title,
            startsAt: events.startsAt,
            timeZone: events.timeZone,
            venue: events.venue,
            town: events.town,
          })
          .from(events)
          .where(eq(events.id, order.collectionEventId));
        if (event) {
          email = collectionEmail(context.brand, { to: order.email, reference, orderId: order.id, event, lines });
        }
      }
    }
    await recordOrderChanges(tx as unknown as Db, [
      {
        orderId: order.id,
        fromStatus: order.status,
        toStatus: order.status,
        note,
        actorId: context.actorId,
        at: context.now,
      },
    ]);
    await recordAudit(tx as unknown as Db, {
      actorId: context.actorId,
      action: `order.fulfilment.${change.intent}`,
      subjectType: "order",
      subjectId: order.id,
      details,
      ip: context.ip ?? null,
    });
    const message = {
      ship: `${reference} is marked shipped. The buyer has been emailed the tracking link.`,
      ready: `${reference} is set aside for collection. The buyer has been told where to pick it up.`,
      collected: `${reference} is handed over.`,
    }[change.intent];
    return { ok: true, email, message, reference } as const;
  });
}

/**
 * Merch to pick up at this event (for the gate's scanner): a member's paid orders for collection
 * here that are not handed over yet, or the one order asked for if it is one of them.
 */
export async function collectionsAtGate(
  db: Db,
  input: { eventId: string } & ({ userId: string } | { orderId: string }),
) {
  const who =
    "userId" in input ? eq(orders.userId, input.userId) : isUuid(input.orderId) ? eq(orders.id, input.orderId) : null;
  if (!who) return [];
  const rows = await db
    .select({ id: orders.id, number: orders.number, fulfilmentStatus: orders.fulfilmentStatus })
    .from(orders)
    .where(
      and(
        who,
        eq(orders.collectionEventId, input.eventId),
        eq(orders.shippingMethod, "collection"),
        inArray(orders.status, FULFILLABLE),
        inArray(orders.fulfilmentStatus, ["unfulfilled", "ready_for_collection"]),
      ),
    )
    .orderBy(asc(orders.number));
  const lines = await merchLinesOf(
    db,
    rows.map((row) => row.id),
  );
  return rows
    .map((row) => ({ id: row.id, reference: formatOrderNumber(row.number), lines: lines.get(row.id) ?? [] }))
    .filter((row) => row.lines.length > 0);
}

/** Where an order's merch stands, for the buyer's receipt; null for an order without merch. */
export async function fulfilmentOf(db: Db, orderId: string) {
  if (!isUuid(orderId)) return null;
  const [row] = await db
    .select({
      fulfilmentStatus: orders.fulfilmentStatus,
      shippingMethod: orders.shippingMethod,
      carrier: orders.carrier,
      trackingNumber: orders.trackingNumber,
      trackingUrl: orders.trackingUrl,
      eventTitle: events.title,
    })
    .from(orders)
    .leftJoin(events, eq(events.id, orders.collectionEventId))
    .where(eq(orders.id, orderId));
  if (!row?.fulfilmentStatus) return null;
  return { ...row, carrierLabel: carrierLabel(row.carrier) };
}
