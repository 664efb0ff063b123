import { and, asc, eq, gt, inArray, is, type Placeholder, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { releaseHolds } from "~/features/commerce/holds.server";
import { orderChangeRows, recordOrderChanges } from "~/features/commerce/order-history.server";
import { lateCreditRefusal } from "~/features/credit/credit.server";
import { lateUseRefusal } from "~/features/vouchers/voucher-uses.server";
import { builtOnce, builtOnceEach } from "~/server/db/built-once.server";
import type { Db } from "~/server/db/client.server";
import { jsonObject } from "~/server/db/json-object";
import { sqlState, transactionWithRetry } from "~/server/db/retry.server";
import {
  cartItems,
  carts,
  holds,
  type OrderStatus,
  orderHistory,
  orderItems,
  orders,
  type PaymentProvider,
  transactions,
  voucherUses,
} from "../../../db/schema";
import { HOLD_COLUMNS, type HoldRow, type ItemKind, type KindSettlement, type OrderRow } from "./item-kind";
import { kindsOf, lineColumnsOf, linesOfKind } from "./kind-lines";
import { paidRows } from "./paid-rows.server";

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
  /** `issued`: what paying made, by kind (tickets issued, entries given numbers…). */
  | { kind: "settled"; orderId: string; number: number; issued: Record<string, number>; late: boolean }
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

const SETTLED_STATUSES: OrderStatus[] = ["paid", "fulfilled", "refunded", "partly_refunded"];

/**
 * How long a hold must still have to run for its order to be settled by the fast path, without
 * the stock locks. Far longer than that statement can take, so no checkout can have counted the
 * hold as run out while the statement was on its way.
 */
const HELD_SETTLEMENT_MARGIN_MS = 60_000;

type Order = { id: string; number: number; total: number; currency: string; userId: string | null };

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

type FoundOrder = Order & { provider: PaymentProvider; status: OrderStatus; paymentId: string | null };

const lineColumns = {
  ...lineColumnsOf(orderItems),
  eventId: orderItems.eventId,
  description: orderItems.description,
  unitPrice: orderItems.unitPrice,
  discount: orderItems.discount,
  refundedQuantity: orderItems.refundedQuantity,
  renewsMembershipId: orderItems.renewsMembershipId,
};

/** An order's lines, oldest first, as every kind reads them. */
export function readOrderLines(db: Db, orderId: string): Promise<OrderRow[]> {
  return db
    .select(lineColumns)
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.createdAt), asc(orderItems.id));
}

type HeldLine = OrderRow & { held: number };

/** The order (undefined when there is none) and its lines with their places held, as settlement reads them. */
export type OrderToSettle = { order: FoundOrder | undefined; lines: HeldLine[] };

/** The value `orderToSettleSql` read (null or undefined when there was no order). */
export function orderToSettleFromJson(value: unknown): OrderToSettle {
  if (!value) return { order: undefined, lines: [] };
  return value as OrderToSettle;
}

/**
 * A write of the caller's made in the statement that pays the order, only once it is paid: the
 * webhook marks its event processed there, in the same commit. Every value in `write` is a
 * `sql.placeholder`, named in `values` (names other than the statement's own).
 */
export type AlsoWhenPaid = {
  /** Names the write: the statement is built once for each name. */
  name: string;
  write: (db: Db, paid: SQL) => SQL;
  values: Record<string, unknown>;
};

function readOrder(db: Db, orderId: string): Promise<FoundOrder | undefined> {
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
 * The answer to a payment for an order that is not there (or not the provider's), or that was
 * already paid by this very payment: a replay. A paid order only moves on to fulfilled or
 * refunded, never back, so the answer needs no lock.
 */
function replayOutcome(found: FoundOrder | undefined, input: SettleInput): SettleOutcome | null {
  if (!found || found.provider !== input.provider) return { kind: "not_found" };
  if (SETTLED_STATUSES.includes(found.status) && found.paymentId === input.paymentReference) {
    return { kind: "already_settled", orderId: found.id, number: found.number };
  }
  return null;
}

function paysInFull(order: Order, input: SettleInput) {
  return input.amount === order.total && (!input.currency || input.currency.toUpperCase() === order.currency);
}

/**
 * Settlement for these kinds (the composition root's list): turns a payment into a paid order,
 * exactly once (a repeated or out-of-order notification never pays, issues or emails twice). The
 * test checkout and the Stripe webhook both call `settleOrder`. In one transaction, with each
 * kind's stock rows locked in the kinds' order (as checkout locks them), then the order row:
 * - a payment already recorded answers as before (already settled, or refund required);
 * - a pending order whose holds are still live: holds become sales, what was bought is issued;
 * - a payment after the holds ran out: each kind checks availability again under the locks and
 *   the order is honoured if the places are still free, otherwise the money is marked for refund;
 * - a payment for a cancelled or already paid order, or of the wrong amount: marked for refund.
 * Every refund decision is stored as a pending refund transaction beside the charge, in the
 * same transaction, for the payments job to send to the provider.
 */
export function settlementFor(kinds: readonly ItemKind[]) {
  const statements = paidOrderStatements(kinds);
  const paidStatement = (db: Db, shape: PaidOrderShape, values: Record<string, unknown>) =>
    statements(db, shape, { ...values, ...shape.alsoWhenPaid?.values });
  const fast = kinds.filter((kind) => kind.fastSettle);

  /**
   * The order with its lines and, for a kind with a fast path, the places held for each line
   * that stay held with time to spare, as one JSON value (null when there is no such order):
   * `settleOrder` runs it alone, and the claim of a payment notification beside the claim,
   * handing it over as `found`. `orderId` and `now` are SQL, placeholders most often.
   */
  function orderToSettleSql(orderId: SQL | Placeholder, now: SQL | Placeholder): SQL {
    const until = sql`(${now}::timestamptz + ${sql.raw(`interval '${HELD_SETTLEMENT_MARGIN_MS} milliseconds'`)})`;
    const heldOf = (
      kind: ItemKind,
    ) => sql`when ${sql.raw(`'${kind.name}'`)} then (select coalesce(sum(${holds.quantity}), 0)::int from ${holds}
      where ${and(heldWithTimeToSpare(orders.id, until), eq(holds.kind, orderItems.kind), kind.fastSettle?.holdOfLine)})`;
    const held =
      fast.length === 0 ? sql`0` : sql`(case ${orderItems.kind} ${sql.join(fast.map(heldOf), sql` `)} else 0 end)`;
    return sql`(select json_build_object(
        'order', ${jsonObject(orderColumns)},
        'lines', coalesce(json_agg(${jsonObject({ ...lineColumns, held })}) filter (where ${orderItems.id} is not null), '[]'::json))
      from ${orders} left join ${orderItems} on ${eq(orderItems.orderId, orders.id)}
      where ${eq(orders.id, orderId)}
      group by ${orders.id})`;
  }

  const orderToSettleStatement = builtOnce<{ orderId: string; now: Date }, { to_settle: unknown }>(
    () => sql`select ${orderToSettleSql(sql.placeholder("orderId"), sql.placeholder("now"))} as to_settle`,
  );

  async function settleOrder(db: Db, input: SettleInput): Promise<SettleOutcome> {
    // Most repeated notifications come after the first was handled: one read answers them. The
    // same read brings the order's lines, with the places held for each, for the fast path.
    const found = input.found ?? orderToSettleFromJson((await orderToSettleStatement(db, input)).rows[0]?.to_settle);
    const replay = replayOutcome(found.order, input);
    if (replay || !found.order) return replay ?? { kind: "not_found" };
    const settled = await settleHeld(db, found.order, found.lines, input);
    if (settled) return settled;
    // Asked before the transaction: a provider's answer is not waited for with the stock locked.
    const cardFunding = typeof input.cardFunding === "function" ? await input.cardFunding() : input.cardFunding;
    return transactionWithRetry(db, (tx) => settleIn(tx, { ...input, cardFunding }));
  }

  /**
   * Rush hour's common case, settled in one statement with no transaction around it: a pending
   * order of one kind that has a fast path (tickets), paid in full, whose places are all still
   * held with HELD_SETTLEMENT_MARGIN_MS or more to run. Its places already count as taken, so
   * nothing needs recounting. The statement takes what the kind locks for share (an event's row,
   * waiting for a checkout or an organizer's change but not for other settlements), then the
   * order's row, and writes only if the order is still pending, the kind's conditions hold, every
   * hold is still live and this payment was not recorded before. Answers null when any of that
   * does not hold; the locked transaction then decides.
   */
  async function settleHeld(db: Db, order: FoundOrder, lines: HeldLine[], input: SettleInput) {
    // Inside a caller's transaction the locks last until it ends anyway, and a failed statement
    // would abort it: the locked path is the one to take.
    if (is(db, PgTransaction) || order.status !== "pending" || !paysInFull(order, input)) return null;
    const [kind, ...others] = kindsOf(kinds, lines);
    if (!kind?.fastSettle || others.length > 0) return null;
    if (lines.some((line) => Number(line.held) !== line.quantity)) return null;
    let paid: { rows: { id: string }[] };
    try {
      paid = await paidStatement(
        db,
        { payable: kind, alsoWhenPaid: input.alsoWhenPaid },
        {
          ...paidValues(kinds, { order, input, fromStatus: "pending", lines, note: "Paid" }),
          ...prefixed(kind, kind.fastSettle.values(lines)),
          safeUntil: safeUntil(input.now),
          heldTotal: lines.reduce((sum, line) => sum + line.quantity, 0),
        },
      );
    } catch (error) {
      // A capacity or uniqueness check, or a lock cycle with a later change: the locked path decides.
      if (["23505", "23514", "40P01", "40001"].includes(sqlState(error) ?? "")) return null;
      throw error;
    }
    if (paid.rows.length === 1) {
      const issued = { [kind.name]: lines.reduce((sum, line) => sum + line.quantity, 0) };
      return { kind: "settled" as const, orderId: order.id, number: order.number, issued, late: false };
    }
    // Most often another delivery of this payment settled it a moment before.
    return replayOutcome(await readOrder(db, order.id), input);
  }

  async function settleIn(tx: Db, input: KnownFunding): Promise<SettleOutcome> {
    const { now } = input;
    // Deliveries of one payment often arrive together (Stripe's retries, the buyer's return, the
    // sweep): they queue here, on the order alone, and the ones after the first are answered as
    // replays below, instead of each queueing on the stock rows behind every other buyer's
    // settlement. Taken before any row lock and by nothing else, so the lock order gains no cycle.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`settle:${input.orderId}`}, 0))`);
    const found = await readOrder(tx, input.orderId);
    const replay = replayOutcome(found, input);
    if (replay || !found) return replay ?? { kind: "not_found" };
    const order: Order = found;

    // Order lines never change after checkout, so they can be read before the locks.
    const lines = await readOrderLines(tx, order.id);
    const sessions: { kind: ItemKind; session: KindSettlement }[] = [];
    for (const kind of kindsOf(kinds, lines)) {
      sessions.push({
        kind,
        session: await kind.settle(tx, linesOfKind(lines, kind), { order, now, provider: input.provider }),
      });
    }
    const seen = await lockAndReadOrder(tx, order.id, input);
    if (SETTLED_STATUSES.includes(seen.status) && seen.paymentId === input.paymentReference) {
      return { kind: "already_settled", orderId: order.id, number: order.number };
    }
    const { recorded, liveHolds, status } = seen;
    if (recorded) {
      if (recorded.orderId !== order.id) return { kind: "not_found" };
      // This payment was already refused (a replayed notification): answer the same way again.
      if (recorded.amount !== order.total) return mismatch(order, input);
      return refundOutcome(order, input, recorded.reason ?? seen.failureReason ?? LATE_SOLD_OUT_REASON);
    }
    if (SETTLED_STATUSES.includes(status)) return refundPayment(tx, order, status, input, DUPLICATE_PAYMENT_REASON);
    if (status === "cancelled") return refundPayment(tx, order, status, input, CANCELLED_ORDER_REASON);
    if (!paysInFull(order, input)) {
      await refundPayment(tx, order, status, input, "The amount paid was not the order's total");
      return mismatch(order, input);
    }

    // A line short of its live holds was paid for after they ran out: every kind checks again.
    let late = false;
    for (const { kind, session } of sessions) late = session.short(linesOfKind(liveHolds, kind)) || late;
    for (const { session } of sessions) {
      const refusal = await session.refusal(tx, { late, cardFunding: input.cardFunding });
      if (refusal) return refuse(tx, order, status, input, refusal.reason, refusal.outcome);
    }
    const voucherRefusal = late ? await lateUseRefusal(tx, order.id, now) : null;
    if (voucherRefusal) return refuse(tx, order, status, input, voucherRefusal, "expired");
    const creditRefusal = status === "expired" ? await lateCreditRefusal(tx, order.id) : null;
    if (creditRefusal) return refuse(tx, order, status, input, creditRefusal, "expired");

    const paid = await paidStatement(
      tx,
      { payable: "locked", alsoWhenPaid: input.alsoWhenPaid },
      paidValues(kinds, {
        order,
        input,
        fromStatus: status,
        lines,
        note: late ? "Paid after the hold ran out; the places were still free" : "Paid",
      }),
    );
    // The order row is locked and was read pending or expired, so finding it otherwise means
    // something is badly wrong, and the whole transaction is rolled back.
    if (paid.rows.length !== 1) throw new Error(`Order ${order.id} changed while it was locked for settlement`);
    const issued: Record<string, number> = {};
    for (const { kind, session } of sessions) issued[kind.name] = (await session.afterPaid(tx)).issued;
    return { kind: "settled", orderId: order.id, number: order.number, issued, late };
  }

  return { settleOrder, orderToSettleSql };
}

/**
 * The order's row, locked, with the charge of an earlier delivery of this payment if one was
 * recorded and the order's live holds: one read after the order's lock (every round trip here
 * keeps the stock locked longer).
 */
async function lockAndReadOrder(tx: Db, orderId: string, input: SettleInput) {
  const [locked] = await tx
    .select({ status: orders.status, failureReason: orders.failureReason, paymentId: orders.providerPaymentId })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for("update");
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
      liveHolds: sql<HoldRow[]>`
        coalesce((
          select json_agg(json_build_object(${sql.join(
            HOLD_COLUMNS.map((column) => sql`${sql.raw(`'${column}'`)}, ${holds[column]}`),
            sql`, `,
          )}))
          from ${holds}
          where ${and(eq(holds.orderId, orderId), eq(holds.status, "active"), gt(holds.expiresAt, input.now))}
        ), '[]'::json)`,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!locked || !seen) throw new Error(`Order ${orderId} went away while it was being settled`);
  return { ...locked, ...seen };
}

/** A kind's own values, under the names its `value(name)` placeholders carry. */
function prefixed(kind: ItemKind, values: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [`${kind.name}_${name}`, value]));
}

function kindValue(kind: ItemKind) {
  return (name: string) => sql.placeholder(`${kind.name}_${name}`);
}

/**
 * Which payments the statement that records them takes (`payable`), and a write of the caller's
 * made with it. The statement is built once for each (builtOnceEach); everything that differs
 * from one order to the next goes to PostgreSQL as a value.
 * - a kind with a fast path, for `settleHeld`, with no lock taken before: what the kind locks is
 *   taken FOR SHARE in the statement itself (every condition is checked before the order's row
 *   is locked), and the order must be pending, the kind's conditions hold, all its places still
 *   held with time to spare and this payment not recorded before;
 * - `locked`, for settleIn: the order's row is locked already and was read pending or expired,
 *   and it must still be so.
 */
type PaidOrderShape = { payable: ItemKind | "locked"; alsoWhenPaid?: AlsoWhenPaid };

/**
 * The one statement that records a payment the order can take: the order becomes paid (if it is
 * payable, see PaidOrderShape), and only then its holds become sales, each kind writes what paying
 * writes for it (tickets issued, places sold), the charge and the history are written and what
 * was bought leaves the member's cart. Every write goes to the database at once: each round trip
 * is time the stock rows stay locked. Answers the order's id if paid.
 */
function paidOrderStatements(kinds: readonly ItemKind[]) {
  return builtOnceEach<PaidOrderShape, Record<string, unknown>, { id: string }>(
    (shape) => `${shape.payable === "locked" ? "locked" : shape.payable.name}:${shape.alsoWhenPaid?.name ?? ""}`,
    (db, shape) => {
      const value = (name: string) => sql.placeholder(name);
      const now = sql`${value("now")}::timestamptz`;
      const orderId = sql`${value("orderId")}::uuid`;
      const ifPaid = sql`exists (select 1 from paid)`;

      const before: SQL[] = [];
      let payable: SQL;
      if (shape.payable === "locked") {
        payable = inArray(orders.status, ["pending", "expired"]);
      } else {
        const own = shape.payable.fastSettle?.payable(db, kindValue(shape.payable));
        if (!own) throw new Error(`${shape.payable.name} has no fast path`);
        before.push(...own.before);
        payable = and(
          eq(orders.status, "pending"),
          own.condition,
          sql`(select coalesce(sum(${holds.quantity}), 0) from ${holds}
            where ${heldWithTimeToSpare(orderId, sql`${value("safeUntil")}::timestamptz`)}) = ${value("heldTotal")}::int`,
          sql`not exists (select 1 from ${transactions} where ${and(
            eq(transactions.provider, sql`${value("provider")}`),
            eq(transactions.providerReference, sql`${value("paymentReference")}`),
          )})`,
        ) as SQL;
      }

      const writes: SQL[] = [
        // The kinds' writes come first: PostgreSQL runs the writing CTEs the main query does not
        // read from the last listed to the first (ADR 0022), so a kind's update of a row every
        // settlement of an on-sale updates (a ticket type's `sold`) runs last and holds its lock
        // for the shortest time.
        ...kinds.flatMap((kind) => kind.paid.writes(db, ifPaid, kindValue(kind))),
        db
          .update(holds)
          .set({ status: "converted", updatedAt: now })
          .where(and(eq(holds.orderId, orderId), ifPaid))
          .getSQL(),
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
              sql`(${sql.join(
                kinds.map((kind) => kind.paid.boughtInCart(kindValue(kind))),
                sql` or `,
              )})`,
              ifPaid,
            ),
          )
          .getSQL(),
        // So does the code it used: the next order starts without it.
        db
          .update(carts)
          .set({ voucherId: null })
          .where(
            and(
              eq(carts.userId, sql`${value("userId")}`),
              inArray(
                carts.voucherId,
                db.select({ id: voucherUses.voucherId }).from(voucherUses).where(eq(voucherUses.orderId, orderId)),
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
          // Goods wait for staff to post them or put them aside for collection (`fulfilment` is
          // then "unfulfilled"; null for an order with nothing to hand over).
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
}

/** What the statement paying an order writes for it: the values that differ from one order to the next. */
function paidValues(
  kinds: readonly ItemKind[],
  input: { order: Order; input: SettleInput; fromStatus: OrderStatus; lines: OrderRow[]; note: string },
) {
  const { order, lines } = input;
  const { now, amount, provider, paymentReference } = input.input;
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
  const delivered = kindsOf(kinds, lines).some((kind) => kind.delivered);
  return Object.assign(
    {
      orderId: order.id,
      now,
      provider,
      paymentReference,
      userId: order.userId,
      charges: chargeRows.json(charges),
      history: historyRows.json(history),
      fulfilment: delivered ? "unfulfilled" : null,
    },
    ...kinds.map((kind) => prefixed(kind, kind.paid.values(linesOfKind(lines, kind), order, now))),
  );
}

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
    chargeId: charge?.id ?? null,
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
