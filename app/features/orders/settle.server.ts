import {
  and,
  asc,
  eq,
  getTableColumns,
  gt,
  inArray,
  is,
  ne,
  or,
  type Placeholder,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import { type PgTable, PgTransaction } from "drizzle-orm/pg-core";
import { applicationFeesProblem, settleApplicationFees } from "~/features/applications/applications.server";
import { releaseHolds } from "~/features/checkout/holds.server";
import { drawPhase } from "~/features/draws/draw-rules";
import { allocateEntries, readDrawStock } from "~/features/draws/entries.server";
import { ticketRemaining } from "~/features/events/sales";
import { creditCardRefusal } from "~/features/play/credit-cards.server";
import { availableUnits, readVariantStock } from "~/features/shop/stock.server";
import { newTicketCode } from "~/features/tickets/ticket-codes.server";
import { readTicketStock } from "~/features/tickets/ticket-stock.server";
import { builtOnce, builtOnceEach } from "~/server/db/built-once.server";
import type { Db } from "~/server/db/client.server";
import { jsonObject } from "~/server/db/json-object";
import { sqlState, transactionWithRetry } from "~/server/db/retry.server";
import {
  cartItems,
  carts,
  events,
  holds,
  type OrderStatus,
  orderHistory,
  orderItems,
  orders,
  type PaymentProvider,
  productVariants,
  tickets,
  ticketTypes,
  transactions,
} from "../../../db/schema";
import { orderChangeRows, recordOrderChanges } from "./order-history.server";

export type SettleInput = {
  orderId: string;
  provider: PaymentProvider;
  /** The provider's id for the payment (Stripe PaymentIntent, or the test checkout's). */
  paymentReference: string;
  /** What the provider says was paid, in minor units. */
  amount: number;
  /** When the provider says which currency was paid (Stripe does), it must be the order's. */
  currency?: string;
  /**
   * The paying card's funding type (credit, debit, prepaid), when the provider said; or how to
   * ask for it, which is done only for an order settled under the locks (draw entries have card
   * rules; held tickets, settled first, do not).
   */
  cardFunding?: string | null | (() => Promise<string | null | undefined>);
  now: Date;
  /**
   * The order with its lines, when the caller read it in a statement of its own
   * (`orderToSettleSql`): the webhook reads it in the statement that claims the notification, so
   * a payment takes one round trip fewer. Read afresh when not given.
   */
  found?: OrderToSettle;
  /**
   * A write of the caller's made in the statement that pays the order (see AlsoWhenPaid): the
   * webhook marks its event processed there, in the same commit. Made exactly when the outcome is
   * "settled".
   */
  alsoWhenPaid?: AlsoWhenPaid;
};

/** Settlement's input once the card's funding type is known. */
type KnownFunding = SettleInput & { cardFunding?: string | null };

export type SettleOutcome =
  | { kind: "settled"; orderId: string; number: number; tickets: number; entries: number; late: boolean }
  | { kind: "already_settled"; orderId: string; number: number }
  /** Money arrived that cannot be honoured; a pending refund of it has been recorded. */
  | { kind: "refund_required"; orderId: string; number: number; amount: number; reason: string }
  | { kind: "not_found" }
  /** The payment is not the order's total; the order stays unpaid and the money is refunded. */
  | { kind: "amount_mismatch"; orderId: string; number: number; expected: number; received: number };

export const LATE_SOLD_OUT_REASON =
  "The payment arrived after the places were released, and they are no longer available";
export const CANCELLED_ORDER_REASON = "The order had been cancelled when the payment arrived";
export const DUPLICATE_PAYMENT_REASON = "The order had already been paid by another payment";
export const EVENT_CANCELLED_REASON = "The event was cancelled or has ended";
export const DRAW_CLOSED_REASON = "The draw closed before the payment arrived";
export const DRAW_LIMIT_REASON = "These entries would pass the draw's limit per person";

const SETTLED_STATUSES: OrderStatus[] = ["paid", "fulfilled", "refunded", "partly_refunded"];

/**
 * Turns a payment into a paid order, exactly once (a repeated or
 * out-of-order notification never pays, issues or emails twice). The test checkout and the Stripe
 * webhook both call this. In one transaction, with the stock rows locked in the same order as
 * checkout (events, ticket types, draws, variants), then the order row:
 * - a payment already recorded answers as before (already settled, or refund required);
 * - a pending order whose holds are still live: holds become sales, tickets are issued;
 * - a payment after the holds ran out: availability is checked again under the locks and the
 *   order is honoured if the places are still free, otherwise the money is marked for refund;
 * - a payment for a cancelled or already paid order, or of the wrong amount: marked for refund.
 * Every refund decision is stored as a pending refund transaction beside the charge, in the
 * same transaction, for the payments job to send to the provider.
 */
export async function settleOrder(db: Db, input: SettleInput): Promise<SettleOutcome> {
  // Most repeated notifications come after the first was handled: one read answers them. The
  // same read brings the order's lines, with the places held for each, for settleHeldTickets.
  const { order: found, lines } = input.found ?? (await readOrderWithLines(db, input.orderId, input.now));
  const replay = replayOutcome(found, input);
  if (replay) return replay;
  const settled = await settleHeldTickets(db, found!, lines, input);
  if (settled) return settled;
  // Asked before the transaction: a provider's answer is not waited for with the stock locked.
  const cardFunding = typeof input.cardFunding === "function" ? await input.cardFunding() : input.cardFunding;
  return transactionWithRetry(db, (tx) => settleIn(tx, { ...input, cardFunding }));
}

type Order = { id: string; number: number; total: number; currency: string; userId: string | null };

/**
 * How long a hold must still have to run for its order to be settled by `settleHeldTickets`,
 * without the event's lock. Far longer than that statement can take, so no checkout can have
 * counted the hold as run out while the statement was on its way.
 */
export const HELD_SETTLEMENT_MARGIN_MS = 60_000;

type FoundOrder = NonNullable<Awaited<ReturnType<typeof readOrder>>>;

const orderColumns = {
  id: orders.id,
  number: orders.number,
  total: orders.total,
  currency: orders.currency,
  provider: orders.provider,
  userId: orders.userId,
  status: orders.status,
  paymentId: orders.providerPaymentId,
};

function readOrder(db: Db, orderId: string) {
  return db
    .select(orderColumns)
    .from(orders)
    .where(eq(orders.id, orderId))
    .then((rows) => rows[0]);
}

/** The order's holds that are live and will stay so until `until` (`safeUntil` of the time now). */
function heldWithTimeToSpare(orderId: string | SQLWrapper, until: Date | Placeholder | SQL) {
  return and(eq(holds.orderId, orderId), eq(holds.status, "active"), gt(holds.expiresAt, until));
}

/** HELD_SETTLEMENT_MARGIN_MS after `now`. */
function safeUntil(now: Date) {
  return new Date(now.getTime() + HELD_SETTLEMENT_MARGIN_MS);
}

/**
 * The order (as readOrder) and its lines, each with the places held for its ticket type that
 * stay held with time to spare (heldWithTimeToSpare), in one query: `orderToSettleSql`, which the
 * claim of a payment notification makes too. Built once per process, not per call.
 */
async function readOrderWithLines(db: Db, orderId: string, now: Date): Promise<OrderToSettle> {
  const { rows } = await orderToSettleStatement(db, { orderId, now });
  return orderToSettleFromJson(rows[0]?.to_settle);
}

const orderToSettleStatement = builtOnce<{ orderId: string; now: Date }, { to_settle: unknown }>(
  () => sql`select ${orderToSettleSql(sql.placeholder("orderId"), sql.placeholder("now"))} as to_settle`,
);

type HeldLine = Line & { held: number };

/** The order (undefined when there is none) and its lines with their places held, as settlement reads them. */
export type OrderToSettle = { order: FoundOrder | undefined; lines: HeldLine[] };

/**
 * The order with its lines and the places held for each, as settlement reads them, as one JSON
 * value (null when there is no such order): `readOrderWithLines` runs it alone, and the claim of
 * a payment notification beside the claim, handing it to `settleOrder` (`found`, after
 * `orderToSettleFromJson`). `orderId` and `now` are SQL, placeholders most often.
 */
export function orderToSettleSql(orderId: SQL | Placeholder, now: SQL | Placeholder): SQL {
  // safeUntil(now), in SQL.
  const until = sql`(${now}::timestamptz + ${sql.raw(`interval '${HELD_SETTLEMENT_MARGIN_MS} milliseconds'`)})`;
  const held = sql`(select coalesce(sum(${holds.quantity}), 0)::int from ${holds}
    where ${and(heldWithTimeToSpare(orders.id, until), eq(holds.ticketTypeId, orderItems.ticketTypeId))})`;
  return sql`(select json_build_object(
      'order', ${jsonObject(orderColumns)},
      'lines', coalesce(json_agg(${jsonObject({ ...lineColumns, held })}) filter (where ${orderItems.id} is not null), '[]'::json))
    from ${orders} left join ${orderItems} on ${eq(orderItems.orderId, orders.id)}
    where ${eq(orders.id, orderId)}
    group by ${orders.id})`;
}

/** The value `orderToSettleSql` read (null or undefined when there was no order). */
export function orderToSettleFromJson(value: unknown): OrderToSettle {
  if (!value) return { order: undefined, lines: [] };
  return value as OrderToSettle;
}

/**
 * The answer to a payment for an order that is not there (or not the provider's), or that was
 * already paid by this very payment: a replay. A paid order only moves on to fulfilled or
 * refunded, never back, so the answer needs no lock.
 */
function replayOutcome(found: Awaited<ReturnType<typeof readOrder>>, input: SettleInput): SettleOutcome | null {
  if (!found || found.provider !== input.provider) return { kind: "not_found" };
  if (SETTLED_STATUSES.includes(found.status) && found.paymentId === input.paymentReference) {
    return { kind: "already_settled", orderId: found.id, number: found.number };
  }
  return null;
}

async function settleIn(tx: Db, input: KnownFunding): Promise<SettleOutcome> {
  const { now } = input;
  // Deliveries of one payment often arrive together (Stripe's retries, the buyer's return, the
  // sweep): they queue here, on the order alone, and the ones after the first are answered as
  // replays below, instead of each queueing on the event's row behind every other buyer's
  // settlement. Taken before any row lock and by nothing else, so the lock order of ADR 0007
  // gains no cycle.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`settle:${input.orderId}`}, 0))`);
  const found = await readOrder(tx, input.orderId);
  const replay = replayOutcome(found, input);
  if (replay) return replay;
  const order: Order = found!;

  // Order lines never change after checkout, so they can be read before the locks.
  const items = await readLines(tx, order.id);
  const ticketItems = items.filter((item) => item.kind === "ticket");
  const entryItems = items.filter((item) => item.kind === "entry");
  const merchItems = items.filter((item) => item.kind === "merch");
  const applicationIds = items.flatMap((item) => (item.kind === "application" ? [item.applicationId!] : []));
  const stock = await readTicketStock(
    tx,
    ticketItems.map((item) => item.eventId!),
    now,
    { lock: true },
  );
  // Other buyers' holds count against the draw; this order's own are left out and checked below.
  const drawStock = await readDrawStock(
    tx,
    entryItems.map((item) => item.drawId!),
    now,
    { lock: true, userId: order.userId ?? undefined, exceptOrderId: order.id },
  );
  // Merch: the shelf is taken from under this lock. This order's own live holds are counted in
  // `held` here and given back below, like ticket places.
  const variantStock = await readVariantStock(
    tx,
    merchItems.map((item) => item.variantId!),
    now,
    { lock: true },
  );
  const [locked] = await tx
    .select({ status: orders.status, failureReason: orders.failureReason, paymentId: orders.providerPaymentId })
    .from(orders)
    .where(eq(orders.id, order.id))
    .for("update");
  const status = locked!.status;

  if (SETTLED_STATUSES.includes(status) && locked!.paymentId === input.paymentReference) {
    return { kind: "already_settled", orderId: order.id, number: order.number };
  }
  // The charge of an earlier delivery of this payment, if one was recorded, and the order's live
  // holds: one read, after the order's lock (every round trip here keeps the event locked longer).
  const [seen] = await tx
    .select({
      recorded: sql<{ orderId: string; amount: number; reason: string | null } | null>`(
        select json_build_object('orderId', ${transactions.orderId}, 'amount', ${transactions.amount}, 'reason', ${transactions.reason})
        from ${transactions}
        where ${and(
          eq(transactions.provider, input.provider),
          eq(transactions.providerReference, input.paymentReference),
          eq(transactions.kind, "charge"),
        )}
        limit 1)`,
      // Live holds already count these places as taken; without them, the places must still be free.
      liveHolds: sql<
        { ticketTypeId: string | null; drawId: string | null; variantId: string | null; quantity: number }[]
      >`
        coalesce((
          select json_agg(json_build_object('ticketTypeId', ${holds.ticketTypeId}, 'drawId', ${holds.drawId},
            'variantId', ${holds.variantId}, 'quantity', ${holds.quantity}))
          from ${holds}
          where ${and(eq(holds.orderId, order.id), eq(holds.status, "active"), gt(holds.expiresAt, now))}
        ), '[]'::json)`,
    })
    .from(orders)
    .where(eq(orders.id, order.id));
  const { recorded, liveHolds } = seen!;
  if (recorded) {
    if (recorded.orderId !== order.id) return { kind: "not_found" };
    // This payment was already refused (a replayed notification): answer the same way again.
    if (recorded.amount !== order.total) return mismatch(order, input);
    return refundOutcome(order, input, recorded.reason ?? locked!.failureReason ?? LATE_SOLD_OUT_REASON);
  }

  if (SETTLED_STATUSES.includes(status)) return refundPayment(tx, order, status, input, DUPLICATE_PAYMENT_REASON);
  if (status === "cancelled") return refundPayment(tx, order, status, input, CANCELLED_ORDER_REASON);

  if (input.amount !== order.total || (input.currency && input.currency.toUpperCase() !== order.currency)) {
    await refundPayment(tx, order, status, input, "The amount paid was not the order's total");
    return mismatch(order, input);
  }

  const held = new Map<string, number>();
  for (const hold of liveHolds) {
    const key = hold.ticketTypeId ?? hold.drawId ?? hold.variantId!;
    held.set(key, (held.get(key) ?? 0) + hold.quantity);
  }
  // Application fees hold nothing: approval reserved the spot.
  const late = items.some((item) =>
    item.kind === "ticket"
      ? (held.get(item.ticketTypeId!) ?? 0) < item.quantity
      : item.kind === "entry"
        ? (held.get(item.drawId!) ?? 0) < item.quantity * item.entriesPerUnit
        : item.kind === "merch"
          ? (held.get(item.variantId!) ?? 0) < item.quantity
          : false,
  );
  for (const hold of liveHolds) {
    if (hold.ticketTypeId) stock.take(hold.ticketTypeId, -hold.quantity);
    if (hold.variantId) variantStock.take(hold.variantId, -hold.quantity);
  }

  // Entries: the draw must still be open, and the caps hold under its lock, held or late.
  const wanted = new Map<string, number>();
  for (const item of entryItems) {
    wanted.set(item.drawId!, (wanted.get(item.drawId!) ?? 0) + item.quantity * item.entriesPerUnit);
  }
  for (const [drawId, entries] of wanted) {
    const draw = drawStock.draws.get(drawId);
    if (!draw || drawPhase(draw, now) !== "open") {
      return refuse(tx, order, status, input, DRAW_CLOSED_REASON, "cancelled");
    }
    const counts = drawStock.counts(drawId);
    if (counts.mine + entries > draw.maxPerMember) {
      return refuse(tx, order, status, input, DRAW_LIMIT_REASON, "cancelled");
    }
    if (counts.allocated + counts.held + entries > draw.totalEntries) {
      return refuse(tx, order, status, input, LATE_SOLD_OUT_REASON, "expired");
    }
  }

  // Show-car application fees: still approved and before the deadline, under the application locks.
  const applicationProblem = await applicationFeesProblem(tx, applicationIds, now);
  if (applicationProblem) return refuse(tx, order, status, input, applicationProblem, "cancelled");

  // Credit cards and prize draws (docs/responsible-play.md): no instant wins, a monthly cap.
  if (input.cardFunding && entryItems.length > 0) {
    await tx.update(orders).set({ cardFunding: input.cardFunding }).where(eq(orders.id, order.id));
    if (input.cardFunding === "credit") {
      const refusal = await creditCardRefusal(tx, { orderId: order.id, userId: order.userId, now });
      if (refusal) return refuse(tx, order, status, input, refusal, "cancelled");
    }
  }

  for (const item of ticketItems) {
    const event = stock.events.get(item.eventId!)!;
    if (event.status === "cancelled" || now >= event.endsAt) {
      return refuse(tx, order, status, input, EVENT_CANCELLED_REASON, "cancelled");
    }
    if (late) {
      const type = stock.types.get(item.ticketTypeId!)!;
      const remaining = ticketRemaining(event, type, stock.typesOfEvent(event.id));
      if (remaining !== null && remaining < item.quantity)
        return refuse(tx, order, status, input, LATE_SOLD_OUT_REASON, "expired");
      stock.take(type.id, item.quantity);
    }
  }

  // Merch (ADR 0008 as for tickets): a late payment is honoured only if the units are still
  // free of everyone else's holds; a held one still needs them on the shelf (staff may have
  // counted the shelf down meanwhile).
  for (const item of merchItems) {
    const variant = variantStock.variants.get(item.variantId!);
    const enough = variant && (late ? availableUnits(variant) : variant.stock) >= item.quantity;
    if (!enough) return refuse(tx, order, status, input, LATE_SOLD_OUT_REASON, "expired");
    variantStock.take(item.variantId!, item.quantity);
  }

  const paid = await paidOrderStatement(
    tx,
    { payable: "locked", alsoWhenPaid: input.alsoWhenPaid },
    paidOrderValues({
      order,
      input,
      fromStatus: status,
      items,
      note: late ? "Paid after the hold ran out; the places were still free" : "Paid",
    }),
  );
  // The order row is locked and was read pending or expired, so finding it otherwise means
  // something is badly wrong, and the whole transaction is rolled back.
  if (paid.rows.length !== 1) throw new Error(`Order ${order.id} changed while it was locked for settlement`);

  // The CHECK stock >= 0 is the last line of defence; the locked check above is the rule.
  for (const item of merchItems) {
    await tx
      .update(productVariants)
      .set({ stock: sql`${productVariants.stock} - ${item.quantity}`, updatedAt: now })
      .where(eq(productVariants.id, item.variantId!));
  }
  let entries = 0;
  for (const item of entryItems) {
    const numbers = await allocateEntries(tx, drawStock.draws.get(item.drawId!)!, {
      drawId: item.drawId!,
      userId: order.userId,
      source: "paid",
      answer: item.answer!,
      count: item.quantity * item.entriesPerUnit,
      orderId: order.id,
      orderItemId: item.id,
      picks: item.pickedNumbers,
      now,
    });
    entries += numbers.length;
  }
  await settleApplicationFees(tx, { orderId: order.id, userId: order.userId, applicationIds, now });
  const issued = ticketItems.reduce((sum, item) => sum + item.quantity, 0);
  return { kind: "settled", orderId: order.id, number: order.number, tickets: issued, entries, late };
}

const lineColumns = {
  id: orderItems.id,
  ticketTypeId: orderItems.ticketTypeId,
  eventId: orderItems.eventId,
  quantity: orderItems.quantity,
  attendeeNames: orderItems.attendeeNames,
  kind: orderItems.kind,
  drawId: orderItems.drawId,
  entriesPerUnit: orderItems.entriesPerUnit,
  answer: orderItems.answer,
  pickedNumbers: orderItems.pickedNumbers,
  applicationId: orderItems.applicationId,
  variantId: orderItems.variantId,
};

function readLines(db: Db, orderId: string) {
  return db.select(lineColumns).from(orderItems).where(eq(orderItems.orderId, orderId));
}

type Line = Awaited<ReturnType<typeof readLines>>[number];

/**
 * Rush hour's common case, settled in one statement with no transaction around it: a pending
 * order of tickets only, paid in full, whose places are all still held with
 * HELD_SETTLEMENT_MARGIN_MS or more to run. Its places already count as taken, so nothing needs
 * recounting. The statement takes its events' rows FOR SHARE (waiting for a checkout or an
 * organizer's change of those events, but not for other settlements), then the order's row, and
 * writes only if the order is still pending, its events neither cancelled nor over, every hold
 * still live and this payment not recorded before. Its locks last for that statement alone, not
 * across round trips to a busy server, so a rush of payments for one event does not queue on the
 * event's row. Answers null when any of that does not hold; the locked transaction then decides.
 */
async function settleHeldTickets(
  db: Db,
  order: FoundOrder,
  items: HeldLine[],
  input: SettleInput,
): Promise<SettleOutcome | null> {
  // Inside a caller's transaction the locks last until it ends anyway, and a failed statement
  // would abort it: the locked path is the one to take.
  if (is(db, PgTransaction) || order.status !== "pending") return null;
  if (input.amount !== order.total || (input.currency && input.currency.toUpperCase() !== order.currency)) return null;
  const { now } = input;
  if (items.length === 0 || items.some((item) => item.kind !== "ticket")) return null;
  const wanted = new Map<string, { quantity: number; held: number }>();
  for (const item of items) {
    const type = wanted.get(item.ticketTypeId!) ?? { quantity: 0, held: Number(item.held) };
    wanted.set(item.ticketTypeId!, { ...type, quantity: type.quantity + item.quantity });
  }
  if ([...wanted.values()].some((type) => type.held !== type.quantity)) return null;
  const heldTotal = items.reduce((sum, item) => sum + item.quantity, 0);

  const eventIds = [...new Set(items.map((item) => item.eventId!))].sort();
  let paid: { rows: { id: string }[] };
  try {
    paid = await paidOrderStatement(
      db,
      { payable: "held", alsoWhenPaid: input.alsoWhenPaid },
      {
        ...paidOrderValues({ order, input, fromStatus: "pending", items, note: "Paid" }),
        eventIds,
        safeUntil: safeUntil(now),
        heldTotal,
      },
    );
  } catch (error) {
    // A capacity or uniqueness check, or a lock cycle with a later change: the locked path decides.
    if (["23505", "23514", "40P01", "40001"].includes(sqlState(error) ?? "")) return null;
    throw error;
  }
  if (paid.rows.length === 1) {
    return { kind: "settled", orderId: order.id, number: order.number, tickets: heldTotal, entries: 0, late: false };
  }
  // Most often another delivery of this payment settled it a moment before.
  return replayOutcome(await readOrder(db, order.id), input);
}

/**
 * Which payments the statement that records them takes (`payable`), and a write of the caller's
 * made with it. The statement is built once for each (builtOnceEach); everything that differs
 * from one order to the next goes to PostgreSQL as a value.
 */
type PaidOrderShape = {
  /**
   * `held`, for settleHeldTickets, with no lock taken before: the order's events are taken FOR
   * SHARE in the statement itself (every condition is checked before the order's row is locked),
   * and it must be pending, its events neither cancelled nor over, all its places still held with
   * time to spare and this payment not recorded before. `locked`, for settleIn: the order's row
   * is locked already and was read pending or expired, and it must still be so.
   */
  payable: "held" | "locked";
  alsoWhenPaid?: AlsoWhenPaid;
};

/**
 * A write of the caller's made in the statement that pays the order, only once it is paid: the
 * webhook marks its event processed there, in the same commit. Every value in `write` is a
 * `sql.placeholder`, named in `values` (names other than paidOrderValues' own).
 */
export type AlsoWhenPaid = {
  /** Names the write: the statement is built once for each name. */
  name: string;
  write: (db: Db, paid: SQL) => SQL;
  values: Record<string, unknown>;
};

/**
 * The one statement that records a payment the order can take: the order becomes paid (if it is
 * payable, see PaidOrderShape), and only then its holds become sales, its tickets are issued,
 * the charge and the history are written and what was bought leaves the member's cart. Every
 * write goes to the database at once: each round trip is time the stock rows stay locked. Answers
 * the order's id if paid. Its values are paidOrderValues', with `eventIds`, `safeUntil` and
 * `heldTotal` when `held`, and the write's own.
 */
async function paidOrderStatement(
  db: Db,
  shape: PaidOrderShape,
  // The held shape's own values are needed with it only.
  values: PaidOrderValues & Partial<HeldValues>,
) {
  return paidOrderStatements(db, shape, { ...values, ...shape.alsoWhenPaid?.values });
}

/** What the `held` shape checks beside the order: its events, and its places held until `safeUntil`. */
type HeldValues = { eventIds: string[]; safeUntil: Date; heldTotal: number };

const paidOrderStatements = builtOnceEach<PaidOrderShape, Record<string, unknown>, { id: string }>(
  (shape) => `${shape.payable}:${shape.alsoWhenPaid?.name ?? ""}`,
  (db, shape) => {
    const value = (name: keyof (PaidOrderValues & HeldValues)) => sql.placeholder(name);
    const now = sql`${value("now")}::timestamptz`;
    const orderId = sql`${value("orderId")}::uuid`;
    const ifPaid = sql`exists (select 1 from paid)`;
    const ids = (name: Parameters<typeof value>[0]) => sql`any(${value(name)}::uuid[])`;

    const before: SQL[] = [];
    let payable: SQL;
    if (shape.payable === "held") {
      const lockedEvents = db
        .select({ id: events.id })
        .from(events)
        .where(and(sql`${events.id} = ${ids("eventIds")}`, ne(events.status, "cancelled"), gt(events.endsAt, now)))
        .orderBy(asc(events.id))
        .for("share");
      // The events' locks come first: every condition is checked before the order's row is locked.
      before.push(sql`locked_events as materialized (${lockedEvents.getSQL()})`);
      payable = and(
        eq(orders.status, "pending"),
        sql`(select count(*) from locked_events) = cardinality(${value("eventIds")}::uuid[])`,
        sql`(select coalesce(sum(${holds.quantity}), 0) from ${holds}
          where ${heldWithTimeToSpare(orderId, sql`${value("safeUntil")}::timestamptz`)}) = ${value("heldTotal")}::int`,
        sql`not exists (select 1 from ${transactions} where ${and(
          eq(transactions.provider, sql`${value("provider")}`),
          eq(transactions.providerReference, sql`${value("paymentReference")}`),
        )})`,
      )!;
    } else {
      payable = inArray(orders.status, ["pending", "expired"]);
    }

    const writes: SQL[] = [
      // The CHECK sold <= capacity is the last line of defence; the rule is the caller's count (the
      // places checked under the locks, or the live holds that already counted them). Every
      // settlement of an on-sale updates this one row and holds its lock until it commits, so it is
      // written last of all. PostgreSQL runs the writing CTEs the main query does not read from the
      // last listed to the first (ADR 0022), so it is listed first. `sold` holds one row per
      // ticket type: an update from a list applies only one of a row's matches.
      db
        .update(ticketTypes)
        .set({ sold: sql`${ticketTypes.sold} + sold_now.quantity`, updatedAt: now })
        .from(sql`json_to_recordset(${value("sold")}::json) as sold_now(ticket_type_id uuid, quantity int)`)
        .where(and(eq(ticketTypes.id, sql`sold_now.ticket_type_id`), ifPaid))
        .getSQL(),
      db
        .update(holds)
        .set({ status: "converted", updatedAt: now })
        .where(and(eq(holds.orderId, orderId), ifPaid))
        .getSQL(),
      ticketRows.insertIfPaid(value("tickets")),
      chargeRows.insertIfPaid(value("charges")),
      ...(shape.alsoWhenPaid ? [shape.alsoWhenPaid.write(db, ifPaid)] : []),
      historyRows.insertIfPaid(value("history")),
      // What was bought leaves the member's cart; anything else they added meanwhile stays.
      db
        .delete(cartItems)
        .where(
          and(
            inArray(
              cartItems.cartId,
              db
                .select({ id: carts.id })
                .from(carts)
                .where(eq(carts.userId, sql`${value("userId")}`)),
            ),
            or(
              sql`${cartItems.ticketTypeId} = ${ids("cartTicketTypes")}`,
              sql`${cartItems.drawId} = ${ids("cartDraws")}`,
              sql`${cartItems.applicationId} = ${ids("cartApplications")}`,
              sql`${cartItems.variantId} = ${ids("cartVariants")}`,
            ),
            ifPaid,
          ),
        )
        .getSQL(),
    ];
    // The status condition makes the change happen once even if the row lock were ever dropped.
    const markPaid = db
      .update(orders)
      .set({
        status: "paid",
        paidAt: now,
        providerPaymentId: sql`${value("paymentReference")}`,
        failureReason: null,
        // Merch waits for staff to post it or put it aside for collection (`fulfilment` is then
        // "unfulfilled"; null for an order with no merch).
        fulfilmentStatus: sql`coalesce(${value("fulfilment")}::text, ${orders.fulfilmentStatus})`,
        updatedAt: now,
      })
      .where(and(eq(orders.id, orderId), payable))
      .returning({ id: orders.id });
    const parts = [
      ...before,
      // getSQL(): a query builder put straight into sql`` would come out in parentheses.
      sql`paid as (${markPaid.getSQL()})`,
      ...writes.map((write, index) => sql`${sql.raw(`write_${index}`)} as (${write})`),
    ];
    return sql`with ${sql.join(parts, sql`, `)} select id from paid`;
  },
);

/** What paidOrderStatement writes for an order: the values that differ from one order to the next. */
type PaidOrderValues = ReturnType<typeof paidOrderValues>;

function paidOrderValues(input: {
  order: Order;
  input: SettleInput;
  fromStatus: OrderStatus;
  items: Line[];
  note: string;
}) {
  const { order, items } = input;
  const { now, amount, provider, paymentReference } = input.input;
  const ticketItems = items.filter((item) => item.kind === "ticket");
  const entryItems = items.filter((item) => item.kind === "entry");
  const merchItems = items.filter((item) => item.kind === "merch");

  const issued: (typeof tickets.$inferInsert)[] = [];
  const soldByType = new Map<string, number>();
  for (const item of ticketItems) {
    soldByType.set(item.ticketTypeId!, (soldByType.get(item.ticketTypeId!) ?? 0) + item.quantity);
    for (let index = 0; index < item.quantity; index++) {
      issued.push({
        orderItemId: item.id,
        orderId: order.id,
        ticketTypeId: item.ticketTypeId!,
        eventId: item.eventId!,
        userId: order.userId,
        attendeeName: item.attendeeNames[index] || null,
        code: newTicketCode(),
        createdAt: now,
        updatedAt: now,
      });
    }
  }
  // A free order settles with nothing charged, and so no charge to record.
  const charges: (typeof transactions.$inferInsert)[] =
    amount > 0
      ? [
          {
            orderId: order.id,
            kind: "charge",
            status: "succeeded",
            amount,
            currency: order.currency,
            provider,
            providerReference: paymentReference,
            createdAt: now,
            completedAt: now,
          },
        ]
      : [];
  const history = orderChangeRows([
    { orderId: order.id, fromStatus: input.fromStatus, toStatus: "paid", note: input.note, at: now },
  ]);
  return {
    orderId: order.id,
    now,
    provider,
    paymentReference,
    userId: order.userId,
    tickets: ticketRows.json(issued),
    charges: chargeRows.json(charges),
    history: historyRows.json(history),
    sold: JSON.stringify([...soldByType].map(([typeId, quantity]) => ({ ticket_type_id: typeId, quantity }))),
    cartTicketTypes: ticketItems.map((item) => item.ticketTypeId!),
    cartDraws: entryItems.map((item) => item.drawId!),
    cartApplications: items.flatMap((item) => (item.kind === "application" ? [item.applicationId!] : [])),
    cartVariants: merchItems.map((item) => item.variantId!),
    fulfilment: merchItems.length > 0 ? "unfulfilled" : null,
  };
}

/**
 * Rows of `table` that paidOrderStatement writes from one JSON parameter, `keys` being the columns
 * it writes. Their names are looked up once, when this module loads, not on every payment.
 */
function paidRows<T extends PgTable>(table: T, keys: readonly (keyof T["$inferInsert"] & string)[]) {
  const columns = getTableColumns(table);
  const names = keys.map((key) => columns[key]!.name);
  const list = sql.join(
    names.map((name) => sql.identifier(name)),
    sql`, `,
  );
  return {
    /** `rows` as the JSON `insertIfPaid` reads: the `keys` under their column names. */
    json(rows: T["$inferInsert"][]): string {
      return JSON.stringify(
        rows.map((row) =>
          Object.fromEntries(
            names.map((name, index) => [name, (row as Record<string, unknown>)[keys[index]!] ?? null]),
          ),
        ),
      );
    },
    /**
     * `insert into table (…) select … from json_populate_recordset(…)`: the rows of the JSON
     * value `records` (none for an empty list), read with the table's own column types, written
     * only once the order has been marked paid in the same statement (the `paid` CTE).
     */
    insertIfPaid(records: Placeholder): SQL {
      return sql`insert into ${table} (${list}) select ${list} from json_populate_recordset(null::${table}, ${records}::json) where exists (select 1 from paid)`;
    },
  };
}

const ticketRows = paidRows(tickets, [
  "orderItemId",
  "orderId",
  "ticketTypeId",
  "eventId",
  "userId",
  "attendeeName",
  "code",
  "createdAt",
  "updatedAt",
]);
const chargeRows = paidRows(transactions, [
  "orderId",
  "kind",
  "status",
  "amount",
  "currency",
  "provider",
  "providerReference",
  "createdAt",
  "completedAt",
]);
const historyRows = paidRows(orderHistory, ["orderId", "fromStatus", "toStatus", "note", "actorId", "createdAt"]);

/**
 * A payment that cannot be honoured: the order ends expired (its places went to others) or
 * cancelled (its event did), its holds go, and the money goes back.
 */
async function refuse(
  tx: Db,
  order: Order,
  status: OrderStatus,
  input: SettleInput,
  reason: string,
  outcome: "expired" | "cancelled",
) {
  // An order that already expired stays expired; only the reason is brought up to date.
  const toStatus = status === "pending" || outcome === "cancelled" ? outcome : status;
  await tx
    .update(orders)
    .set({ status: toStatus, failureReason: reason, updatedAt: input.now })
    .where(eq(orders.id, order.id));
  await releaseHolds(tx, [order.id], input.now);
  return refundPayment(tx, order, status, input, reason, toStatus);
}

/**
 * Records the payment and a pending refund of all of it. The order's status is left as it is
 * (or set by the caller); the history says why the money goes back.
 */
async function refundPayment(
  tx: Db,
  order: Order,
  status: OrderStatus,
  input: SettleInput,
  reason: string,
  toStatus: OrderStatus = status,
): Promise<SettleOutcome> {
  const currency = (input.currency ?? order.currency).toUpperCase();
  if (input.amount <= 0) {
    await recordOrderChanges(tx, [{ orderId: order.id, fromStatus: status, toStatus, note: reason, at: input.now }]);
    return refundOutcome(order, input, reason);
  }
  const [charge] = await tx
    .insert(transactions)
    .values({
      orderId: order.id,
      kind: "charge",
      status: "succeeded",
      amount: input.amount,
      currency,
      provider: input.provider,
      providerReference: input.paymentReference,
      reason,
      createdAt: input.now,
      completedAt: input.now,
    })
    .returning({ id: transactions.id });
  await tx.insert(transactions).values({
    orderId: order.id,
    kind: "refund",
    status: "pending",
    amount: input.amount,
    currency,
    provider: input.provider,
    chargeId: charge!.id,
    reason,
    createdAt: input.now,
  });
  await recordOrderChanges(tx, [
    {
      orderId: order.id,
      fromStatus: status,
      toStatus,
      note: `Payment ${input.paymentReference} to be refunded: ${reason}`,
      at: input.now,
    },
  ]);
  return refundOutcome(order, input, reason);
}

function mismatch(order: Order, input: SettleInput): SettleOutcome {
  return {
    kind: "amount_mismatch",
    orderId: order.id,
    number: order.number,
    expected: order.total,
    received: input.amount,
  };
}

function refundOutcome(order: Order, input: SettleInput, reason: string): SettleOutcome {
  return { kind: "refund_required", orderId: order.id, number: order.number, amount: input.amount, reason };
}
