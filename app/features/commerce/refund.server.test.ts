import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { checkoutFor, createBuyers, createTestEvent, fillCart, NOW } from "~/features/checkout/stock.test-support";
import { refundEventHolders } from "~/features/orders/bulk-refunds.server";
import { paidOrder as paidTicketOrder } from "~/features/orders/paid-orders.test-support";
import { refundEmail } from "~/features/orders/refund-email.server";
import { refundOrder, settleOrder, startCheckout } from "~/features/selling/selling.server";
import { checkInTicket } from "~/features/tickets/check-in.server";
import type { Db } from "~/server/db/client.server";
import { retriedTransactions } from "~/server/db/retry.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import * as schema from "../../../db/schema";
import { auditLog, orderHistory, orderItems, orders, tickets, ticketTypes, transactions } from "../../../db/schema";

const database = freshDatabasePerFile();
const later = new Date(NOW.getTime() + 3600_000);

/** A paid order of `quantities` tickets per type, for an event whose types have `capacity` places. */
async function paidOrder(db: Db, quantities: number[], capacity = 100) {
  const event = await createTestEvent(db, {
    types: quantities.map((_, index) => ({ name: `Type ${index + 1}`, price: 1500 + index * 500, capacity })),
  });
  const [buyer] = await createBuyers(db, 1);
  const lines = quantities.map((quantity, index) => ({ ticketTypeId: event.typeIds[index]!, quantity }));
  const { id, total } = await paidTicketOrder(db, buyer!, lines, NOW, NOW);
  const items = await db
    .select({ id: orderItems.id, ticketTypeId: orderItems.ticketTypeId })
    .from(orderItems)
    .where(eq(orderItems.orderId, id));
  const itemFor = (index: number) => items.find((item) => item.ticketTypeId === event.typeIds[index])!.id;
  return { ...event, orderId: id, total, buyer: buyer!, itemFor };
}

/** Refunds `quantity` tickets of the order's first line, as staff would from its page. */
function refundFirstLine(
  db: Db,
  order: { orderId: string; itemFor(index: number): string },
  quantity: number,
  reason: string,
  extra: { refundedBefore?: number } = {},
) {
  const items = [{ orderItemId: order.itemFor(0), quantity }];
  return refundOrder(db, { orderId: order.orderId, items, actorId: null, reason, now: later, ...extra });
}

async function soldOf(db: Db, typeId: string) {
  const [row] = await db.select({ sold: ticketTypes.sold }).from(ticketTypes).where(eq(ticketTypes.id, typeId));
  return row!.sold;
}

describe("refundOrder", () => {
  it("refunds a whole order: tickets, places, money, status, history and audit", async () => {
    const { db } = database();
    const [admin] = await createBuyers(db, 1);
    const order = await paidOrder(db, [2, 1]);
    const outcome = await refundOrder(db, { orderId: order.orderId, actorId: admin!.id, reason: "Asked", now: later });
    expect(outcome).toMatchObject({ ok: true, status: "refunded", amount: 2 * 1500 + 2000, checkedInKept: 0 });

    const statuses = await db
      .select({ status: tickets.status })
      .from(tickets)
      .where(eq(tickets.orderId, order.orderId));
    expect(statuses.map((row) => row.status)).toEqual(["refunded", "refunded", "refunded"]);
    expect(await soldOf(db, order.typeIds[0]!)).toBe(0);
    expect(await soldOf(db, order.typeIds[1]!)).toBe(0);
    const [refund] = await db
      .select({ status: transactions.status, amount: transactions.amount, chargeId: transactions.chargeId })
      .from(transactions)
      .where(and(eq(transactions.orderId, order.orderId), eq(transactions.kind, "refund")));
    expect(refund).toMatchObject({ status: "pending", amount: 5000, chargeId: expect.any(String) });
    const [history] = await db
      .select({ toStatus: orderHistory.toStatus, actorId: orderHistory.actorId })
      .from(orderHistory)
      .where(and(eq(orderHistory.orderId, order.orderId), eq(orderHistory.toStatus, "refunded")));
    expect(history).toEqual({ toStatus: "refunded", actorId: admin!.id });
    const audits = await db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.subjectId, order.orderId));
    expect(audits).toEqual([{ action: "order.refund" }]);

    expect(await refundOrder(db, { orderId: order.orderId, actorId: admin!.id, reason: "Again", now: later })).toEqual({
      ok: false,
      problem: "This order has already been refunded in full.",
    });
  });

  it("refunds part of a line, then the rest; the order is partly refunded in between", async () => {
    const { db } = database();
    const order = await paidOrder(db, [3]);
    const first = await refundFirstLine(db, order, 1, "Cannot come", { refundedBefore: 0 });
    expect(first).toMatchObject({ ok: true, status: "partly_refunded", amount: 1500 });
    expect(await soldOf(db, order.typeIds[0]!)).toBe(2);
    const [line] = await db
      .select({ refunded: orderItems.refundedQuantity })
      .from(orderItems)
      .where(eq(orderItems.id, order.itemFor(0)));
    expect(line!.refunded).toBe(1);

    // The same form sent twice: the second finds the order changed and refunds nothing.
    const repeat = await refundFirstLine(db, order, 1, "Cannot come", { refundedBefore: 0 });
    expect(repeat).toMatchObject({ ok: false, problem: expect.stringContaining("changed since") });
    expect(await soldOf(db, order.typeIds[0]!)).toBe(2);

    const tooMany = await refundFirstLine(db, order, 3, "x");
    expect(tooMany).toMatchObject({ ok: false, problem: expect.stringContaining("only 2 can be refunded") });

    const rest = await refundOrder(db, { orderId: order.orderId, actorId: null, reason: "Rest", now: later });
    expect(rest).toMatchObject({ ok: true, status: "refunded", amount: 3000 });
    const refunds = await db
      .select({ amount: transactions.amount })
      .from(transactions)
      .where(and(eq(transactions.orderId, order.orderId), eq(transactions.kind, "refund")));
    expect(refunds.map((row) => row.amount).sort()).toEqual([1500, 3000]);
  });

  it("frees the place, so a new checkout can take it", async () => {
    const { db } = database();
    const order = await paidOrder(db, [1], 1);
    const [next] = await createBuyers(db, 1);
    const cartId = await fillCart(db, next!.id, [{ ticketTypeId: order.typeIds[0]!, quantity: 1 }]);
    expect((await startCheckout(db, checkoutFor(next!, cartId, later))).ok).toBe(false);
    await refundOrder(db, { orderId: order.orderId, actorId: null, reason: "Asked", now: later });
    const retry = await startCheckout(db, { ...checkoutFor(next!, cartId, later), idempotencyKey: "second-try" });
    expect(retry.ok).toBe(true);
  });

  it("never refunds a ticket already checked in", async () => {
    const { db } = database();
    const order = await paidOrder(db, [2]);
    const [steward] = await createBuyers(db, 1);
    const [first] = await db
      .select({ code: tickets.code })
      .from(tickets)
      .where(eq(tickets.orderId, order.orderId))
      .limit(1);
    await checkInTicket(db, { code: first!.code, eventId: order.eventId, staffId: steward!.id, now: later });

    const both = await refundFirstLine(db, order, 2, "x");
    expect(both).toMatchObject({ ok: false, problem: expect.stringContaining("1 already checked in") });

    const whole = await refundOrder(db, { orderId: order.orderId, actorId: null, reason: "x", now: later });
    expect(whole).toMatchObject({ ok: true, status: "partly_refunded", amount: 1500, checkedInKept: 1 });
    const again = await refundOrder(db, { orderId: order.orderId, actorId: null, reason: "x", now: later });
    expect(again).toMatchObject({ ok: false, problem: expect.stringContaining("checked in at the gate") });
    expect(await soldOf(db, order.typeIds[0]!)).toBe(1);
  });

  it("refuses unpaid orders and lines of other orders", async () => {
    const { db } = database();
    const order = await paidOrder(db, [1]);
    const other = await paidOrder(db, [1]);
    expect(
      await refundOrder(db, {
        orderId: order.orderId,
        items: [{ orderItemId: other.itemFor(0), quantity: 1 }],
        actorId: null,
        reason: "x",
        now: later,
      }),
    ).toEqual({ ok: false, problem: "That line is not part of this order." });
    await db.update(orders).set({ status: "cancelled" }).where(eq(orders.id, order.orderId));
    expect(await refundOrder(db, { orderId: order.orderId, actorId: null, reason: "x", now: later })).toMatchObject({
      ok: false,
      problem: expect.stringContaining("Only paid orders"),
    });
  });

  it("refunds every holder of a cancelled event once, however often it runs", async () => {
    const { db } = database();
    const first = await paidOrder(db, [2]);
    const [buyer] = await createBuyers(db, 1);
    const cartId = await fillCart(db, buyer!.id, [{ ticketTypeId: first.typeIds[0]!, quantity: 1 }]);
    const checkout = await startCheckout(db, checkoutFor(buyer!, cartId));
    if (!checkout.ok) throw new Error("checkout refused");
    await settleOrder(db, {
      orderId: checkout.order.id,
      provider: "test",
      paymentReference: "pay_second",
      amount: checkout.order.total,
      now: NOW,
    });
    const input = { eventId: first.eventId, actorId: null, reason: "Event cancelled", now: later };
    const run = await refundEventHolders(db, input);
    expect(run.refunded.map((outcome) => outcome.amount).sort()).toEqual([1500, 3000]);
    expect(run.failed).toBe(0);
    expect(await refundEventHolders(db, input)).toEqual({ refunded: [], failed: 0 });
    expect(await soldOf(db, first.typeIds[0]!)).toBe(0);
  });
});

describe("refundEmail", () => {
  it("names the order, the lines and the money", () => {
    const email = refundEmail(
      { siteName: "Pitlane", siteUrl: "https://pitlane.test" },
      {
        to: "a@example.test",
        number: 42,
        currency: "GBP",
        amount: 3000,
        credit: 0,
        lines: [{ description: "Meet — Day ticket", quantity: 2, amount: 3000 }],
        reason: "Event <cancelled>",
        whole: true,
      },
    );
    expect(email.subject).toBe("Refund for order PL-000042");
    expect(email.text).toContain("2 × Meet — Day ticket: £30.00");
    expect(email.html).toContain("Event &lt;cancelled&gt;");
  });
});

/** Only PostgreSQL runs transactions side by side; PGlite queues them, so it cannot show a race. */
describe.skipIf(!process.env.DATABASE_URL)("refunds under contention (PostgreSQL only)", () => {
  it("two admins refunding the same order at once make one refund", async () => {
    const { db: setup, url } = database() as { db: Db; url: string };
    const order = await paidOrder(setup, [2]);
    const pool = new pg.Pool({ connectionString: url, max: 6 });
    const closed: Promise<void>[] = [];
    pool.on("connect", (client) => closed.push(new Promise((resolve) => client.once("end", () => resolve()))));
    try {
      const db = drizzle(pool, { schema }) as unknown as Db;
      const before = retriedTransactions();
      const outcomes = await Promise.all(
        Array.from({ length: 4 }, () =>
          refundOrder(db, { orderId: order.orderId, actorId: null, reason: "Race", now: later, refundedBefore: 0 }),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
      expect(retriedTransactions()).toBe(before);
      const refunds = await setup
        .select({ amount: transactions.amount })
        .from(transactions)
        .where(and(eq(transactions.orderId, order.orderId), eq(transactions.kind, "refund")));
      expect(refunds).toEqual([{ amount: 3000 }]);
      expect(await soldOf(setup, order.typeIds[0]!)).toBe(0);
    } finally {
      await pool.end();
      await Promise.all(closed);
    }
  });
});
