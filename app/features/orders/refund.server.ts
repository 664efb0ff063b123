import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { recordAudit } from "~/features/admin/audit.server";
import { cancelRefundedApplications } from "~/features/applications/applications.server";
import { voidEntries } from "~/features/draws/entries.server";
import type { Db } from "~/server/db/client.server";
import { transactionWithRetry } from "~/server/db/retry.server";
import { countOf } from "~/ui/plural";
import {
  drawEntries,
  draws,
  events,
  exhibitorPasses,
  type OrderStatus,
  orderItems,
  orders,
  productVariants,
  tickets,
  ticketTypes,
  transactions,
} from "../../../db/schema";
import { recordOrderChanges } from "./order-history.server";
import { formatOrderNumber } from "./order-number";

export type RefundInput = {
  orderId: string;
  /** Lines and how many of each to refund; omitted refunds everything still refundable. */
  items?: { orderItemId: string; quantity: number }[];
  actorId: string | null;
  reason: string;
  now: Date;
  /**
   * How many tickets of the order were already refunded when the form was shown. A second
   * submission of the same form finds a different number and is refused, so a double click
   * never refunds twice.
   */
  refundedBefore?: number;
};

export type RefundedLine = { description: string; quantity: number; amount: number };

export type RefundOutcome =
  | {
      ok: true;
      orderId: string;
      number: number;
      email: string;
      currency: string;
      status: OrderStatus;
      amount: number;
      lines: RefundedLine[];
      /** The pending refund transaction; null for free tickets, where no money moves. */
      transactionId: string | null;
      /** Tickets left alone because they were already used at the gate. */
      checkedInKept: number;
    }
  | { ok: false; problem: string };

const REFUNDABLE_ORDER_STATUSES: OrderStatus[] = ["paid", "fulfilled", "partly_refunded"];

/**
 * Refunds a paid order, or some tickets of it (refunds are admin-only).
 * One transaction, locks in the ADR 0007 order — the events, their ticket types, the draws, the
 * merch variants, then the order — because refunding gives places and stock back (`sold` goes
 * down, a variant's `stock` goes up) and changes the order's status. When a refund leaves nothing
 * of the order unrefunded, its shipping is refunded with it (docs/shop.md).
 * Tickets already checked in are never refunded: the place was used. Money back is the price
 * paid (the line's unit price snapshot) times the tickets refunded, recorded as a pending refund
 * that the payments job sends to the provider.
 */
export async function refundOrder(db: Db, input: RefundInput): Promise<RefundOutcome> {
  return transactionWithRetry(db, (tx) => refundIn(tx, input));
}

async function refundIn(tx: Db, input: RefundInput): Promise<RefundOutcome> {
  const { now } = input;
  // Order lines never change after checkout, so their events can be read before the locks.
  const lines = await tx
    .select({ eventId: orderItems.eventId, drawId: orderItems.drawId, variantId: orderItems.variantId })
    .from(orderItems)
    .where(eq(orderItems.orderId, input.orderId));
  if (lines.length === 0) return { ok: false, problem: "This order could not be found." };
  const eventIds = [...new Set(lines.flatMap((line) => (line.eventId ? [line.eventId] : [])))].sort();
  const drawIds = [...new Set(lines.flatMap((line) => (line.drawId ? [line.drawId] : [])))].sort();
  const variantIds = [...new Set(lines.flatMap((line) => (line.variantId ? [line.variantId] : [])))].sort();
  await tx
    .select({ id: events.id })
    .from(events)
    .where(inArray(events.id, eventIds))
    .orderBy(asc(events.id))
    .for("no key update");
  await tx
    .select({ id: ticketTypes.id })
    .from(ticketTypes)
    .where(inArray(ticketTypes.eventId, eventIds))
    .orderBy(asc(ticketTypes.id))
    .for("no key update");
  const drawRows = await tx
    .select({ id: draws.id, status: draws.status })
    .from(draws)
    .where(inArray(draws.id, drawIds))
    .orderBy(asc(draws.id))
    .for("no key update");
  await tx
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(inArray(productVariants.id, variantIds))
    .orderBy(asc(productVariants.id))
    .for("no key update");
  // Entries can be given back only while the entry list is open: once a draw closes, its list
  // is frozen and published, and voiding an entry would change it.
  const openDraws = new Set(
    drawRows.filter((draw) => draw.status === "live" || draw.status === "cancelled").map((draw) => draw.id),
  );
  const [order] = await tx
    .select({
      id: orders.id,
      number: orders.number,
      email: orders.email,
      status: orders.status,
      currency: orders.currency,
      provider: orders.provider,
      shipping: orders.shipping,
    })
    .from(orders)
    .where(eq(orders.id, input.orderId))
    .for("update");
  if (!order) return { ok: false, problem: "This order could not be found." };
  if (!REFUNDABLE_ORDER_STATUSES.includes(order.status)) {
    return {
      ok: false,
      problem:
        order.status === "refunded"
          ? "This order has already been refunded in full."
          : `Only paid orders can be refunded; this one is ${order.status.replace("_", " ")}.`,
    };
  }

  const items = await tx
    .select({
      id: orderItems.id,
      description: orderItems.description,
      unitPrice: orderItems.unitPrice,
      quantity: orderItems.quantity,
      refundedQuantity: orderItems.refundedQuantity,
      ticketTypeId: orderItems.ticketTypeId,
      drawId: orderItems.drawId,
      entriesPerUnit: orderItems.entriesPerUnit,
      applicationId: orderItems.applicationId,
      variantId: orderItems.variantId,
    })
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.createdAt), asc(orderItems.id));
  const alreadyRefunded = items.reduce((sum, item) => sum + item.refundedQuantity, 0);
  if (input.refundedBefore !== undefined && input.refundedBefore !== alreadyRefunded) {
    return {
      ok: false,
      problem: "This order changed since the page was opened, so nothing was refunded. Check it and try again.",
    };
  }
  const orderTickets = await tx
    .select({ id: tickets.id, orderItemId: tickets.orderItemId, status: tickets.status })
    .from(tickets)
    .where(eq(tickets.orderId, order.id))
    .orderBy(asc(tickets.createdAt), asc(tickets.id));
  const orderEntries = await tx
    .select({ id: drawEntries.id, orderItemId: drawEntries.orderItemId, status: drawEntries.status })
    .from(drawEntries)
    .where(eq(drawEntries.orderId, order.id))
    .orderBy(asc(drawEntries.number));
  const applicationIds = items.flatMap((item) => (item.applicationId ? [item.applicationId] : []));
  const orderPasses =
    applicationIds.length === 0
      ? []
      : await tx
          .select({
            applicationId: exhibitorPasses.applicationId,
            status: exhibitorPasses.status,
            checkedInAt: exhibitorPasses.checkedInAt,
          })
          .from(exhibitorPasses)
          .where(inArray(exhibitorPasses.applicationId, applicationIds))
          .for("update");
  /**
   * A line's units as refund sees them: its tickets, or its bundles of entries. A bundle is
   * valid while all its entries are and the draw is open; used units are tickets checked in.
   */
  const unitsOf = (item: (typeof items)[number]) => {
    // An application fee: one unit, its exhibitor pass (a pass used at the gate is kept).
    if (item.applicationId) {
      if (item.refundedQuantity >= item.quantity) return [];
      const pass = orderPasses.find((candidate) => candidate.applicationId === item.applicationId);
      const status = !pass || pass.status === "cancelled" ? "valid" : pass.checkedInAt ? "checked_in" : "valid";
      return [{ ids: [item.applicationId], status }];
    }
    // Merch: its units not yet refunded (posted or not, goods can come back).
    if (item.variantId) {
      return Array.from({ length: item.quantity - item.refundedQuantity }, () => ({
        ids: [] as string[],
        status: "valid",
      }));
    }
    if (!item.drawId) {
      return orderTickets
        .filter((ticket) => ticket.orderItemId === item.id)
        .map((ticket) => ({ ids: [ticket.id], status: ticket.status }));
    }
    const valid = orderEntries.filter((entry) => entry.orderItemId === item.id && entry.status === "valid");
    const units = [];
    for (let i = 0; i + item.entriesPerUnit <= valid.length; i += item.entriesPerUnit) {
      const ids = valid.slice(i, i + item.entriesPerUnit).map((entry) => entry.id);
      units.push({ ids, status: openDraws.has(item.drawId) ? "valid" : "drawn" });
    }
    return units;
  };

  // What to refund: per line, the tickets still valid (never one used at the gate).
  const chosen: { item: (typeof items)[number]; units: string[][] }[] = [];
  let checkedInKept = 0;
  if (input.items) {
    const seen = new Set<string>();
    for (const request of input.items) {
      const item = items.find((candidate) => candidate.id === request.orderItemId);
      if (!item || seen.has(item.id)) return { ok: false, problem: "That line is not part of this order." };
      seen.add(item.id);
      if (!Number.isInteger(request.quantity) || request.quantity < 1) {
        return { ok: false, problem: `Choose how many “${item.description}” tickets to refund.` };
      }
      const own = unitsOf(item);
      const valid = own.filter((ticket) => ticket.status === "valid");
      const used = own.filter((ticket) => ticket.status === "checked_in").length;
      const frozen = own.filter((ticket) => ticket.status === "drawn").length;
      if (request.quantity > valid.length) {
        const left = valid.length === 0 ? "none is left to refund" : `only ${valid.length} can be refunded`;
        const why =
          used > 0
            ? ` (${used} already checked in at the gate, which cannot be refunded)`
            : frozen > 0
              ? " (the draw has closed: its entry list is final)"
              : "";
        return { ok: false, problem: `“${item.description}”: ${left}${why}.` };
      }
      chosen.push({ item, units: valid.slice(0, request.quantity).map((ticket) => ticket.ids) });
    }
  } else {
    for (const item of items) {
      const own = unitsOf(item);
      checkedInKept += own.filter((ticket) => ticket.status === "checked_in").length;
      const valid = own.filter((ticket) => ticket.status === "valid").map((ticket) => ticket.ids);
      if (valid.length > 0) chosen.push({ item, units: valid });
    }
    if (chosen.length === 0) {
      return {
        ok: false,
        problem:
          checkedInKept > 0
            ? "Nothing is left to refund: the remaining tickets were checked in at the gate."
            : "Nothing is left to refund on this order.",
      };
    }
  }

  const refundedIds = chosen
    .filter((choice) => !choice.item.drawId && !choice.item.applicationId && !choice.item.variantId)
    .flatMap((choice) => choice.units.flat());
  // The status condition keeps a ticket from being refunded twice even without the order lock.
  const marked = await tx
    .update(tickets)
    .set({ status: "refunded", updatedAt: now })
    .where(and(inArray(tickets.id, refundedIds), eq(tickets.status, "valid")))
    .returning({ id: tickets.id });
  if (marked.length !== refundedIds.length) throw new Error("Tickets changed under the order lock");
  // Application fees: the passes are cancelled and the spots freed.
  const refundedApplications = chosen
    .filter((choice) => choice.item.applicationId)
    .map((choice) => choice.item.applicationId!);
  await cancelRefundedApplications(tx, refundedApplications, now);
  // Entries of a draw still open are voided, and their places go back to the draw.
  const voidedIds = chosen.filter((choice) => choice.item.drawId).flatMap((choice) => choice.units.flat());
  const voided = await voidEntries(tx, voidedIds, now);
  if ([...voided.values()].reduce((sum, count) => sum + count, 0) !== voidedIds.length) {
    throw new Error("Entries changed under the order lock");
  }

  const refundedLines: RefundedLine[] = [];
  for (const { item, units } of chosen) {
    const quantity = units.length;
    await tx
      .update(orderItems)
      .set({ refundedQuantity: sql`${orderItems.refundedQuantity} + ${quantity}` })
      .where(eq(orderItems.id, item.id));
    // The places go back on sale at once.
    if (item.ticketTypeId) {
      await tx
        .update(ticketTypes)
        .set({ sold: sql`greatest(${ticketTypes.sold} - ${quantity}, 0)`, updatedAt: now })
        .where(eq(ticketTypes.id, item.ticketTypeId));
    }
    // Merch goes back on the shelf, under its variant's lock.
    if (item.variantId) {
      await tx
        .update(productVariants)
        .set({ stock: sql`${productVariants.stock} + ${quantity}`, updatedAt: now })
        .where(eq(productVariants.id, item.variantId));
    }
    refundedLines.push({ description: item.description, quantity, amount: item.unitPrice * quantity });
  }

  const remaining = items.reduce((sum, item) => {
    const now = chosen.find((choice) => choice.item.id === item.id)?.units.length ?? 0;
    return sum + item.quantity - item.refundedQuantity - now;
  }, 0);
  // Nothing left of the order: its shipping goes back too, once (the order ends refunded).
  if (remaining === 0 && order.shipping > 0) {
    refundedLines.push({ description: "Shipping", quantity: 1, amount: order.shipping });
  }
  const amount = refundedLines.reduce((sum, line) => sum + line.amount, 0);

  let transactionId: string | null = null;
  if (amount > 0) {
    const [charge] = await tx
      .select({ id: transactions.id })
      .from(transactions)
      .where(
        and(eq(transactions.orderId, order.id), eq(transactions.kind, "charge"), eq(transactions.status, "succeeded")),
      )
      .orderBy(asc(transactions.createdAt))
      .limit(1);
    const [refund] = await tx
      .insert(transactions)
      .values({
        orderId: order.id,
        kind: "refund",
        status: "pending",
        amount,
        currency: order.currency,
        provider: order.provider,
        chargeId: charge?.id ?? null,
        reason: input.reason,
        createdAt: now,
      })
      .returning({ id: transactions.id });
    transactionId = refund!.id;
  }

  const status: OrderStatus = remaining === 0 ? "refunded" : "partly_refunded";
  await tx.update(orders).set({ status, updatedAt: now }).where(eq(orders.id, order.id));
  const count = refundedIds.length;
  const entryCount = voidedIds.length;
  const merchCount = chosen
    .filter((choice) => choice.item.variantId)
    .reduce((sum, choice) => sum + choice.units.length, 0);
  const what = [
    count > 0 ? countOf(count, "ticket", "tickets") : null,
    entryCount > 0 ? countOf(entryCount, "entry", "entries") : null,
    merchCount > 0 ? countOf(merchCount, "item of merch", "items of merch") : null,
    refundedApplications.length > 0
      ? countOf(refundedApplications.length, "application fee", "application fees")
      : null,
  ]
    .filter(Boolean)
    .join(" and ");
  await recordOrderChanges(tx, [
    {
      orderId: order.id,
      fromStatus: order.status,
      toStatus: status,
      note: `${what} refunded: ${input.reason}`,
      actorId: input.actorId,
      at: now,
    },
  ]);
  await recordAudit(tx, {
    actorId: input.actorId,
    action: "order.refund",
    subjectType: "order",
    subjectId: order.id,
    details: {
      number: formatOrderNumber(order.number),
      amount,
      currency: order.currency,
      tickets: count,
      entries: entryCount,
      merch: merchCount,
      reason: input.reason,
      to: status,
    },
  });
  return {
    ok: true,
    orderId: order.id,
    number: order.number,
    email: order.email,
    currency: order.currency,
    status,
    amount,
    lines: refundedLines,
    transactionId,
    checkedInKept,
  };
}

/** Paid orders that still hold refundable tickets for this event, for a cancelled event's refunds. */
export async function ordersToRefundForEvent(db: Db, eventId: string) {
  const rows = await db
    .selectDistinct({ orderId: tickets.orderId })
    .from(tickets)
    .innerJoin(orders, eq(orders.id, tickets.orderId))
    .where(
      and(eq(tickets.eventId, eventId), eq(tickets.status, "valid"), inArray(orders.status, REFUNDABLE_ORDER_STATUSES)),
    );
  return rows.map((row) => row.orderId);
}

export type BulkRefundOutcome = { refunded: Extract<RefundOutcome, { ok: true }>[]; failed: number };

/**
 * Refunds some lines of many orders (every holder of a cancelled event, every entrant of a
 * cancelled draw): each order in its own transaction, so one problem never holds up the rest.
 * `linesOf` says what to refund of an order now; running it again finds only what is still
 * unrefunded, so it is safe to repeat.
 */
export async function refundEachOrder(
  db: Db,
  input: {
    orderIds: string[];
    linesOf: (orderId: string) => Promise<{ orderItemId: string; quantity: number }[]>;
    actorId: string | null;
    reason: string;
    now: Date;
  },
): Promise<BulkRefundOutcome> {
  const refunded: Extract<RefundOutcome, { ok: true }>[] = [];
  let failed = 0;
  for (const orderId of input.orderIds) {
    const items = await input.linesOf(orderId);
    if (items.length === 0) continue;
    const outcome = await refundOrder(db, {
      orderId,
      items,
      actorId: input.actorId,
      reason: input.reason,
      now: input.now,
    });
    if (outcome.ok) refunded.push(outcome);
    else failed++;
  }
  return { refunded, failed };
}

/**
 * Paid orders with a show-car application fee for this event whose exhibitor pass is still valid
 * and unused: a cancelled event refunds them too.
 */
async function applicationLinesForEvent(db: Db, eventId: string, orderId?: string) {
  return db
    .select({ orderId: orderItems.orderId, id: orderItems.id })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .innerJoin(exhibitorPasses, eq(exhibitorPasses.applicationId, orderItems.applicationId))
    .where(
      and(
        eq(orderItems.kind, "application"),
        eq(orderItems.eventId, eventId),
        orderId ? eq(orderItems.orderId, orderId) : undefined,
        sql`${orderItems.refundedQuantity} < ${orderItems.quantity}`,
        eq(exhibitorPasses.status, "valid"),
        sql`${exhibitorPasses.checkedInAt} is null`,
        inArray(orders.status, REFUNDABLE_ORDER_STATUSES),
      ),
    );
}

/**
 * Refunds every holder of a cancelled event's tickets and show-car application fees: only that
 * event's lines (an order may hold others).
 */
export async function refundEventHolders(
  db: Db,
  input: { eventId: string; actorId: string | null; reason: string; now: Date },
): Promise<BulkRefundOutcome> {
  const ticketOrders = await ordersToRefundForEvent(db, input.eventId);
  const feeOrders = (await applicationLinesForEvent(db, input.eventId)).map((line) => line.orderId);
  return refundEachOrder(db, {
    ...input,
    orderIds: [...new Set([...ticketOrders, ...feeOrders])],
    linesOf: async (orderId) => {
      const lines = await db
        .select({ id: orderItems.id, quantity: sql<number>`count(${tickets.id})::int` })
        .from(orderItems)
        .innerJoin(tickets, and(eq(tickets.orderItemId, orderItems.id), eq(tickets.status, "valid")))
        .where(and(eq(orderItems.orderId, orderId), eq(orderItems.eventId, input.eventId)))
        .groupBy(orderItems.id);
      const fees = await applicationLinesForEvent(db, input.eventId, orderId);
      return [
        ...lines.map((line) => ({ orderItemId: line.id, quantity: Number(line.quantity) })),
        ...fees.map((line) => ({ orderItemId: line.id, quantity: 1 })),
      ];
    },
  });
}
