import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { expireHolds, HOLD_EXPIRED_REASON } from "~/features/commerce/holds.server";
import { settleOrder } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { sandboxGateway } from "~/server/payments/sandbox-provider";
import { orders } from "../../../db/schema";
import { BUYER_CANCELLED_REASON } from "./payment-state.server";
import { at, buyPlaces, orderState, pendingOrder, soldOf } from "./payments.test-support";
import { BANK_PAYMENT_WAIT_DAYS, closeExpiredPayments, reconcilePayments } from "./reconcile.server";
import { confirmReturn } from "./return.server";
import { startOrderPayment } from "./start-payment.server";
import { createBuyers } from "./stock.test-support";

const database = freshDatabasePerFile();
// One provider for the file, as the database is: every order's session is known to it.
const sandbox = sandboxGateway();
afterEach(() => {
  sandbox.controls.unreachable = false;
});

/** A pending Stripe order whose buyer has been sent to the (sandbox) provider's page. */
async function atProvider(options: { capacity?: number; quantity?: number } = {}) {
  const { db } = database();
  const pending = await pendingOrder(db, { ...options, provider: "stripe" });
  const started = await startOrderPayment(db, sandbox.gateway, {
    orderId: pending.order.id,
    userId: pending.member.id,
    siteUrl: "https://club.test/",
    now: at(0),
  });
  const session = sandbox.sessionOf(pending.order.id)!;
  return { ...pending, started, session };
}

describe("starting a payment", () => {
  it("makes one provider session per order and sends the buyer back to it", async () => {
    const { db } = database();
    const { order, member, started, session } = await atProvider();
    expect(started).toMatchObject({ kind: "redirect", url: `https://pay.example/${session.id}` });
    expect(session).toMatchObject({ amount: order.total, currency: "GBP", expiresAt: order.holdExpiresAt });
    expect((await orderState(db, order.id)).sessionId).toBe(session.id);

    const again = await startOrderPayment(db, sandbox.gateway, {
      orderId: order.id,
      userId: member.id,
      siteUrl: "https://club.test",
      now: at(1),
    });
    expect(again).toMatchObject({ url: `https://pay.example/${session.id}` });
    expect([...sandbox.sessions.values()].filter((s) => s.orderId === order.id)).toHaveLength(1);

    const [stranger] = await createBuyers(db, 1);
    expect(
      await startOrderPayment(db, sandbox.gateway, {
        orderId: order.id,
        userId: stranger!.id,
        siteUrl: "https://club.test",
        now: at(1),
      }),
    ).toEqual({ kind: "not_found" });
  });
});

describe("reconcilePayments", () => {
  it("settles a payment whose notification never came, once", async () => {
    const { db } = database();
    const { order, session, ticketTypeId, quantity } = await atProvider({ quantity: 3 });
    // The buyer paid; the webhook was lost (or the server was killed before settling).
    sandbox.pay(session.id);

    // Too soon: the buyer may still be on their way back, and the webhook may yet arrive.
    expect((await reconcilePayments(db, sandbox.gateway, { now: at(1) })).checked).toBe(0);

    const sweep = await reconcilePayments(db, sandbox.gateway, { now: at(5) });
    expect(sweep).toMatchObject({ settled: 1, errors: [], followUps: { settledOrderIds: [order.id] } });
    expect(sandbox.calls.at(-1)).toBe("retrievePayment");
    expect(await orderState(db, order.id)).toMatchObject({ status: "paid", tickets: quantity });
    expect(await soldOf(db, ticketTypeId)).toBe(quantity);

    const again = await reconcilePayments(db, sandbox.gateway, { now: at(10) });
    expect(again).toMatchObject({ settled: 0 });
    expect((await orderState(db, order.id)).ledger).toHaveLength(1);
  });

  it("after a restart, checks even a session started a moment ago", async () => {
    const { db } = database();
    const { order, session } = await atProvider();
    sandbox.pay(session.id);
    // A starting server cannot know whether a notification reached it while it was down.
    const sweep = await reconcilePayments(db, sandbox.gateway, { now: at(0), afterMinutes: 0 });
    expect(sweep).toMatchObject({ settled: 1, followUps: { settledOrderIds: [order.id] } });
    expect((await orderState(db, order.id)).status).toBe("paid");
  });

  it("expires an order whose session closed unpaid, and leaves open ones alone", async () => {
    const { db } = database();
    const closed = await atProvider();
    const open = await atProvider();
    sandbox.expire(closed.session.id);

    const sweep = await reconcilePayments(db, sandbox.gateway, { now: at(5) });
    expect(sweep).toMatchObject({ expired: 1, settled: 0, errors: [] });
    expect(await orderState(db, closed.order.id)).toMatchObject({ status: "expired", holds: ["released"] });
    expect((await orderState(db, open.order.id)).status).toBe("pending");
  });

  it("tries again next time when the provider cannot be reached", async () => {
    const { db } = database();
    const { order, session } = await atProvider();
    sandbox.pay(session.id);
    sandbox.controls.unreachable = true;
    const failed = await reconcilePayments(db, sandbox.gateway, { now: at(5) });
    expect(failed.errors.map((error) => error.orderId)).toContain(order.id);
    expect((await orderState(db, order.id)).status).toBe("pending");

    sandbox.controls.unreachable = false;
    await reconcilePayments(db, sandbox.gateway, { now: at(10) });
    expect((await orderState(db, order.id)).status).toBe("paid");
  });
});

describe("closeExpiredPayments (the expire-holds job)", () => {
  it("closes the provider's page when the hold ends, and settles a payment made just before", async () => {
    const { db } = database();
    const abandoned = await atProvider();
    const lastSecond = await atProvider({ capacity: 5 });
    sandbox.pay(lastSecond.session.id);

    // Not yet: the holds run for 15 minutes.
    expect((await closeExpiredPayments(db, sandbox.gateway, { now: at(14) })).checked).toBe(0);

    const sweep = await closeExpiredPayments(db, sandbox.gateway, { now: at(15) });
    expect(sweep.followUps.settledOrderIds).toEqual([lastSecond.order.id]);
    expect(sandbox.sessions.get(abandoned.session.id)!.status).toBe("expired");
    expect(await orderState(db, abandoned.order.id)).toMatchObject({
      status: "expired",
      failureReason: HOLD_EXPIRED_REASON,
      holds: ["released"],
    });
    expect(await orderState(db, lastSecond.order.id)).toMatchObject({ status: "paid", tickets: 2 });
  });

  it("leaves an order pending while its provider session cannot be closed", async () => {
    const { db } = database();
    const { order, session } = await atProvider();
    sandbox.controls.unreachable = true;
    const sweep = await closeExpiredPayments(db, sandbox.gateway, { now: at(16) });
    expect(sweep.errors.map((error) => error.orderId)).toContain(order.id);
    // The general expiry leaves it to the payments job: its page might still take money.
    await expireHolds(db, at(16), { leaveSessionsOf: "stripe" });
    expect((await orderState(db, order.id)).status).toBe("pending");

    // The provider is back; the buyer had paid at the last moment.
    sandbox.controls.unreachable = false;
    sandbox.pay(session.id);
    await closeExpiredPayments(db, sandbox.gateway, { now: at(17) });
    expect((await orderState(db, order.id)).status).toBe("paid");
  });

  it("refunds a last-moment payment whose places went to someone else meanwhile", async () => {
    const { db } = database();
    const { order, session, ticketTypeId } = await atProvider({ capacity: 2, quantity: 2 });
    sandbox.controls.unreachable = true;
    await closeExpiredPayments(db, sandbox.gateway, { now: at(16) });
    sandbox.controls.unreachable = false;
    await buyPlaces(db, ticketTypeId, 2, at(17));
    sandbox.pay(session.id);

    const sweep = await closeExpiredPayments(db, sandbox.gateway, { now: at(18) });
    expect(sweep.followUps).toEqual({ settledOrderIds: [], refusedOrderIds: [order.id], refundsDue: true });
    expect(await orderState(db, order.id)).toMatchObject({
      status: "expired",
      ledger: [
        { kind: "charge", status: "succeeded" },
        { kind: "refund", status: "pending" },
      ],
    });
  });
});

describe("a bank payment on its way when the hold ends", () => {
  const dueBy = async (orderId: string) => {
    const [row] = await database()
      .db.select({ dueBy: orders.bankPaymentDueBy })
      .from(orders)
      .where(eq(orders.id, orderId));
    return row!.dueBy;
  };
  const checkedIds = (sweep: { checked: number }) => sweep.checked;

  it("is asked about until it arrives, then settled under the late-payment rules", async () => {
    const { db } = database();
    const { order, session } = await atProvider({ capacity: 10 });
    sandbox.pay(session.id, { bank: true });
    await closeExpiredPayments(db, sandbox.gateway, { now: at(15) });
    expect(await orderState(db, order.id)).toMatchObject({ status: "expired", holds: ["released"] });
    expect(await dueBy(order.id)).toEqual(new Date(at(15).getTime() + BANK_PAYMENT_WAIT_DAYS * 86_400_000));

    // Days later the debit is still on its way: nothing changes, and the order is asked about again.
    sandbox.calls.length = 0;
    await reconcilePayments(db, sandbox.gateway, { now: at(3 * 24 * 60) });
    expect(sandbox.calls).toContain("retrievePayment");
    expect((await orderState(db, order.id)).status).toBe("expired");

    // It arrives, and its notification is lost: the sweep finds it and the places are still free.
    sandbox.settleBank(session.id);
    const sweep = await reconcilePayments(db, sandbox.gateway, { now: at(4 * 24 * 60) });
    expect(sweep.followUps.settledOrderIds).toContain(order.id);
    expect(await orderState(db, order.id)).toMatchObject({ status: "paid", tickets: 2 });
    expect(await dueBy(order.id)).toBeNull();
  });

  it("is refunded when it arrives after its places were sold to others", async () => {
    const { db } = database();
    const { order, session, ticketTypeId } = await atProvider({ capacity: 2, quantity: 2 });
    sandbox.pay(session.id, { bank: true });
    await closeExpiredPayments(db, sandbox.gateway, { now: at(15) });
    const other = await buyPlaces(db, ticketTypeId, 2, at(20));
    await settleOrder(db, {
      orderId: other.id,
      provider: "test",
      paymentReference: `other-${other.id}`,
      amount: other.total,
      now: at(21),
    });
    sandbox.settleBank(session.id);

    const sweep = await reconcilePayments(db, sandbox.gateway, { now: at(2 * 24 * 60) });
    expect(sweep.followUps.refundsDue).toBe(true);
    expect(await orderState(db, order.id)).toMatchObject({
      status: "expired",
      tickets: 0,
      ledger: [
        { kind: "charge", status: "succeeded" },
        { kind: "refund", status: "pending" },
      ],
    });
    expect(await dueBy(order.id)).toBeNull();
  });

  it("is no longer asked about once the wait is over", async () => {
    const { db } = database();
    const { order, session } = await atProvider();
    sandbox.pay(session.id, { bank: true });
    await closeExpiredPayments(db, sandbox.gateway, { now: at(15) });
    sandbox.calls.length = 0;
    const late = at(15 + BANK_PAYMENT_WAIT_DAYS * 24 * 60 + 1);
    const sweep = await reconcilePayments(db, sandbox.gateway, { now: late });
    expect(checkedIds(sweep)).toBe(0);
    expect((await orderState(db, order.id)).status).toBe("expired");
  });
});

describe("/return with a provider", () => {
  it("settles at once when the buyer comes back before the webhook", async () => {
    const { db } = database();
    const { order, member, session } = await atProvider();
    sandbox.pay(session.id);
    const back = await confirmReturn(db, sandbox.gateway, {
      userId: member.id,
      sessionId: session.id,
      cancelled: false,
      now: at(3),
    });
    expect(back).toEqual({
      answer: { kind: "paid", orderId: order.id },
      followUps: { settledOrderIds: [order.id], refusedOrderIds: [], refundsDue: false },
    });
  });

  it("says a bank payment is processing, and keeps confirming an open session", async () => {
    const { db } = database();
    const bank = await atProvider();
    sandbox.pay(bank.session.id, { bank: true });
    const back = await confirmReturn(db, sandbox.gateway, {
      userId: bank.member.id,
      orderId: bank.order.id,
      cancelled: false,
      now: at(3),
    });
    expect(back.answer).toMatchObject({ kind: "pending", processing: true, paymentUrl: null });

    const open = await atProvider();
    const waiting = await confirmReturn(db, sandbox.gateway, {
      userId: open.member.id,
      orderId: open.order.id,
      cancelled: false,
      now: at(3),
    });
    expect(waiting.answer).toMatchObject({ kind: "pending", processing: false, paymentUrl: expect.any(String) });
  });

  it("cancels the order and closes the provider's page when the buyer gives up there", async () => {
    const { db } = database();
    const { order, member, session } = await atProvider();
    const back = await confirmReturn(db, sandbox.gateway, {
      userId: member.id,
      orderId: order.id,
      cancelled: true,
      now: at(3),
    });
    expect(back.answer).toEqual({ kind: "failed", orderId: order.id, reason: BUYER_CANCELLED_REASON });
    expect(sandbox.sessions.get(session.id)!.status).toBe("expired");
    expect(await orderState(db, order.id)).toMatchObject({ status: "cancelled", holds: ["released"] });
  });

  it("settles instead when the buyer had paid in another tab before cancelling", async () => {
    const { db } = database();
    const { order, member, session } = await atProvider();
    sandbox.pay(session.id);
    const back = await confirmReturn(db, sandbox.gateway, {
      userId: member.id,
      orderId: order.id,
      cancelled: true,
      now: at(3),
    });
    expect(back.answer).toEqual({ kind: "paid", orderId: order.id });
  });
});
