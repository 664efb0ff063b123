import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findCart } from "~/features/cart/cart.server";
import { checkoutFor, createBuyers, NOW } from "~/features/checkout/stock.test-support";
import { refundOrder, settleOrder, startCheckout } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { OutboundEmail } from "~/server/mail/mail.server";
import { type MembershipBilling, PermanentPaymentError } from "~/server/payments/payments.server";
import { memberships, orders } from "../../../db/schema";
import { addMembershipToCart } from "./cart-membership.server";
import { changeMembership } from "./member-changes.server";
import { membershipOf, setRenewal, statusOf } from "./memberships.server";
import {
  applyBillingEvent,
  chargeTestCard,
  type MembershipClockServices,
  PROVIDER_UNREACHABLE,
  runMembershipClock,
  STRIPE_PENDING,
} from "./renewals.server";
import { createTestTier } from "./tiers.test-support";

// Renewals through Stripe Billing, driven by the test clock: the provider's side is a recording
// stand-in (the Stripe adapter's own requests and notifications are tested in
// app/server/payments/stripe.server.test.ts).
const database = freshDatabasePerFile();
const DAY = 24 * 60 * 60 * 1000;
const daysFrom = (date: Date, days: number) => new Date(date.getTime() + days * DAY);

type Call = { method: keyof MembershipBilling; args: unknown[] };

function stripeBilling(options: { failing?: boolean; noCard?: boolean } = {}) {
  const calls: Call[] = [];
  const record =
    (method: keyof MembershipBilling) =>
    async (...args: unknown[]) => {
      calls.push({ method, args });
      if (options.failing) throw new Error("Stripe is unreachable");
    };
  const billing: MembershipBilling = {
    async subscribe(input) {
      calls.push({ method: "subscribe", args: [input] });
      if (options.noCard) throw new PermanentPaymentError("The joining payment saved no card for renewals");
      return { subscriptionId: `sub_${input.membershipId}` };
    },
    setRenewing: record("setRenewing"),
    setPrice: record("setPrice"),
    cancel: record("cancel"),
    async invoicePayment(invoiceId) {
      calls.push({ method: "invoicePayment", args: [invoiceId] });
      return `pi_paid_${invoiceId}`;
    },
  };
  return { billing, calls };
}

function clock(db: Db, billing: MembershipBilling) {
  const sent: OutboundEmail[] = [];
  const charged: string[] = [];
  const services: MembershipClockServices = {
    db,
    sendEmail: async (email) => {
      sent.push(email);
    },
    brand: { siteName: "Pitlane", siteUrl: "https://club.example", currency: "GBP", secret: "s".repeat(32) },
    charge: async (input) => {
      charged.push(input.paymentMethod);
      return chargeTestCard(input);
    },
    settle: (input) => settleOrder(db, input),
    billing,
  };
  return { sent, charged, services, at: (when: Date) => runMembershipClock(services, when) };
}

/** A member who joined a yearly tier at NOW, paying by Stripe with the card saved for renewals. */
async function stripeMember(db: Db) {
  const tier = await createTestTier(db, { name: "Annual", price: 3000 });
  const [buyer] = await createBuyers(db, 1);
  await addMembershipToCart(db, { userId: buyer!.id, tierId: tier.id, people: [], now: NOW });
  const cartId = (await findCart(db, { userId: buyer!.id }))!;
  const checkout = await startCheckout(db, { ...checkoutFor(buyer!, cartId), provider: "stripe" });
  if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));
  const paid = await settleOrder(db, {
    orderId: checkout.order.id,
    provider: "stripe",
    paymentReference: `pi_join_${buyer!.id}`,
    amount: checkout.order.total,
    currency: "GBP",
    now: NOW,
  });
  expect(paid.kind).toBe("settled");
  const row = await membershipOf(db, buyer!.id);
  return { buyer: buyer!, tier, renewsAt: row!.membership.paidUntil, orderId: checkout.order.id };
}

const paymentMethodOf = async (db: Db, userId: string) => (await membershipOf(db, userId))!.membership.paymentMethod;
/** The subscription the stand-in made for the member's membership. */
const subscriptionOf = async (db: Db, userId: string) => `sub_${(await membershipOf(db, userId))!.membership.id}`;

describe("renewals through Stripe Billing", () => {
  it("subscribes the card the joining payment saved, first charging when the paid year ends", async () => {
    const { db } = database();
    const { buyer, renewsAt } = await stripeMember(db);
    expect(await paymentMethodOf(db, buyer.id)).toBe(STRIPE_PENDING);
    const { billing, calls } = stripeBilling();
    const { at } = clock(db, billing);
    await at(daysFrom(NOW, 0.01));
    expect(calls).toEqual([
      {
        method: "subscribe",
        args: [
          {
            membershipId: (await membershipOf(db, buyer.id))!.membership.id,
            paymentReference: `pi_join_${buyer.id}`,
            price: { description: "Annual membership", amount: 3000, currency: "GBP", months: 12 },
            firstChargeAt: renewsAt,
          },
        ],
      },
    ]);
    expect(await paymentMethodOf(db, buyer.id)).toBe(`stripe:sub_${(await membershipOf(db, buyer.id))!.membership.id}`);
    // Once: the next run has nothing to subscribe.
    await at(daysFrom(NOW, 0.02));
    expect(calls.filter((call) => call.method === "subscribe")).toHaveLength(1);
  });

  it("keeps no way to charge when the payment saved no card, so the member is asked to renew", async () => {
    const { db } = database();
    const { buyer } = await stripeMember(db);
    const { billing } = stripeBilling({ noCard: true });
    await clock(db, billing).at(daysFrom(NOW, 0.01));
    expect(await paymentMethodOf(db, buyer.id)).toBeNull();
  });

  it("reminds with the subscription's price set first, leaves the charge to Stripe, and records the renewal it reports", async () => {
    const { db } = database();
    const { buyer, renewsAt } = await stripeMember(db);
    const { billing, calls } = stripeBilling();
    const { at, sent, charged, services } = clock(db, billing);
    await at(daysFrom(NOW, 0.01));
    await at(daysFrom(renewsAt, -14));
    const subscriptionId = await subscriptionOf(db, buyer.id);
    expect(calls.at(-1)).toEqual({
      method: "setPrice",
      args: [subscriptionId, { description: "Annual membership", amount: 3000, currency: "GBP", months: 12 }],
    });
    expect(sent.at(-1)?.subject).toBe("Your Annual membership renews on 1 May 2028");
    // The renewal date passes: the clock charges nothing itself.
    expect(await at(daysFrom(renewsAt, 0.01))).toMatchObject({ renewed: 0 });
    expect(charged).toEqual([]);

    const paid = {
      kind: "renewal_paid" as const,
      subscriptionId,
      invoiceId: "in_renewal_1",
      paymentReference: null,
      amount: 3000,
      currency: "GBP",
    };
    expect(await applyBillingEvent(services, paid, daysFrom(renewsAt, 0.02))).toEqual({ applied: true });
    const renewed = await membershipOf(db, buyer.id);
    expect(renewed!.membership.paidUntil.toISOString()).toBe("2029-05-01T10:00:00.000Z");
    const [order] = await db.select().from(orders).where(eq(orders.id, renewed!.membership.orderId!));
    expect(order).toMatchObject({
      status: "paid",
      total: 3000,
      provider: "stripe",
      providerPaymentId: "pi_paid_in_renewal_1",
    });
    expect(sent.at(-1)?.subject).toBe("Your Annual membership is renewed");
    // The same notification again changes nothing.
    expect(await applyBillingEvent(services, paid, daysFrom(renewsAt, 0.03))).toEqual({ applied: false });
    const renewals = await db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.userId, buyer.id), eq(orders.status, "paid")));
    expect(renewals).toHaveLength(2);
  });

  it("tells the member when Stripe's charge fails, once per try, and lapses when Stripe gives up", async () => {
    const { db } = database();
    const { buyer, renewsAt } = await stripeMember(db);
    const { billing } = stripeBilling();
    const { at, sent, services } = clock(db, billing);
    await at(daysFrom(NOW, 0.01));
    await at(daysFrom(renewsAt, -14));
    const subscriptionId = await subscriptionOf(db, buyer.id);
    const failed = {
      kind: "renewal_failed" as const,
      subscriptionId,
      invoiceId: "in_renewal_1",
      nextAttemptAt: daysFrom(renewsAt, 3),
    };
    await applyBillingEvent(services, failed, daysFrom(renewsAt, 0.01));
    await applyBillingEvent(services, failed, daysFrom(renewsAt, 0.02));
    const told = sent.filter((email) => email.subject === "We could not renew your Annual membership");
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain("We will try again on 4 May 2028");
    const during = await membershipOf(db, buyer.id);
    expect(statusOf(during!.membership, daysFrom(renewsAt, 1))).toMatchObject({ state: "grace" });

    await applyBillingEvent(services, { kind: "subscription_ended", subscriptionId }, daysFrom(renewsAt, 6));
    expect(await paymentMethodOf(db, buyer.id)).toBeNull();
    await at(daysFrom(renewsAt, 7.01));
    const lapseNotices = sent.filter((email) => email.to === buyer.email && email.subject.endsWith("has lapsed"));
    expect(lapseNotices.map((email) => email.subject)).toEqual(["Your Annual membership has lapsed"]);
    const lapsed = await membershipOf(db, buyer.id);
    expect(statusOf(lapsed!.membership, daysFrom(renewsAt, 8))).toMatchObject({ state: "lapsed" });
  });

  it("turns renewal off on Stripe too, and changes nothing when Stripe cannot be told", async () => {
    const { db } = database();
    const { buyer } = await stripeMember(db);
    const working = stripeBilling();
    await clock(db, working.billing).at(daysFrom(NOW, 0.01));

    const down = stripeBilling({ failing: true });
    const refused = await setRenewal(db, { userId: buyer.id, renews: false, now: NOW, billing: down.billing });
    expect(refused).toEqual({ ok: false, message: PROVIDER_UNREACHABLE });
    expect((await membershipOf(db, buyer.id))!.membership.renews).toBe(true);

    const off = await setRenewal(db, { userId: buyer.id, renews: false, now: NOW, billing: working.billing });
    expect(off.ok).toBe(true);
    expect(working.calls.at(-1)).toEqual({ method: "setRenewing", args: [await subscriptionOf(db, buyer.id), false] });
    expect((await membershipOf(db, buyer.id))!.membership.renews).toBe(false);
  });

  it("stops the subscription of a membership cancelled in its cooling-off days", async () => {
    const { db } = database();
    const { buyer, orderId } = await stripeMember(db);
    const { billing, calls } = stripeBilling();
    const { at } = clock(db, billing);
    await at(daysFrom(NOW, 0.01));
    const subscriptionId = await subscriptionOf(db, buyer.id);
    const refund = await refundOrder(db, { orderId, actorId: buyer.id, reason: "Cooling-off", now: daysFrom(NOW, 2) });
    expect(refund.ok).toBe(true);
    await at(daysFrom(NOW, 2.01));
    expect(calls.at(-1)).toEqual({ method: "cancel", args: [subscriptionId] });
    const [row] = await db.select().from(memberships).where(eq(memberships.userId, buyer.id));
    expect(row).toMatchObject({ paymentMethod: null });
    expect(row!.endedAt).not.toBeNull();
  });

  it("makes the subscription again when staff move the renewal date, so Stripe charges on the new one", async () => {
    const { db } = database();
    const { buyer, tier } = await stripeMember(db);
    const { billing, calls } = stripeBilling();
    const { at } = clock(db, billing);
    await at(daysFrom(NOW, 0.01));
    const membership = (await membershipOf(db, buyer.id))!.membership;
    const [staff] = await createBuyers(db, 1);
    const outcome = await changeMembership(db, {
      membershipId: membership.id,
      actorId: staff!.id,
      now: daysFrom(NOW, 1),
      timeZone: "Europe/London",
      change: { intent: "change", tierId: tier.id, validUntil: "2028-06-30", reason: "Paid the rest at the AGM" },
    });
    expect(outcome.ok).toBe(true);
    expect(await paymentMethodOf(db, buyer.id)).toBe(`stripe:moved:sub_${membership.id}`);
    await at(daysFrom(NOW, 1.01));
    expect(calls.slice(-2).map((call) => call.method)).toEqual(["cancel", "subscribe"]);
    expect(calls.at(-2)!.args).toEqual([`sub_${membership.id}`]);
    expect(calls.at(-1)!.args[0]).toMatchObject({ firstChargeAt: new Date("2028-06-30T23:00:00.000Z") });
    expect(await paymentMethodOf(db, buyer.id)).toBe(`stripe:sub_${membership.id}`);
  });
});
