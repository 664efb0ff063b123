import { describe, expect, it } from "vitest";
import { BUYER_CANCELLED_REASON } from "~/features/checkout/payment-state.server";
import { at, buyPlaces, orderState, pendingOrder, soldOf } from "~/features/checkout/payments.test-support";
import { closeExpiredPayments } from "~/features/checkout/reconcile.server";
import { confirmReturn } from "~/features/checkout/return.server";
import {
  answerSandboxCheckout,
  SANDBOX_DECLINED_REASON,
  sandboxCheckoutOrder,
} from "~/features/checkout/sandbox-checkout.server";
import { startOrderPayment } from "~/features/checkout/start-payment.server";
import { createBuyers } from "~/features/checkout/stock.test-support";
import { HOLD_EXPIRED_REASON } from "~/features/commerce/holds.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { sandboxGateway } from "~/server/payments/sandbox-provider.server";

const database = freshDatabasePerFile();
const gateway = sandboxGateway({ siteUrl: "http://club.test" });

/** A pending test-checkout order that has been sent to the test checkout page. */
async function atTestCheckout(options: { capacity?: number; quantity?: number } = {}) {
  const { db } = database();
  const pending = await pendingOrder(db, options);
  const started = await startOrderPayment(db, gateway, {
    orderId: pending.order.id,
    userId: pending.member.id,
    siteUrl: "http://club.test",
    now: at(1),
  });
  return { ...pending, started };
}

/** The order's own member answers the test checkout's page: Pay, Decline or Cancel. */
const press = (
  checkout: { order: { id: string }; member: { id: string } },
  intent: "pay" | "decline" | "cancel",
  now: Date,
) => answerSandboxCheckout(database().db, { orderId: checkout.order.id, userId: checkout.member.id, intent, now });

const returnOf = (userId: string, orderId: string, now = at(3)) =>
  confirmReturn(database().db, gateway, { userId, orderId, cancelled: false, now });

describe("the test checkout", () => {
  it("is where starting a payment leads, with the order's lines and total", async () => {
    const { db } = database();
    const { order, member, started } = await atTestCheckout({ quantity: 2 });
    expect(started).toEqual({ kind: "redirect", url: `/checkout/test/${order.id}`, followUps: expect.anything() });
    expect((await orderState(db, order.id)).sessionId).toBe(`test_cs_${order.id}`);

    const shown = await sandboxCheckoutOrder(db, { orderId: order.id, userId: member.id });
    expect(shown).toMatchObject({
      number: order.number,
      total: 2500,
      payable: true,
      lines: [{ quantity: 2, unitPrice: 1250, description: expect.stringContaining("Adult") }],
    });
  });

  it("shows an order to its own member only", async () => {
    const { db } = database();
    const { order } = await atTestCheckout();
    const [stranger] = await createBuyers(db, 1);
    expect(await sandboxCheckoutOrder(db, { orderId: order.id, userId: stranger!.id })).toBeNull();
    expect(await sandboxCheckoutOrder(db, { orderId: "not-an-order", userId: stranger!.id })).toBeNull();
    const answer = await answerSandboxCheckout(db, {
      orderId: order.id,
      userId: stranger!.id,
      intent: "pay",
      now: at(2),
    });
    expect(answer).toEqual({ kind: "not_found" });
    expect((await orderState(db, order.id)).status).toBe("pending");
  });

  it("Pay settles the order through the same settlement as Stripe, once however often it is pressed", async () => {
    const { db } = database();
    const checkout = await atTestCheckout({ quantity: 2 });
    const { order, member, ticketTypeId, quantity } = checkout;
    const pay = () => press(checkout, "pay", at(2));

    const first = await pay();
    expect(first).toEqual({
      kind: "answered",
      followUps: { settledOrderIds: [order.id], refusedOrderIds: [], refundsDue: false },
    });
    expect(await pay()).toEqual({
      kind: "answered",
      followUps: { settledOrderIds: [], refusedOrderIds: [], refundsDue: false },
    });

    const state = await orderState(db, order.id);
    expect(state).toMatchObject({ status: "paid", paymentId: `test_pay_${order.id}`, tickets: quantity });
    expect(state.ledger).toEqual([
      { kind: "charge", status: "succeeded", amount: 2500, reference: `test_pay_${order.id}` },
    ]);
    expect(await soldOf(db, ticketTypeId)).toBe(quantity);
    expect((await returnOf(member.id, order.id)).answer).toEqual({ kind: "paid", orderId: order.id });
  });

  it("Decline and Cancel end the order, free its places and send the buyer back with the reason", async () => {
    const { db } = database();
    for (const [intent, reason] of [
      ["decline", SANDBOX_DECLINED_REASON],
      ["cancel", BUYER_CANCELLED_REASON],
    ] as const) {
      const checkout = await atTestCheckout();
      const { order, member } = checkout;
      await press(checkout, intent, at(2));
      expect(await orderState(db, order.id)).toMatchObject({
        status: "cancelled",
        failureReason: reason,
        holds: ["released"],
        tickets: 0,
        ledger: [],
      });
      expect((await returnOf(member.id, order.id)).answer).toEqual({ kind: "failed", orderId: order.id, reason });
      // A stale Pay from another tab after that takes no money.
      await press(checkout, "pay", at(3));
      expect((await orderState(db, order.id)).ledger).toEqual([]);
    }
  });

  it("refuses Pay once the hold ran out: nothing is settled, and an expired order stays expired", async () => {
    const { db } = database();
    const late = await atTestCheckout({ capacity: 5, quantity: 2 });
    const tooLate = await press(late, "pay", at(30));
    expect(tooLate).toEqual({ kind: "hold_over" });
    expect(await orderState(db, late.order.id)).toMatchObject({ status: "pending", tickets: 0, ledger: [] });

    const gone = await atTestCheckout({ capacity: 2, quantity: 2 });
    await buyPlaces(db, gone.ticketTypeId, 2, at(20));
    await closeExpiredPayments(db, gateway, { now: at(20) });
    expect((await orderState(db, gone.order.id)).status).toBe("expired");
    const refused = await press(gone, "pay", at(21));
    expect(refused).toEqual({ kind: "hold_over" });
    expect(await orderState(db, gone.order.id)).toMatchObject({ status: "expired", tickets: 0, ledger: [] });
  });

  it("keeps a pending order confirming at /return, and 404s for someone else's", async () => {
    const { db } = database();
    const { order, member } = await atTestCheckout();
    expect((await returnOf(member.id, order.id)).answer).toMatchObject({
      kind: "pending",
      order: { id: order.id, number: order.number, total: 2500 },
      processing: false,
      paymentUrl: `/checkout/test/${order.id}`,
    });
    const [stranger] = await createBuyers(db, 1);
    expect((await returnOf(stranger!.id, order.id)).answer).toEqual({ kind: "not_found" });
    expect(
      (await confirmReturn(db, gateway, { userId: member.id, orderId: "%27", cancelled: false, now: at(3) })).answer,
    ).toEqual({ kind: "not_found" });
  });

  it("expires an order whose hold ran out at the test checkout when the expiry job runs", async () => {
    const { db } = database();
    const { order } = await atTestCheckout();
    const sweep = await closeExpiredPayments(db, gateway, { now: at(16) });
    expect(sweep.expired).toBeGreaterThanOrEqual(1);
    expect(await orderState(db, order.id)).toMatchObject({ status: "expired", failureReason: HOLD_EXPIRED_REASON });
  });

  it("settles a free order at once, with no payment page", async () => {
    const { db } = database();
    const { order, member } = await pendingOrder(db, { price: 0 });
    const started = await startOrderPayment(db, gateway, {
      orderId: order.id,
      userId: member.id,
      siteUrl: "http://club.test",
      now: at(1),
    });
    expect(started).toEqual({
      kind: "redirect",
      url: `/return?order=${order.id}`,
      followUps: { settledOrderIds: [order.id], refusedOrderIds: [], refundsDue: false },
    });
    expect(await orderState(db, order.id)).toMatchObject({ status: "paid", tickets: 2, ledger: [] });
  });
});
