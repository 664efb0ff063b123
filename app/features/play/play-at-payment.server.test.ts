import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { followUpsOf } from "~/features/checkout/payment-follow-ups";
import { followUpPayments } from "~/features/checkout/payment-jobs.server";
import { startOrderPayment } from "~/features/checkout/start-payment.server";
import { checkoutFor, paidInFull } from "~/features/checkout/stock.test-support";
import {
  createEntrants,
  createTestDraw,
  DRAW_NOW,
  fillEntryCart,
  postalEntry,
} from "~/features/draws/draws.test-support";
import { cancelPendingEntryOrders } from "~/features/orders/cancel.server";
import { ORDER_ENV } from "~/features/orders/paid-orders.test-support";
import { refusedPaymentEmailJob, sendRefusedPaymentEmail } from "~/features/orders/refused-payment-email.server";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { MailTransport, OutboundEmail } from "~/server/mail/mail.server";
import { sandboxGateway } from "~/server/payments/sandbox-provider";
import { drawEntries, orders, transactions } from "../../../db/schema";
import { setSpendLimits, takeBreak } from "./play-settings.server";

// Responsible play where the money is taken (docs/responsible-play.md): a break begun or a limit
// lowered after entries went into an order stops the order being paid, resumed or settled late.
const database = freshDatabasePerFile();
const minutes = (n: number) => new Date(DRAW_NOW.getTime() + n * 60_000);

/** A member with an unpaid order for two £2 entries, made at DRAW_NOW. */
async function pendingEntryOrder(provider: "test" | "stripe" = "test") {
  const { db } = database();
  const draw = await createTestDraw(db);
  const [who] = await createEntrants(db, 1);
  const cartId = await fillEntryCart(db, who!.id, [{ drawId: draw.id, entriesPerUnit: 1, quantity: 2, answer: 1 }]);
  const checkout = await startCheckout(db, { ...checkoutFor(who!, cartId, DRAW_NOW), provider });
  if (!checkout.ok) throw new Error(checkout.problems[0]!.message);
  return { who: who!, draw, order: checkout.order };
}

async function orderState(orderId: string) {
  const { db } = database();
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  const entries = await db.select().from(drawEntries).where(eq(drawEntries.orderId, orderId));
  const refunds = await db
    .select({ amount: transactions.amount, reason: transactions.reason })
    .from(transactions)
    .where(and(eq(transactions.orderId, orderId), eq(transactions.kind, "refund")));
  return { order: order!, entries, refunds };
}

function recordingMail() {
  const sent: OutboundEmail[] = [];
  const mail: MailTransport = {
    name: "mailbox",
    send: async (email) => {
      sent.push(email);
      return {};
    },
  };
  return { sent, mail };
}

describe("responsible play at payment", () => {
  it("refunds a payment that arrives after the member excluded themselves, gives no entries, and emails why", async () => {
    const { db } = database();
    const { who, order } = await pendingEntryOrder();
    await takeBreak(db, { userId: who.id, kind: "exclusion", choice: "6m", now: minutes(1) });

    const outcome = await settleOrder(db, paidInFull(order, minutes(2)));
    expect(outcome).toMatchObject({ kind: "refund_required", reason: expect.stringMatching(/excluded yourself/) });
    const state = await orderState(order.id);
    expect(state.order.status).toBe("cancelled");
    expect(state.entries).toHaveLength(0);
    expect(state.refunds).toEqual([{ amount: order.total, reason: expect.stringMatching(/The payment is refunded/) }]);

    // After the commit the buyer's email about it is queued, and it says why, once.
    const queued: unknown[][] = [];
    await followUpPayments(
      { db, jobs: { enqueue: async (...call: unknown[]) => void queued.push(call) } as never },
      followUpsOf([outcome]),
    );
    expect(queued).toContainEqual([refusedPaymentEmailJob, { orderId: order.id }, { singletonKey: order.id }]);
    const { sent, mail } = recordingMail();
    expect(await sendRefusedPaymentEmail({ db, mail, env: ORDER_ENV }, order.id)).toBe("sent");
    expect(await sendRefusedPaymentEmail({ db, mail, env: ORDER_ENV }, order.id)).not.toBe("sent");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe(who.email);
    expect(sent[0]!.subject).toMatch(/Your payment for order .* is being refunded/);
    expect(sent[0]!.text).toMatch(/Reason: You have excluded yourself from prize draws until/);
    expect(sent[0]!.text).toMatch(/£4\.00 goes back to the card you paid with/);
  });

  it("refunds a payment that would pass a limit lowered after the order was made", async () => {
    const { db } = database();
    const { who, order } = await pendingEntryOrder();
    await setSpendLimits(db, { userId: who.id, limits: { weekly: 300, monthly: null }, now: minutes(1) });
    const outcome = await settleOrder(db, paidInFull(order, minutes(2)));
    expect(outcome).toMatchObject({
      kind: "refund_required",
      reason: expect.stringMatching(/would take you over your weekly limit of £3\.00/),
    });
    expect((await orderState(order.id)).entries).toHaveLength(0);
  });

  it("cancels a held order for entries at resume when a cool-off began after it was made", async () => {
    const { db } = database();
    const sandbox = sandboxGateway();
    const { who, order } = await pendingEntryOrder("stripe");
    await takeBreak(db, { userId: who.id, kind: "cool-off", choice: "24h", now: minutes(1) });
    const resumed = await startOrderPayment(db, sandbox.gateway, {
      orderId: order.id,
      userId: who.id,
      siteUrl: "https://club.test",
      now: minutes(2),
    });
    expect(resumed).toMatchObject({ kind: "redirect", url: `/return?order=${order.id}` });
    expect(sandbox.sessionOf(order.id)).toBeNull();
    const state = await orderState(order.id);
    expect(state.order).toMatchObject({ status: "cancelled", failureReason: expect.stringMatching(/taking a break/) });
    expect(state.entries).toHaveLength(0);
  });

  it("cancels the member's unpaid entry orders when a break begins, and refunds a payment that still arrives", async () => {
    const { db } = database();
    const { who, order } = await pendingEntryOrder();
    await takeBreak(db, { userId: who.id, kind: "exclusion", choice: "1y", now: minutes(1) });
    const reason = "Cancelled because your self-exclusion from prize draws began before it was paid";
    expect(await cancelPendingEntryOrders(db, { userId: who.id, reason, now: minutes(1) })).toBe(1);
    expect((await orderState(order.id)).order).toMatchObject({ status: "cancelled", failureReason: reason });
    const late = await settleOrder(db, paidInFull(order, minutes(3)));
    expect(late).toMatchObject({ kind: "refund_required" });
    const state = await orderState(order.id);
    expect(state.entries).toHaveLength(0);
    expect(state.refunds).toHaveLength(1);
  });

  it("takes the payment as before when nothing changed since the order was made", async () => {
    const { db } = database();
    const { order } = await pendingEntryOrder();
    expect(await settleOrder(db, paidInFull(order, minutes(2)))).toMatchObject({
      kind: "settled",
      issued: { entry: 2 },
    });
  });
});

describe("postal entries recorded by staff", () => {
  async function postalFor(userId: string) {
    const { db } = database();
    const draw = await createTestDraw(db);
    const [staff] = await createEntrants(db, 1, { role: "admin" });
    return postalEntry(db, { drawId: draw.id, userId, actorId: staff!.id });
  }

  it("refuses a member who excluded themselves or is taking a break", async () => {
    const { db } = database();
    const [excluded, resting] = await createEntrants(db, 2);
    await takeBreak(db, { userId: excluded!.id, kind: "exclusion", choice: "6m", now: minutes(-60) });
    await takeBreak(db, { userId: resting!.id, kind: "cool-off", choice: "7d", now: minutes(-60) });
    expect(await postalFor(excluded!.id)).toMatchObject({
      ok: false,
      problem: { code: "excluded", message: expect.stringMatching(/has excluded themselves/) },
    });
    expect(await postalFor(resting!.id)).toMatchObject({ ok: false, problem: { code: "cool_off" } });
  });

  it("refuses a member under 18 or with no date of birth, and takes an adult without a verified phone", async () => {
    const { db } = database();
    const [young] = await createEntrants(db, 1, { dateOfBirth: "2012-01-01" });
    const [unknown] = await createEntrants(db, 1, { dateOfBirth: null });
    const [noPhone] = await createEntrants(db, 1, { phoneNumberVerified: false });
    expect(await postalFor(young!.id)).toMatchObject({
      ok: false,
      problem: { code: "age", message: "This member is under 18: entrants must be 18 or over" },
    });
    expect(await postalFor(unknown!.id)).toMatchObject({
      ok: false,
      problem: { code: "age", message: expect.stringMatching(/no date of birth on file/) },
    });
    expect(await postalFor(noPhone!.id)).toMatchObject({ ok: true });
  });
});
