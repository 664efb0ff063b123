import { and, asc, eq, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import { recordOrderChanges } from "~/features/commerce/order-history.server";
import { formatOrderNumber } from "~/features/commerce/order-number";
import { grantCredit, returnCreditForRefund } from "~/features/credit/credit.server";
import { DEFAULT_CREDIT_MONTHS, monthsAfter } from "~/features/credit/credit-rules";
import { refundedDiscount } from "~/features/vouchers/voucher-rules";
import type { Db } from "~/server/db/client.server";
import { transactionWithRetry } from "~/server/db/retry.server";
import { formatMoney } from "~/ui/money";
import { countOf } from "~/ui/plural";
import { type OrderStatus, orderItems, orders, transactions } from "../../../db/schema";
import type { ItemKind, KindRefund, OrderRow, RefundChoice, RefundUnit } from "./item-kind";
import { kindsOf, linesOfKind } from "./kind-lines";
import { readOrderLines } from "./settle.server";

export type RefundInput = {
  orderId: string;
  /**
   * Lines and how many of each to refund; omitted refunds everything still refundable.
   * `unitIds` names the very units (a resold ticket), which must all still be valid.
   */
  items?: { orderItemId: string; quantity: number; unitIds?: string[] }[];
  actorId: string | null;
  reason: string;
  now: Date;
  /**
   * How many tickets of the order were already refunded when the form was shown. A second
   * submission of the same form finds a different number and is refused, so a double click
   * never refunds twice.
   */
  refundedBefore?: number;
  /**
   * Money kept back from what the chosen units cost, with the words the refund shows for it: the
   * value of a membership's days already had, when it is cancelled within its cooling-off days.
   */
  keepBack?: { amount: number; description: string };
  /**
   * Where the money goes (docs/credit.md): back to the card ("money", the default), or to the
   * buyer's account credit, running out at `expiresAt` (null: never). Account credit the order
   * spent always goes back to credit first, whichever is chosen.
   */
  to?: { kind: "money" } | { kind: "credit"; expiresAt: Date | null };
  /**
   * At least this much of the refund goes to the buyer's account credit, never running out,
   * whatever `to` says; the rest goes where `to` says. A moved booking carries its value to the
   * new tickets this way (docs/transfers.md "Moves").
   */
  creditAtLeast?: number;
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
      /** The part of `amount` given as account credit (the credit the order spent, then any refund to credit). */
      credit: number;
      lines: RefundedLine[];
      /** The pending refund transaction; null for free tickets, or when it all went to credit. */
      transactionId: string | null;
      /** Tickets left alone because they were already used at the gate. */
      checkedInKept: number;
    }
  | { ok: false; problem: string };

export const REFUNDABLE_ORDER_STATUSES: OrderStatus[] = ["paid", "fulfilled", "partly_refunded"];

/**
 * Refunds a paid order, or some units of its lines (refunds are admin-only). One transaction:
 * each kind locks its stock rows in the kinds' order (ADR 0007), then the order row, because
 * refunding gives places and stock back and changes the order's status. Units already used
 * (tickets checked in at the gate) or frozen (entries in a closed draw's list) are never
 * refunded. Money back is the price paid (the line's unit price snapshot) times the units
 * refunded, less those units' share of the line's voucher discount, recorded as a pending refund that the payments job sends to the provider; when a
 * refund leaves nothing of the order unrefunded, its shipping goes back with it (docs/shop.md).
 */
export async function refundOrder(db: Db, kinds: readonly ItemKind[], input: RefundInput): Promise<RefundOutcome> {
  return transactionWithRetry(db, (tx) => refundIn(tx, kinds, input));
}

type Line = OrderRow & { kindOf: ItemKind };

async function refundIn(tx: Db, kinds: readonly ItemKind[], input: RefundInput): Promise<RefundOutcome> {
  const { now } = input;
  // What an order line is for never changes after checkout, so what to lock is read before the
  // locks; how much of it was refunded is read again under the order's lock.
  const unlocked = await readOrderLines(tx, input.orderId);
  if (unlocked.length === 0) return { ok: false, problem: "This order could not be found." };
  const sessions = new Map<ItemKind, KindRefund>();
  for (const kind of kindsOf(kinds, unlocked)) {
    sessions.set(kind, await kind.refund(tx, linesOfKind(unlocked, kind), { now }));
  }
  const order = await lockRefundableOrder(tx, input.orderId);
  if ("problem" in order) return { ok: false, problem: order.problem };
  const rows = await readOrderLines(tx, order.id);
  const alreadyRefunded = rows.reduce((sum, row) => sum + row.refundedQuantity, 0);
  if (input.refundedBefore !== undefined && input.refundedBefore !== alreadyRefunded) {
    return {
      ok: false,
      problem: "This order changed since the page was opened, so nothing was refunded. Check it and try again.",
    };
  }
  const unitsByKind = new Map<ItemKind, (line: OrderRow) => RefundUnit[]>();
  for (const [kind, session] of sessions) {
    unitsByKind.set(kind, await session.units(tx, order.id, linesOfKind(rows, kind)));
  }
  const lines: Line[] = rows.map((row) => {
    const kindOf = kinds.find((kind) => kind.name === row.kind);
    if (!kindOf) throw new Error(`No item kind is called "${row.kind}"`);
    return { ...row, kindOf };
  });
  const unitsOf = (line: Line) => unitsByKind.get(line.kindOf)?.(line) ?? [];

  const picked = chooseUnits(lines, unitsOf, input.items);
  if (!picked.ok) return picked;
  const { chosen, checkedInKept } = picked;
  for (const [kind, session] of sessions) {
    const own = chosen.filter((choice) => choice.line.kindOf === kind);
    if (own.length > 0) await session.refund(tx, own, now);
  }

  const refundedLines: RefundedLine[] = [];
  for (const { line, units } of chosen) {
    await tx
      .update(orderItems)
      .set({ refundedQuantity: sql`${orderItems.refundedQuantity} + ${units.length}` })
      .where(eq(orderItems.id, line.id));
    // A voucher's discount comes back with the units, each unit's share of it and no more.
    refundedLines.push({
      description: line.description,
      quantity: units.length,
      amount: line.unitPrice * units.length - refundedDiscount(line, units.length),
    });
  }
  const refundedNow = (line: Line) => chosen.find((choice) => choice.line.id === line.id)?.units.length ?? 0;
  const remaining = lines.reduce((sum, line) => sum + line.quantity - line.refundedQuantity - refundedNow(line), 0);
  // Nothing left of the order: its shipping goes back too, once (the order ends refunded).
  if (remaining === 0 && order.shipping > 0) {
    refundedLines.push({ description: "Shipping", quantity: 1, amount: order.shipping });
  }
  if (input.keepBack && input.keepBack.amount > 0) {
    const due = refundedLines.reduce((sum, line) => sum + line.amount, 0);
    refundedLines.push({
      description: input.keepBack.description,
      quantity: 1,
      amount: -Math.min(due, input.keepBack.amount),
    });
  }
  const amount = refundedLines.reduce((sum, line) => sum + line.amount, 0);
  const toCredit = input.to?.kind === "credit" ? input.to : null;
  if (toCredit && !order.userId) {
    return { ok: false, problem: "This order's account is gone, so it can only be refunded to the card." };
  }
  // Account credit the order spent goes back first; then the money, or credit in its place.
  const creditExpiresAt = toCredit ? toCredit.expiresAt : monthsAfter(now, DEFAULT_CREDIT_MONTHS);
  const creditBack =
    amount > 0
      ? await returnCreditForRefund(tx, {
          orderId: order.id,
          upTo: amount,
          expiresAt: creditExpiresAt,
          actorId: input.actorId,
          reason: input.reason,
          now,
        })
      : 0;
  const carried =
    input.creditAtLeast && order.userId
      ? Math.max(0, Math.min(amount - creditBack, input.creditAtLeast - creditBack))
      : 0;
  if (carried > 0 && order.userId) {
    await grantCredit(tx, {
      userId: order.userId,
      amount: carried,
      currency: order.currency,
      kind: "refund",
      orderId: order.id,
      expiresAt: null,
      reason: input.reason,
      actorId: input.actorId,
      now,
    });
  }
  const rest = amount - creditBack - carried;
  if (toCredit && order.userId && rest > 0) {
    await grantCredit(tx, {
      userId: order.userId,
      amount: rest,
      currency: order.currency,
      kind: "refund",
      orderId: order.id,
      expiresAt: toCredit.expiresAt,
      reason: input.reason,
      actorId: input.actorId,
      now,
    });
  }
  const credit = toCredit ? amount : creditBack + carried;
  const transactionId = rest > 0 && !toCredit ? await recordRefund(tx, order, rest, input) : null;
  const status: OrderStatus = remaining === 0 ? "refunded" : "partly_refunded";
  await tx.update(orders).set({ status, updatedAt: now }).where(eq(orders.id, order.id));
  const counts = [...sessions.keys()].map((kind) => ({
    kind,
    count: chosen.filter((choice) => choice.line.kindOf === kind).reduce((sum, choice) => sum + choice.units.length, 0),
  }));
  await recordRefundHistory(tx, { order, status, amount, credit, counts, input });
  return {
    ok: true,
    orderId: order.id,
    number: order.number,
    email: order.email,
    currency: order.currency,
    status,
    amount,
    credit,
    lines: refundedLines,
    transactionId,
    checkedInKept,
  };
}

/** The order's row, locked, if it can be refunded; otherwise why not. */
async function lockRefundableOrder(tx: Db, orderId: string) {
  const [order] = await tx
    .select({
      id: orders.id,
      number: orders.number,
      email: orders.email,
      status: orders.status,
      currency: orders.currency,
      provider: orders.provider,
      shipping: orders.shipping,
      userId: orders.userId,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for("update");
  if (!order) return { problem: "This order could not be found." };
  if (order.status === "refunded") return { problem: "This order has already been refunded in full." };
  if (!REFUNDABLE_ORDER_STATUSES.includes(order.status)) {
    return { problem: `Only paid orders can be refunded; this one is ${order.status.replace("_", " ")}.` };
  }
  return order;
}

/** The refund in the order's history ("2 tickets and 1 entry refunded: …") and the audit log. */
async function recordRefundHistory(
  tx: Db,
  refund: {
    order: { id: string; number: number; status: OrderStatus; currency: string };
    status: OrderStatus;
    amount: number;
    /** The part of the amount given as account credit. */
    credit: number;
    counts: { kind: ItemKind; count: number }[];
    input: RefundInput;
  },
) {
  const { order, status, input } = refund;
  const what = refund.counts
    .filter(({ count }) => count > 0)
    .map(({ kind, count }) => countOf(count, kind.unit.one, kind.unit.other))
    .join(" and ");
  const asCredit =
    refund.credit > 0
      ? refund.credit === refund.amount
        ? ` (${formatMoney(refund.credit, order.currency)} to account credit)`
        : ` (${formatMoney(refund.credit, order.currency)} to account credit, ${formatMoney(refund.amount - refund.credit, order.currency)} to the card)`
      : "";
  await recordOrderChanges(tx, [
    {
      orderId: order.id,
      fromStatus: order.status,
      toStatus: status,
      note: `${what} refunded${asCredit}: ${input.reason}`,
      actorId: input.actorId,
      at: input.now,
    },
  ]);
  await recordAudit(tx, {
    actorId: input.actorId,
    action: "order.refund",
    subjectType: "order",
    subjectId: order.id,
    details: {
      number: formatOrderNumber(order.number),
      amount: refund.amount,
      credit: refund.credit,
      currency: order.currency,
      ...Object.fromEntries(refund.counts.map(({ kind, count }) => [kind.unit.other, count])),
      reason: input.reason,
      to: status,
    },
  });
}

/**
 * What to refund: the units asked for of each line (never one used or frozen), or, with no lines
 * named, every unit still valid.
 */
function chooseUnits(
  lines: Line[],
  unitsOf: (line: Line) => RefundUnit[],
  requested: RefundInput["items"],
): { ok: true; chosen: (RefundChoice & { line: Line })[]; checkedInKept: number } | { ok: false; problem: string } {
  const chosen: (RefundChoice & { line: Line })[] = [];
  let checkedInKept = 0;
  if (!requested) {
    for (const line of lines) {
      const own = unitsOf(line);
      checkedInKept += own.filter((unit) => unit.status === "checked_in").length;
      const valid = own.filter((unit) => unit.status === "valid").map((unit) => unit.ids);
      if (valid.length > 0) chosen.push({ line, units: valid });
    }
    if (chosen.length > 0) return { ok: true, chosen, checkedInKept };
    return {
      ok: false,
      problem:
        checkedInKept > 0
          ? "Nothing is left to refund: the remaining tickets were checked in at the gate."
          : "Nothing is left to refund on this order.",
    };
  }
  const seen = new Set<string>();
  for (const request of requested) {
    const line = lines.find((candidate) => candidate.id === request.orderItemId);
    if (!line || seen.has(line.id)) return { ok: false, problem: "That line is not part of this order." };
    seen.add(line.id);
    if (!Number.isInteger(request.quantity) || request.quantity < 1) {
      return { ok: false, problem: `Choose how many “${line.description}” ${line.kindOf.unit.other} to refund.` };
    }
    const own = unitsOf(line);
    const valid = own.filter((unit) => unit.status === "valid");
    const used = own.filter((unit) => unit.status === "checked_in").length;
    const frozen = own.filter((unit) => unit.status === "drawn").length;
    if (request.quantity > valid.length) {
      const left = valid.length === 0 ? "none is left to refund" : `only ${valid.length} can be refunded`;
      const why =
        used > 0
          ? ` (${used} already checked in at the gate, which cannot be refunded)`
          : frozen > 0
            ? " (the draw has closed: its entry list is final)"
            : "";
      return { ok: false, problem: `“${line.description}”: ${left}${why}.` };
    }
    const named = request.unitIds;
    const picked = named ? valid.filter((unit) => unit.ids.some((id) => named.includes(id))) : valid;
    if (named && picked.length !== request.quantity) {
      return { ok: false, problem: `“${line.description}”: that ${line.kindOf.unit.one} can no longer be refunded.` };
    }
    chosen.push({ line, units: picked.slice(0, request.quantity).map((unit) => unit.ids) });
  }
  return { ok: true, chosen, checkedInKept };
}

/** The pending refund beside the order's first successful charge, for the payments job to send. */
async function recordRefund(
  tx: Db,
  order: { id: string; currency: string; provider: (typeof orders.$inferSelect)["provider"] },
  amount: number,
  input: RefundInput,
) {
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
      createdAt: input.now,
    })
    .returning({ id: transactions.id });
  if (!refund) throw new Error("The refund was not recorded");
  return refund.id;
}
