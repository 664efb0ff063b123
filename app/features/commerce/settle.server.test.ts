import { and, eq, sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import {
  awaitPaymentEvent,
  markPaymentEventProcessed,
  PAYMENT_EVENT_CLAIM_MS,
  receivePaymentEvent,
  releasePaymentEvent,
} from "~/features/checkout/payment-events.server";
import { checkoutFor, createBuyers, createTestEvent, fillCart, NOW } from "~/features/checkout/stock.test-support";
import { expireHolds } from "~/features/commerce/holds.server";
import {
  CANCELLED_ORDER_REASON,
  DUPLICATE_PAYMENT_REASON,
  LATE_SOLD_OUT_REASON,
} from "~/features/commerce/settle.server";
import { cancelOrder } from "~/features/orders/cancel.server";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import { EVENT_CANCELLED_REASON } from "~/features/tickets/ticket-kind.server";
import { availabilityByTicketType } from "~/features/tickets/ticket-stock.server";
import { statementsSent } from "~/server/db/statements-sent.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { cartItems, events, holds, orderHistory, orders, tickets, ticketTypes, transactions } from "../../../db/schema";

const database = freshDatabasePerFile();
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);
const seconds = (n: number) => new Date(NOW.getTime() + n * 1000);

/** A member with a pending order for `quantity` tickets of a fresh type of `capacity` places. */
async function pendingOrder(options: { capacity?: number; quantity?: number; days?: string[]; names?: string[] } = {}) {
  const { db } = database();
  const { typeIds, eventId } = await createTestEvent(db, {
    types: [{ name: "Adult", price: 1250, capacity: options.capacity ?? 10, days: options.days }],
  });
  const [member] = await createBuyers(db, 1);
  const quantity = options.quantity ?? 2;
  const cartId = await fillCart(db, member!.id, [
    { ticketTypeId: typeIds[0]!, quantity, attendeeNames: options.names },
  ]);
  const result = await startCheckout(db, checkoutFor(member!, cartId));
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return { member: member!, cartId, eventId, ticketTypeId: typeIds[0]!, order: result.order, quantity };
}

function payment(orderId: string, amount: number, now = minutes(5), reference = `pay_${orderId}`) {
  return { orderId, provider: "test" as const, paymentReference: reference, amount, currency: "GBP", now };
}

async function soldOf(ticketTypeId: string) {
  const [row] = await database()
    .db.select({ sold: ticketTypes.sold })
    .from(ticketTypes)
    .where(eq(ticketTypes.id, ticketTypeId));
  return row!.sold;
}

async function transactionsOf(orderId: string) {
  return database()
    .db.select({ kind: transactions.kind, status: transactions.status, amount: transactions.amount })
    .from(transactions)
    .where(eq(transactions.orderId, orderId))
    .orderBy(transactions.kind);
}

describe("settleOrder", () => {
  it("turns holds into sales, issues one ticket per place and records the charge", async () => {
    const { db } = database();
    const { member, cartId, order, ticketTypeId } = await pendingOrder({
      quantity: 2,
      days: ["2027-06-12", "2027-06-13"],
      names: ["Sam Driver", "Alex Racer"],
    });
    const outcome = await settleOrder(db, payment(order.id, 2500));
    expect(outcome).toEqual({
      kind: "settled",
      orderId: order.id,
      number: order.number,
      issued: { ticket: 2 },
      late: false,
    });

    expect(await soldOf(ticketTypeId)).toBe(2);
    expect((await availabilityByTicketType(db, [ticketTypeId], minutes(5))).get(ticketTypeId)).toEqual({
      sold: 2,
      held: 0,
    });
    const issued = await db
      .select({ name: tickets.attendeeName, code: tickets.code, status: tickets.status, userId: tickets.userId })
      .from(tickets)
      .where(eq(tickets.orderId, order.id));
    expect(issued.map((ticket) => ticket.name).sort()).toEqual(["Alex Racer", "Sam Driver"]);
    expect(issued.every((ticket) => ticket.status === "valid" && ticket.userId === member.id)).toBe(true);
    expect(new Set(issued.map((ticket) => ticket.code)).size).toBe(2);
    expect(await transactionsOf(order.id)).toEqual([{ kind: "charge", status: "succeeded", amount: 2500 }]);
    const [paid] = await db
      .select({ status: orders.status, paidAt: orders.paidAt, paymentId: orders.providerPaymentId })
      .from(orders)
      .where(eq(orders.id, order.id));
    expect(paid).toEqual({ status: "paid", paidAt: minutes(5), paymentId: `pay_${order.id}` });
    expect(await db.select({ status: holds.status }).from(holds).where(eq(holds.orderId, order.id))).toEqual([
      { status: "converted" },
    ]);
    // What was bought leaves the cart.
    expect(await db.select().from(cartItems).where(eq(cartItems.cartId, cartId))).toHaveLength(0);
  });

  it("writes the sold count after everything else the payment writes, so its one busy row is locked briefly", async () => {
    const { db } = database();
    // PostgreSQL runs the writing CTEs of a statement from the last listed to the first.
    const ran = await db.transaction(async (tx) => {
      // Each row is numbered as it is written.
      await tx.execute(sql`create temporary table written (at serial, cte text) on commit drop`);
      await tx.execute(sql`with
        listed_first as (insert into written (cte) values ('listed first')),
        listed_second as (insert into written (cte) values ('listed second')),
        listed_last as (insert into written (cte) values ('listed last'))
        select 1`);
      const { rows } = (await tx.execute(sql`select cte from written order by at`)) as unknown as {
        rows: { cte: string }[];
      };
      return rows.map((row) => row.cte);
    });
    expect(ran).toEqual(["listed last", "listed second", "listed first"]);

    // And the payment's statement lists the sold count first of its writes.
    const { order: pending } = await pendingOrder({ quantity: 1 });
    const { result, statements } = await statementsSent(database(), () =>
      settleOrder(db, payment(pending.id, pending.total)),
    );
    expect(result).toMatchObject({ kind: "settled" });
    const paying = statements.find((text) => text.includes('update "ticket_types" set "sold"'));
    const writes = [...paying!.matchAll(/write_\d+ as \(((?:update|insert into|delete from) "\w+")/g)].map(
      (match) => match[1],
    );
    expect(writes[0]).toBe('update "ticket_types"');
    expect(writes.length).toBeGreaterThan(3);
  });

  it("pays every order with the same statement, whatever it holds, so the statement is built once", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, {
      types: [
        { name: "Adult", price: 1250, capacity: 10 },
        { name: "Child", price: 0, capacity: 10 },
      ],
    });
    const [one, other] = await createBuyers(db, 2);
    const pay = async (member: typeof one, lines: { ticketTypeId: string; quantity: number }[]) => {
      const cartId = await fillCart(db, member!.id, lines);
      const started = await startCheckout(db, checkoutFor(member!, cartId));
      if (!started.ok) throw new Error(JSON.stringify(started.problems));
      const { result, statements } = await statementsSent(database(), () =>
        settleOrder(db, payment(started.order.id, started.order.total)),
      );
      expect(result).toMatchObject({ kind: "settled" });
      return statements.find((text) => text.endsWith("select id from paid"));
    };
    const adultOnly = await pay(one, [{ ticketTypeId: typeIds[0]!, quantity: 1 }]);
    const family = await pay(other, [
      { ticketTypeId: typeIds[0]!, quantity: 2 },
      { ticketTypeId: typeIds[1]!, quantity: 3 },
    ]);
    expect(adultOnly).toBeDefined();
    expect(family).toBe(adultOnly);
    expect(await soldOf(typeIds[0]!)).toBe(3);
    expect(await soldOf(typeIds[1]!)).toBe(3);
  });

  it("settles once when the same payment is reported five times at once and in any order", async () => {
    const { db } = database();
    const { order, ticketTypeId } = await pendingOrder({ quantity: 3 });
    const calls = [minutes(3), minutes(5), minutes(4), minutes(1), minutes(2)].map((now) =>
      settleOrder(db, payment(order.id, 3750, now)),
    );
    const outcomes = await Promise.all(calls);
    expect(outcomes.filter((outcome) => outcome.kind === "settled")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.kind === "already_settled")).toHaveLength(4);
    // A replay long after, once the order is paid, changes nothing either.
    expect((await settleOrder(db, payment(order.id, 3750, minutes(600)))).kind).toBe("already_settled");

    expect(await soldOf(ticketTypeId)).toBe(3);
    expect(await db.select().from(tickets).where(eq(tickets.orderId, order.id))).toHaveLength(3);
    expect(await transactionsOf(order.id)).toEqual([{ kind: "charge", status: "succeeded", amount: 3750 }]);
    const history = await db
      .select({ to: orderHistory.toStatus })
      .from(orderHistory)
      .where(and(eq(orderHistory.orderId, order.id), eq(orderHistory.toStatus, "paid")));
    expect(history).toHaveLength(1);
  });

  it("honours a payment that arrives after the hold ran out while the places are still free", async () => {
    const { db } = database();
    const { order, ticketTypeId } = await pendingOrder({ capacity: 2, quantity: 2 });
    await expireHolds(db, minutes(16));
    const outcome = await settleOrder(db, payment(order.id, 2500, minutes(20)));
    expect(outcome).toMatchObject({ kind: "settled", late: true, issued: { ticket: 2 } });
    expect(await soldOf(ticketTypeId)).toBe(2);
    const [paid] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id));
    expect(paid!.status).toBe("paid");
  });

  it("marks a late payment for refund when its places went to someone else", async () => {
    const { db } = database();
    const { order, ticketTypeId } = await pendingOrder({ capacity: 2, quantity: 2 });
    // The hold has run out (the expiry job has not run yet) and another buyer takes the places.
    const [rival] = await createBuyers(db, 1);
    const rivalCart = await fillCart(db, rival!.id, [{ ticketTypeId, quantity: 2 }]);
    const rivalOrder = await startCheckout(db, checkoutFor(rival!, rivalCart, minutes(16)));
    if (!rivalOrder.ok) throw new Error(JSON.stringify(rivalOrder.problems));

    const late = payment(order.id, 2500, minutes(17));
    expect(await settleOrder(db, late)).toEqual({
      kind: "refund_required",
      orderId: order.id,
      number: order.number,
      amount: 2500,
      reason: LATE_SOLD_OUT_REASON,
    });
    // A replayed notification gives the same answer and records nothing more.
    expect((await settleOrder(db, { ...late, now: minutes(30) })).kind).toBe("refund_required");

    expect(await soldOf(ticketTypeId)).toBe(0);
    expect(await db.select().from(tickets).where(eq(tickets.orderId, order.id))).toHaveLength(0);
    expect(await transactionsOf(order.id)).toEqual([
      { kind: "charge", status: "succeeded", amount: 2500 },
      { kind: "refund", status: "pending", amount: 2500 },
    ]);
    const [expired] = await db
      .select({ status: orders.status, reason: orders.failureReason })
      .from(orders)
      .where(eq(orders.id, order.id));
    expect(expired).toEqual({ status: "expired", reason: LATE_SOLD_OUT_REASON });
    // The rival still pays for what they hold.
    expect((await settleOrder(db, payment(rivalOrder.order.id, 2500, minutes(18)))).kind).toBe("settled");
    expect(await soldOf(ticketTypeId)).toBe(2);
  });

  it("refunds a payment for a cancelled order, and one of the wrong amount", async () => {
    const { db } = database();
    const cancelled = await pendingOrder();
    await cancelOrder(db, { orderId: cancelled.order.id, reason: "Cancelled at the provider", now: minutes(1) });
    expect(await settleOrder(db, payment(cancelled.order.id, 2500))).toMatchObject({
      kind: "refund_required",
      reason: CANCELLED_ORDER_REASON,
    });
    expect(await soldOf(cancelled.ticketTypeId)).toBe(0);

    const short = await pendingOrder();
    expect(await settleOrder(db, payment(short.order.id, 100))).toEqual({
      kind: "amount_mismatch",
      orderId: short.order.id,
      number: short.order.number,
      expected: 2500,
      received: 100,
    });
    expect((await settleOrder(db, payment(short.order.id, 100))).kind).toBe("amount_mismatch");
    expect(await transactionsOf(short.order.id)).toEqual([
      { kind: "charge", status: "succeeded", amount: 100 },
      { kind: "refund", status: "pending", amount: 100 },
    ]);
    const [stillPending] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, short.order.id));
    expect(stillPending!.status).toBe("pending");
    expect((await settleOrder(db, { ...payment(short.order.id, 2500), currency: "EUR" })).kind).toBe("amount_mismatch");
  });

  it("refunds a second, different payment for an order already paid", async () => {
    const { db } = database();
    const { order, ticketTypeId } = await pendingOrder();
    expect((await settleOrder(db, payment(order.id, 2500))).kind).toBe("settled");
    const second = await settleOrder(db, payment(order.id, 2500, minutes(6), "pay_second"));
    expect(second).toMatchObject({ kind: "refund_required", reason: DUPLICATE_PAYMENT_REASON });
    expect(await settleOrder(db, payment(order.id, 2500, minutes(7), "pay_second"))).toMatchObject({
      kind: "refund_required",
      reason: DUPLICATE_PAYMENT_REASON,
    });
    expect(await soldOf(ticketTypeId)).toBe(2);
    expect(await transactionsOf(order.id)).toEqual([
      { kind: "charge", status: "succeeded", amount: 2500 },
      { kind: "charge", status: "succeeded", amount: 2500 },
      { kind: "refund", status: "pending", amount: 2500 },
    ]);
  });

  it("refunds a payment for an event cancelled while the buyer was paying", async () => {
    const { db } = database();
    const { order, eventId, ticketTypeId } = await pendingOrder();
    await db.update(events).set({ status: "cancelled" }).where(eq(events.id, eventId));
    expect(await settleOrder(db, payment(order.id, 2500))).toMatchObject({
      kind: "refund_required",
      reason: EVENT_CANCELLED_REASON,
    });
    expect(await soldOf(ticketTypeId)).toBe(0);
    const [cancelled] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id));
    expect(cancelled!.status).toBe("cancelled");
    expect((await availabilityByTicketType(db, [ticketTypeId], minutes(5))).get(ticketTypeId)!.held).toBe(0);
  });

  it("knows no order for another provider or an unknown id", async () => {
    const { db } = database();
    const { order } = await pendingOrder();
    expect(await settleOrder(db, { ...payment(order.id, 2500), provider: "stripe" })).toEqual({ kind: "not_found" });
    expect(await settleOrder(db, payment("00000000-0000-4000-8000-000000000000", 2500))).toEqual({
      kind: "not_found",
    });
  });
});

describe("payment notifications", () => {
  it("are claimed by one delivery at a time until one has been processed, then answered as duplicates", async () => {
    const { db } = database();
    const event = { provider: "stripe" as const, eventId: "evt_1", type: "checkout.session.completed", now: NOW };
    expect(await receivePaymentEvent(db, event)).toEqual({ kind: "handle" });
    // Another delivery while the first is handling it: told whose claim stands, since when.
    expect(await receivePaymentEvent(db, { ...event, now: seconds(1) })).toEqual({ kind: "claimed", since: NOW });
    // The first delivery died before it finished: once its claim lapses, a retry takes it over.
    const lapsed = seconds(PAYMENT_EVENT_CLAIM_MS / 1000 + 1);
    expect(await receivePaymentEvent(db, { ...event, now: lapsed })).toEqual({ kind: "handle" });
    const soon = seconds(PAYMENT_EVENT_CLAIM_MS / 1000 + 2);
    expect(await receivePaymentEvent(db, { ...event, now: soon })).toEqual({ kind: "claimed", since: lapsed });
    await markPaymentEventProcessed(db, { ...event, now: soon });
    expect(await receivePaymentEvent(db, { ...event, now: minutes(2) })).toEqual({ kind: "duplicate" });
    expect(await receivePaymentEvent(db, { ...event, now: minutes(60) })).toEqual({ kind: "duplicate" });
    expect(await receivePaymentEvent(db, { ...event, provider: "test" })).toEqual({ kind: "handle" });
  });

  it("are free for the next delivery at once when the one that claimed it gives up", async () => {
    const { db } = database();
    const event = {
      provider: "stripe" as const,
      eventId: "evt_given_up",
      type: "checkout.session.completed",
      now: NOW,
    };
    expect(await receivePaymentEvent(db, event)).toEqual({ kind: "handle" });
    await releasePaymentEvent(db, event);
    expect(await receivePaymentEvent(db, { ...event, now: seconds(1) })).toEqual({ kind: "handle" });
    // Giving up never forgets an event that was handled.
    await markPaymentEventProcessed(db, { ...event, now: seconds(2) });
    await releasePaymentEvent(db, event);
    expect(await receivePaymentEvent(db, { ...event, now: seconds(3) })).toEqual({ kind: "duplicate" });
  });

  it("are waited for while another delivery handles them, until it is processed, given up or lapses", async () => {
    const { db } = database();
    const event = { provider: "stripe" as const, eventId: "evt_waited", type: "checkout.session.completed", now: NOW };
    await receivePaymentEvent(db, event);
    const waiting = awaitPaymentEvent(db, { ...event, since: NOW, now: seconds(1) });
    setTimeout(() => void markPaymentEventProcessed(db, { ...event, now: seconds(1) }), 60);
    expect(await waiting).toBe("processed");

    const second = { ...event, eventId: "evt_abandoned" };
    await receivePaymentEvent(db, second);
    const abandoned = awaitPaymentEvent(db, { ...second, since: NOW, now: seconds(1) });
    setTimeout(() => void releasePaymentEvent(db, second), 60);
    expect(await abandoned).toBe("free");

    // A claim a second short of lapsing is waited for about a second, and no longer.
    const third = { ...event, eventId: "evt_lapsing" };
    await receivePaymentEvent(db, third);
    const started = performance.now();
    const lapsing = seconds(PAYMENT_EVENT_CLAIM_MS / 1000 - 1);
    expect(await awaitPaymentEvent(db, { ...third, since: NOW, now: lapsing })).toBe("free");
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(performance.now() - started).toBeLessThan(PAYMENT_EVENT_CLAIM_MS);
  });
});

/**
 * The lock a settlement takes, seen from another connection holding the event's row. PGlite runs
 * one transaction at a time, so these run on PostgreSQL only (DATABASE_URL set).
 */
describe.skipIf(!process.env.DATABASE_URL)("settling beside other work on the event (PostgreSQL only)", () => {
  /**
   * Runs the settlement while another connection holds the event's row in `mode`. Answers whether
   * it finished while the row was held, or was seen waiting on a lock, and then how it ended.
   */
  async function settleWhileEventHeld(
    eventId: string,
    mode: "share" | "no key update",
    settle: () => Promise<unknown>,
  ) {
    const holder = new pg.Client({ connectionString: database().url });
    await holder.connect();
    try {
      await holder.query("begin");
      await holder.query(`select 1 from events where id = $1 for ${mode}`, [eventId]);
      let finished = false;
      const settling = settle().finally(() => {
        finished = true;
      });
      let waited = false;
      for (let look = 0; look < 200 && !finished && !waited; look++) {
        const { rows } = await holder.query(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'",
        );
        waited = rows[0].n > 0;
        if (!waited) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const finishedWhileHeld = finished;
      await holder.query("commit");
      return { finishedWhileHeld, waited, outcome: await settling };
    } finally {
      await holder.end();
    }
  }

  it("pays for held places without waiting for the other settlements of the event", async () => {
    const { db } = database();
    const { order, eventId, ticketTypeId } = await pendingOrder({ quantity: 2 });
    // Another settlement of the same event holds its row in the same shared way.
    const seen = await settleWhileEventHeld(eventId, "share", () => settleOrder(db, payment(order.id, 2500)));
    expect(seen).toMatchObject({ finishedWhileHeld: true, waited: false });
    expect(seen.outcome).toMatchObject({ kind: "settled", issued: { ticket: 2 }, late: false });
    expect(await soldOf(ticketTypeId)).toBe(2);
  });

  it("waits for a checkout that holds the event's row, then pays", async () => {
    const { db } = database();
    const { order, eventId, ticketTypeId } = await pendingOrder({ quantity: 2 });
    const seen = await settleWhileEventHeld(eventId, "no key update", () => settleOrder(db, payment(order.id, 2500)));
    expect(seen).toMatchObject({ finishedWhileHeld: false, waited: true });
    expect(seen.outcome).toMatchObject({ kind: "settled", issued: { ticket: 2 } });
    expect(await soldOf(ticketTypeId)).toBe(2);
  });

  it("takes the event's lock for a hold with under a minute left", async () => {
    const { db } = database();
    const { order, eventId, ticketTypeId } = await pendingOrder({ quantity: 1 });
    // Holds last 15 minutes from checkout: 30 seconds are left.
    const seen = await settleWhileEventHeld(eventId, "share", () =>
      settleOrder(db, payment(order.id, 1250, minutes(14.5))),
    );
    expect(seen).toMatchObject({ finishedWhileHeld: false, waited: true });
    expect(seen.outcome).toMatchObject({ kind: "settled", issued: { ticket: 1 }, late: false });
    expect(await soldOf(ticketTypeId)).toBe(1);
  });
});
