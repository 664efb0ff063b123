import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  checkoutFor,
  createBuyers,
  createTestEvent,
  fillCart,
  NOW,
  paidInFull,
} from "~/features/checkout/stock.test-support";
import { expireHolds } from "~/features/commerce/holds.server";
import { cancelOrder } from "~/features/orders/cancel.server";
import { refundOrder, settleOrder, startCheckout } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { auditLog, orderHistory, orders, transactions } from "../../../db/schema";
import { creditStatement, EXPIRY_REASON, expireCredit, LATE_CREDIT_REASON } from "./credit.server";
import { giveCredit, ledgerOf } from "./credit.test-support";

const database = freshDatabasePerFile();
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);
const days = (n: number) => new Date(NOW.getTime() + n * 86_400_000);

/** A member with `credit` pence of account credit, and a cart of `tickets` £25 tickets. */
async function memberWithCredit(credit: number, tickets = 2, expiresAt: Date | null = days(30)) {
  const { db } = database();
  const [member] = await createBuyers(db, 1);
  const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult", price: 2500 }] });
  if (credit > 0) await giveCredit(db, { userId: member!.id, amount: credit, expiresAt, now: minutes(-60) });
  const cartId = await fillCart(db, member!.id, [{ ticketTypeId: typeIds[0]!, quantity: tickets }]);
  return { member: member!, cartId };
}

async function orderRow(orderId: string) {
  const [order] = await database()
    .db.select({ status: orders.status, total: orders.total, credit: orders.credit, subtotal: orders.subtotal })
    .from(orders)
    .where(eq(orders.id, orderId));
  return order!;
}

async function available(userId: string, now = NOW) {
  return (await creditStatement(database().db, { userId, now })).available;
}

describe("checkout with account credit", () => {
  it("spends the credit first and asks the provider for the rest", async () => {
    const { db } = database();
    const { member, cartId } = await memberWithCredit(1000);
    const result = await startCheckout(db, checkoutFor(member, cartId));
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.order.total).toBe(4000);
    expect(await orderRow(result.order.id)).toEqual({ status: "pending", total: 4000, credit: 1000, subtotal: 5000 });
    expect(await available(member.id)).toBe(0);
    const [history] = await db.select().from(orderHistory).where(eq(orderHistory.orderId, result.order.id));
    expect(history?.note).toBe("Checkout started; £10.00 of account credit used");

    const outcome = await settleOrder(db, paidInFull(result.order));
    expect(outcome.kind).toBe("settled");
    expect(await orderRow(result.order.id)).toMatchObject({ status: "paid", total: 4000, credit: 1000 });
  });

  it("pays the whole order when the credit covers it, with nothing for the provider to charge", async () => {
    const { db } = database();
    const { member, cartId } = await memberWithCredit(8000);
    const result = await startCheckout(db, checkoutFor(member, cartId));
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.order.total).toBe(0);
    const outcome = await settleOrder(db, { ...paidInFull(result.order), paymentReference: `free_${result.order.id}` });
    expect(outcome.kind).toBe("settled");
    expect(await orderRow(result.order.id)).toMatchObject({ status: "paid", total: 0, credit: 5000 });
    expect(await available(member.id)).toBe(3000);
  });

  it("gives the credit back when the order is cancelled, expires unpaid or is replaced", async () => {
    const { db } = database();
    const { member, cartId } = await memberWithCredit(1000);
    const first = await startCheckout(db, checkoutFor(member, cartId));
    if (!first.ok) throw new Error("checkout refused");
    // A newer checkout replaces the first: its credit comes back and is spent again.
    const second = await startCheckout(db, checkoutFor(member, cartId, minutes(1)));
    if (!second.ok) throw new Error("checkout refused");
    expect(await orderRow(first.order.id)).toMatchObject({ status: "cancelled" });
    expect(await orderRow(second.order.id)).toMatchObject({ credit: 1000, total: 4000 });
    expect(await available(member.id, minutes(1))).toBe(0);

    expect(
      await cancelOrder(db, { orderId: second.order.id, reason: "You cancelled the payment", now: minutes(2) }),
    ).toEqual({
      kind: "cancelled",
    });
    expect(await available(member.id, minutes(2))).toBe(1000);

    const third = await startCheckout(db, checkoutFor(member, cartId, minutes(3)));
    if (!third.ok) throw new Error("checkout refused");
    expect(await available(member.id, minutes(3))).toBe(0);
    await expireHolds(db, minutes(30));
    expect(await orderRow(third.order.id)).toMatchObject({ status: "expired" });
    expect(await available(member.id, minutes(30))).toBe(1000);

    const ledger = await ledgerOf(db, member.id);
    expect(ledger.map((line) => `${line.kind} ${line.amount}`)).toEqual([
      "adjustment 1000",
      "spend -1000",
      "spend_returned 1000",
      "spend -1000",
      "spend_returned 1000",
      "spend -1000",
      "spend_returned 1000",
    ]);
    // Given back, the credit keeps the expiry of the credit it was spent from.
    expect(ledger.at(-1)?.expiresAt).toEqual(days(30));
  });

  it("refunds a payment that arrives after the order expired and its credit came back", async () => {
    const { db } = database();
    const { member, cartId } = await memberWithCredit(1000);
    const result = await startCheckout(db, checkoutFor(member, cartId));
    if (!result.ok) throw new Error("checkout refused");
    await expireHolds(db, minutes(30));
    const outcome = await settleOrder(db, paidInFull(result.order, minutes(31)));
    expect(outcome).toMatchObject({ kind: "refund_required", reason: LATE_CREDIT_REASON, amount: 4000 });
    expect(await orderRow(result.order.id)).toMatchObject({ status: "expired" });
    expect(await available(member.id, minutes(31))).toBe(1000);
  });
});

describe("refunds and account credit", () => {
  async function paidWithCredit(credit: number) {
    const { db } = database();
    const { member, cartId } = await memberWithCredit(credit);
    const result = await startCheckout(db, checkoutFor(member, cartId));
    if (!result.ok) throw new Error("checkout refused");
    const settled = await settleOrder(db, paidInFull(result.order));
    expect(settled.kind).toBe("settled");
    return { member, orderId: result.order.id };
  }

  async function refundsOf(orderId: string) {
    return database()
      .db.select({ amount: transactions.amount, status: transactions.status })
      .from(transactions)
      .where(and(eq(transactions.orderId, orderId), eq(transactions.kind, "refund")));
  }

  it("gives the credit the order spent back first, then the rest to the card", async () => {
    const { db } = database();
    const { member, orderId } = await paidWithCredit(1000);
    const outcome = await refundOrder(db, { orderId, actorId: null, reason: "Rained off", now: minutes(5) });
    expect(outcome).toMatchObject({ ok: true, amount: 5000, credit: 1000, status: "refunded" });
    expect(await refundsOf(orderId)).toEqual([{ amount: 4000, status: "pending" }]);
    expect(await available(member.id, minutes(5))).toBe(1000);
    const notes = await db
      .select({ note: orderHistory.note })
      .from(orderHistory)
      .where(eq(orderHistory.orderId, orderId));
    expect(notes.map((row) => row.note)).toContain(
      "2 tickets refunded (£10.00 to account credit, £40.00 to the card): Rained off",
    );
  });

  it("refunds to account credit instead of money when staff choose it, kept until the chosen date", async () => {
    const { db } = database();
    const { member, orderId } = await paidWithCredit(1000);
    const outcome = await refundOrder(db, {
      orderId,
      items: undefined,
      actorId: null,
      reason: "Moved to next year",
      now: minutes(5),
      to: { kind: "credit", expiresAt: days(365) },
    });
    expect(outcome).toMatchObject({ ok: true, amount: 5000, credit: 5000, transactionId: null });
    expect(await refundsOf(orderId)).toEqual([]);
    expect(await available(member.id, minutes(5))).toBe(5000);
    const ledger = await ledgerOf(db, member.id);
    expect(ledger.slice(-2).map((line) => [line.kind, line.amount, line.expiresAt])).toEqual([
      ["spend_returned", 1000, days(365)],
      ["refund", 4000, days(365)],
    ]);
    const audits = await db.select().from(auditLog).where(eq(auditLog.subjectId, orderId));
    expect(audits.find((row) => row.action === "order.refund")?.details).toMatchObject({ amount: 5000, credit: 5000 });
    const notes = await db
      .select({ note: orderHistory.note })
      .from(orderHistory)
      .where(eq(orderHistory.orderId, orderId));
    expect(notes.map((row) => row.note)).toContain("2 tickets refunded (£50.00 to account credit): Moved to next year");
  });
});

describe("credit that runs out", () => {
  it("cannot be spent from its expiry date, and the sweep writes what was left off", async () => {
    const { db } = database();
    const { member, cartId } = await memberWithCredit(1000, 2, minutes(30));
    expect(await available(member.id, minutes(29))).toBe(1000);
    expect(await available(member.id, minutes(30))).toBe(0);

    expect(await expireCredit(db, { now: minutes(31) })).toEqual({ expired: 1 });
    expect(await expireCredit(db, { now: minutes(32) })).toEqual({ expired: 0 });
    const statement = await creditStatement(db, { userId: member.id, now: minutes(32) });
    expect(statement).toMatchObject({ available: 0, balance: 0 });
    expect(statement.lines[0]).toMatchObject({ kind: "expiry", amount: -1000, reason: EXPIRY_REASON });

    const result = await startCheckout(db, checkoutFor(member, cartId, minutes(33)));
    expect(result.ok && result.order.total).toBe(5000);
  });
});
