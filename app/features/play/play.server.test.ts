import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getOrCreateCart } from "~/features/cart/cart.server";
import { handlePaymentNotification } from "~/features/checkout/payment-notifications.server";
import { applyPaymentState } from "~/features/checkout/payment-state.server";
import { startOrderPayment } from "~/features/checkout/start-payment.server";
import { checkoutFor, paidInFull } from "~/features/checkout/stock.test-support";
import { addEntriesToCart } from "~/features/draws/cart-entries.server";
import { createEntrants, createTestDraw, DRAW_NOW } from "~/features/draws/draws.test-support";
import { enterGiveaway } from "~/features/draws/enter.server";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { sandboxGateway } from "~/server/payments/sandbox-provider";
import { stripeGateway } from "~/server/payments/stripe.server";
import {
  auditLog,
  cartItems,
  drawEntries,
  draws,
  orderItems,
  orders,
  playSettings,
  transactions,
} from "../../../db/schema";
import { type FakeStripe, startFakeStripe } from "../../../tests/load/fake-stripe";
import { CREDIT_CARD_INSTANT_WIN_REASON } from "./credit-cards.server";
import {
  entrySpend,
  playStatus,
  readPlaySettings,
  recordLimitsOffer,
  setSpendLimits,
  takeBreak,
} from "./play-settings.server";

const database = freshDatabasePerFile();
const hours = (n: number) => new Date(DRAW_NOW.getTime() + n * 3_600_000);

/** The member's one cart, holding just these entry lines. */
async function fillEntryCart(
  db: Db,
  userId: string,
  lines: { drawId: string; entriesPerUnit: number; quantity: number; answer: number }[],
) {
  const cartId = await getOrCreateCart(db, { userId });
  await db.delete(cartItems).where(eq(cartItems.cartId, cartId));
  await db.insert(cartItems).values(lines.map((line) => ({ cartId, kind: "entry" as const, ...line })));
  return cartId;
}

async function member() {
  const [entrant] = await createEntrants(database().db, 1);
  return entrant!;
}

/** Checkout and a test payment of the member's cart; answers the checkout. */
async function buy(who: { id: string; email: string }, cartId: string, now = DRAW_NOW) {
  const { db } = database();
  const result = await startCheckout(db, checkoutFor(who, cartId, now));
  if (!result.ok) return result;
  await settleOrder(db, paidInFull(result.order, now));
  return result;
}

describe("settings", () => {
  it("applies a lower limit at once and a raise 24 hours later, on read, with every change audited", async () => {
    const { db } = database();
    const who = await member();
    expect(await readPlaySettings(db, who.id, DRAW_NOW)).toMatchObject({ weekly: null, monthly: null, pending: null });
    await setSpendLimits(db, { userId: who.id, limits: { weekly: 1000, monthly: null }, now: DRAW_NOW });
    expect(await readPlaySettings(db, who.id, DRAW_NOW)).toMatchObject({ weekly: 1000, pending: null });

    await setSpendLimits(db, { userId: who.id, limits: { weekly: null, monthly: null }, now: hours(1) });
    expect(await readPlaySettings(db, who.id, hours(24))).toMatchObject({
      weekly: 1000,
      pending: { weekly: null, monthly: null, from: hours(25).toISOString() },
    });
    expect(await readPlaySettings(db, who.id, hours(25))).toMatchObject({ weekly: null, pending: null });
    const [row] = await db.select().from(playSettings).where(eq(playSettings.userId, who.id));
    expect(row).toMatchObject({ weeklyLimit: null, pendingLimits: null });

    const audit = await db
      .select({ action: auditLog.action, actorId: auditLog.actorId })
      .from(auditLog)
      .where(eq(auditLog.subjectId, who.id));
    expect(audit).toEqual([
      { action: "play.limits-changed", actorId: who.id },
      { action: "play.limits-changed", actorId: who.id },
    ]);
  });

  it("records the onboarding offer, with or without a limit", async () => {
    const { db } = database();
    const [a, b] = [await member(), await member()];
    await recordLimitsOffer(db, { userId: a.id, limits: { weekly: 0, monthly: null }, now: DRAW_NOW });
    await recordLimitsOffer(db, { userId: b.id, limits: null, now: DRAW_NOW });
    expect(await readPlaySettings(db, a.id, DRAW_NOW)).toMatchObject({ weekly: 0, limitsOfferedAt: DRAW_NOW });
    expect(await readPlaySettings(db, b.id, DRAW_NOW)).toMatchObject({ weekly: null, limitsOfferedAt: DRAW_NOW });
  });

  it("extends a cool-off or a self-exclusion but never shortens one", async () => {
    const { db } = database();
    const who = await member();
    expect(await takeBreak(db, { userId: who.id, kind: "cool-off", choice: "7d", now: DRAW_NOW })).toEqual({
      ok: true,
      until: hours(7 * 24),
    });
    const shorter = await takeBreak(db, { userId: who.id, kind: "cool-off", choice: "24h", now: hours(1) });
    expect(shorter).toEqual({
      ok: false,
      message:
        "Your cool-off already runs until Sat 8 May 2027, 11:00 BST. It cannot be shortened: choose a longer one to extend it",
    });
    expect(await takeBreak(db, { userId: who.id, kind: "cool-off", choice: "30d", now: hours(1) })).toMatchObject({
      ok: true,
      until: hours(1 + 30 * 24),
    });
    expect(await takeBreak(db, { userId: who.id, kind: "exclusion", choice: "1y", now: DRAW_NOW })).toMatchObject({
      ok: true,
    });
    expect(await takeBreak(db, { userId: who.id, kind: "exclusion", choice: "6m", now: DRAW_NOW })).toMatchObject({
      ok: false,
    });
    const status = await playStatus(db, who.id, hours(2));
    expect(status.blocked?.code).toBe("excluded");
    expect(status.settings.excludedUntil?.toISOString()).toBe("2028-05-01T10:00:00.000Z");
  });
});

describe("spend and limits at checkout", () => {
  it("reads the settings and the spend together as they read apart, saving a raise that has come due", async () => {
    const { db } = database();
    const draw = await createTestDraw(db);
    const who = await member();
    expect(await playStatus(db, who.id, DRAW_NOW)).toEqual({
      settings: await readPlaySettings(db, who.id, DRAW_NOW),
      spend: { week: 0, month: 0 },
      left: { week: null, month: null },
      blocked: null,
    });

    await buy(who, await fillEntryCart(db, who.id, [{ drawId: draw.id, entriesPerUnit: 5, quantity: 1, answer: 1 }]));
    await setSpendLimits(db, { userId: who.id, limits: { weekly: 1000, monthly: null }, now: DRAW_NOW });
    await setSpendLimits(db, { userId: who.id, limits: { weekly: 5000, monthly: null }, now: hours(1) });
    const status = await playStatus(db, who.id, hours(26));
    expect(status.settings).toMatchObject({ weekly: 5000, pending: null });
    expect(status.settings).toEqual(await readPlaySettings(db, who.id, hours(26)));
    expect(status.spend).toEqual(await entrySpend(db, who.id, hours(26)));
    expect(status.spend.week).toBeGreaterThan(0);
    expect(status.left).toMatchObject({ week: 5000 - status.spend.week });
    const [row] = await db.select().from(playSettings).where(eq(playSettings.userId, who.id));
    expect(row).toMatchObject({ weeklyLimit: 5000, pendingLimits: null });
  });

  it("counts paid entry lines of the last 7 and 30 days, less refunded lines", async () => {
    const { db } = database();
    const draw = await createTestDraw(db);
    const who = await member();
    await buy(who, await fillEntryCart(db, who.id, [{ drawId: draw.id, entriesPerUnit: 5, quantity: 1, answer: 1 }]));
    await buy(
      who,
      await fillEntryCart(db, who.id, [{ drawId: draw.id, entriesPerUnit: 1, quantity: 3, answer: 1 }]),
      hours(1),
    );
    expect(await entrySpend(db, who.id, hours(2))).toEqual({ week: 1400, month: 1400 });
    expect(await entrySpend(db, who.id, hours(8 * 24))).toEqual({ week: 0, month: 1400 });
    // One of the three single entries refunded.
    const [line] = await db
      .select({ id: orderItems.id, orderId: orderItems.orderId })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(and(eq(orders.userId, who.id), eq(orderItems.entriesPerUnit, 1)));
    await db.update(orderItems).set({ refundedQuantity: 1 }).where(eq(orderItems.id, line!.id));
    await db.update(orders).set({ status: "partly_refunded" }).where(eq(orders.id, line!.orderId));
    expect(await entrySpend(db, who.id, hours(2))).toEqual({ week: 1200, month: 1200 });
  });

  it("refuses Pay at a £0 limit, naming it, and keeps the cart", async () => {
    const { db } = database();
    const draw = await createTestDraw(db);
    const who = await member();
    const cartId = await fillEntryCart(db, who.id, [{ drawId: draw.id, entriesPerUnit: 1, quantity: 2, answer: 1 }]);
    await setSpendLimits(db, { userId: who.id, limits: { weekly: 0, monthly: null }, now: DRAW_NOW });
    const result = await startCheckout(db, checkoutFor(who, cartId));
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          code: "spend_limit",
          message: expect.stringMatching(/weekly limit for prize draws is £0\.00, so paid entries are off/),
        },
      ],
    });
    expect(await db.select().from(cartItems).where(eq(cartItems.cartId, cartId))).toHaveLength(1);
    expect(await db.select().from(orders).where(eq(orders.userId, who.id))).toHaveLength(0);
  });

  it("lets a cart reach the limit exactly, and refuses a penny over with what is left", async () => {
    const { db } = database();
    const draw = await createTestDraw(db);
    const who = await member();
    await buy(who, await fillEntryCart(db, who.id, [{ drawId: draw.id, entriesPerUnit: 1, quantity: 1, answer: 1 }]));
    await setSpendLimits(db, { userId: who.id, limits: { weekly: 1000, monthly: 5000 }, now: DRAW_NOW });

    const over = await fillEntryCart(db, who.id, [{ drawId: draw.id, entriesPerUnit: 1, quantity: 5, answer: 1 }]);
    const refused = await startCheckout(db, checkoutFor(who, over, hours(1)));
    expect(refused).toMatchObject({
      ok: false,
      problems: [
        {
          code: "spend_limit",
          message:
            "These entries (£10.00) would take you over your weekly limit of £10.00 for prize draws: £8.00 is left for the last 7 days",
        },
      ],
    });
    const exact = await fillEntryCart(db, who.id, [{ drawId: draw.id, entriesPerUnit: 1, quantity: 4, answer: 1 }]);
    expect(await startCheckout(db, checkoutFor(who, exact, hours(1)))).toMatchObject({ ok: true });
  });

  it("stops adding paid entries early, and entries of any kind in a cool-off", async () => {
    const { db } = database();
    const draw = await createTestDraw(db);
    const giveaway = await createTestDraw(db, { kind: "giveaway", price: 0, bundles: [], maxPerMember: 1 });
    const who = await member();
    const add = () =>
      addEntriesToCart(db, {
        userId: who.id,
        drawId: draw.id,
        entriesPerUnit: 1,
        answer: 1,
        confirmedAdult: true,
        now: hours(1),
      });
    await setSpendLimits(db, { userId: who.id, limits: { weekly: 0, monthly: null }, now: DRAW_NOW });
    expect(await add()).toMatchObject({ ok: false, problem: { code: "spend_limit", drawId: draw.id } });

    await takeBreak(db, { userId: who.id, kind: "cool-off", choice: "24h", now: DRAW_NOW });
    const cooling = /taking a break from prize draws until Sun 2 May 2027, 11:00 BST/;
    expect(await add()).toMatchObject({
      ok: false,
      problem: { code: "cool_off", message: expect.stringMatching(cooling) },
    });
    const free = await enterGiveaway(db, {
      drawId: giveaway.id,
      userId: who.id,
      answer: 1,
      confirmedAdult: true,
      now: hours(1),
    });
    expect(free).toMatchObject({ ok: false, problem: { code: "cool_off", message: expect.stringMatching(cooling) } });
    expect(await db.select().from(drawEntries).where(eq(drawEntries.userId, who.id))).toHaveLength(0);

    // Paying for entries already in the cart is refused too.
    const cartId = await fillEntryCart(db, who.id, [{ drawId: draw.id, entriesPerUnit: 1, quantity: 1, answer: 1 }]);
    const checkout = await startCheckout(db, checkoutFor(who, cartId, hours(1)));
    expect(checkout).toMatchObject({ ok: false, problems: [{ code: "cool_off" }] });
    // Once it ends, the giveaway takes the entry.
    expect(
      await enterGiveaway(db, { drawId: giveaway.id, userId: who.id, answer: 1, confirmedAdult: true, now: hours(25) }),
    ).toMatchObject({ ok: true });
  });
});

describe("credit cards", () => {
  const sandbox = sandboxGateway();

  /** A Stripe order for the member's cart of entries, paid at the (sandbox) provider by this kind of card. */
  async function payByCard(
    who: { id: string; email: string },
    lines: { drawId: string; entriesPerUnit: number; quantity: number }[],
    cardFunding: "credit" | "debit",
  ) {
    const { db } = database();
    const cartId = await fillEntryCart(
      db,
      who.id,
      lines.map((line) => ({ ...line, answer: 1 })),
    );
    const checkout = await startCheckout(db, { ...checkoutFor(who, cartId), provider: "stripe" });
    if (!checkout.ok) throw new Error(checkout.problems[0]!.message);
    const orderId = checkout.order.id;
    await startOrderPayment(db, sandbox.gateway, {
      orderId,
      userId: who.id,
      siteUrl: "https://club.test",
      now: DRAW_NOW,
    });
    const state = sandbox.pay(sandbox.sessionOf(orderId)!.id, { cardFunding });
    const applied = await applyPaymentState(db, {
      orderId,
      provider: "stripe",
      state,
      now: DRAW_NOW,
      gateway: sandbox.gateway,
    });
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    const entries = await db.select().from(drawEntries).where(eq(drawEntries.orderId, orderId));
    const refunds = await db
      .select({ amount: transactions.amount, status: transactions.status })
      .from(transactions)
      .where(and(eq(transactions.orderId, orderId), eq(transactions.kind, "refund")));
    return { applied, order: order!, entries, refunds };
  }

  it("refuses a credit card for a draw with instant wins, refunding it with no entries; a debit card pays", async () => {
    const { db } = database();
    const draw = await createTestDraw(db, { instantWins: [{ number: 7, prize: "A detailing kit" }] });
    const who = await member();
    const credit = await payByCard(who, [{ drawId: draw.id, entriesPerUnit: 1, quantity: 2 }], "credit");
    expect(credit.applied.outcome).toMatchObject({
      kind: "settlement",
      settlement: { kind: "refund_required", reason: CREDIT_CARD_INSTANT_WIN_REASON },
    });
    expect(credit.order).toMatchObject({
      status: "cancelled",
      cardFunding: "credit",
      failureReason: CREDIT_CARD_INSTANT_WIN_REASON,
    });
    expect(credit.entries).toHaveLength(0);
    expect(credit.refunds).toEqual([{ amount: 400, status: "pending" }]);

    const debit = await payByCard(who, [{ drawId: draw.id, entriesPerUnit: 1, quantity: 2 }], "debit");
    expect(debit.order).toMatchObject({ status: "paid", cardFunding: "debit" });
    expect(debit.entries).toHaveLength(2);
  });

  it("caps credit-card spend on entries at £250 a calendar month", async () => {
    const { db } = database();
    const draw = await createTestDraw(db, { price: 10_000, bundles: [] });
    const who = await member();
    const first = await payByCard(who, [{ drawId: draw.id, entriesPerUnit: 1, quantity: 2 }], "credit");
    expect(first.order).toMatchObject({ status: "paid", cardFunding: "credit" });
    const second = await payByCard(who, [{ drawId: draw.id, entriesPerUnit: 1, quantity: 1 }], "credit");
    expect(second.order).toMatchObject({
      status: "cancelled",
      failureReason:
        "Credit cards can pay for at most £250.00 of prize-draw entries a calendar month, and £50.00 is left this month: the payment is refunded. Pay with a debit card instead",
    });
    expect(second.entries).toHaveLength(0);
    expect(second.refunds).toEqual([{ amount: 10_000, status: "pending" }]);
    // A debit card is not capped.
    expect((await payByCard(who, [{ drawId: draw.id, entriesPerUnit: 1, quantity: 1 }], "debit")).order.status).toBe(
      "paid",
    );
  });
});

describe("credit cards through Stripe's API", () => {
  let fake: FakeStripe;
  const webhookSecret = "whsec_play_test";
  beforeAll(async () => {
    fake = await startFakeStripe({ webhookSecret });
  });
  afterAll(() => fake.close());

  it("reads the card's funding from the payment's latest charge and refuses a credit card over the cap", async () => {
    const { db } = database();
    const gateway = stripeGateway({ secretKey: "sk_test_fake", webhookSecret, apiUrl: fake.url });
    const draw = await createTestDraw(db, { price: 15_000, bundles: [] });
    const who = await member();

    const payWith = async (funding: "credit" | "debit") => {
      const cartId = await fillEntryCart(db, who.id, [{ drawId: draw.id, entriesPerUnit: 1, quantity: 1, answer: 1 }]);
      const checkout = await startCheckout(db, { ...checkoutFor(who, cartId, new Date()), provider: "stripe" });
      if (!checkout.ok) throw new Error(checkout.problems[0]!.message);
      const started = await startOrderPayment(db, gateway, {
        orderId: checkout.order.id,
        userId: who.id,
        siteUrl: "https://club.test",
        now: new Date(),
      });
      if (started.kind !== "redirect") throw new Error("no payment page");
      const event = fake.pay(fake.sessionOfRedirect(started.url)!.id, { funding });
      await handlePaymentNotification(db, gateway, {
        rawBody: event.payload,
        signature: fake.signatureOf(event),
        now: new Date(),
      });
      const [order] = await db.select().from(orders).where(eq(orders.id, checkout.order.id));
      return order!;
    };

    // The test draw runs around its own clock; this one is open now.
    await db
      .update(draws)
      .set({ opensAt: new Date(Date.now() - 3_600_000), closesAt: new Date(Date.now() + 3_600_000) })
      .where(eq(draws.id, draw.id));
    expect(await payWith("credit")).toMatchObject({ status: "paid", cardFunding: "credit" });
    expect(await payWith("debit")).toMatchObject({ status: "paid", cardFunding: "debit" });
    expect(await payWith("credit")).toMatchObject({
      status: "cancelled",
      cardFunding: "credit",
      failureReason: expect.stringMatching(/at most £250\.00 .* and £100\.00 is left this month/),
    });
  });
});
