import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findCart } from "~/features/cart/cart.server";
import { checkoutFor, createBuyers, NOW, paidInFull } from "~/features/checkout/stock.test-support";
import { refundOrder, settleOrder, startCheckout } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { OutboundEmail } from "~/server/mail/mail.server";
import { memberships, orders } from "../../../db/schema";
import { addMembershipToCart } from "./cart-membership.server";
import { reminderInWindow } from "./membership-rules";
import { coolingOffQuote, membershipOf, setRenewal, statusOf } from "./memberships.server";
import {
  chargeTestCard,
  type MembershipClockServices,
  runMembershipClock,
  stopRenewalByLink,
  TEST_DECLINED_CARD,
} from "./renewals.server";
import { createTestTier } from "./tiers.test-support";

// Every renewal path, driven by the test clock: each run of the membership clock is given the
// moment it runs at, so a year passes in a test.
const database = freshDatabasePerFile();
const DAY = 24 * 60 * 60 * 1000;
const SECRET = "a-secret-of-at-least-thirty-two-characters";

function clock(db: Db) {
  const sent: OutboundEmail[] = [];
  const services: MembershipClockServices = {
    db,
    sendEmail: async (email) => {
      sent.push(email);
    },
    brand: { siteName: "Pitlane", siteUrl: "https://club.example", currency: "GBP", secret: SECRET },
    charge: chargeTestCard,
    settle: (input) => settleOrder(db, input),
  };
  return { sent, at: (when: Date) => runMembershipClock(services, when) };
}

/** A member who joined a yearly rolling tier at NOW, paying with the test checkout's card. */
async function member(db: Db, price = 3000) {
  const tier = await createTestTier(db, { name: "Annual", price });
  const [buyer] = await createBuyers(db, 1);
  await addMembershipToCart(db, { userId: buyer!.id, tierId: tier.id, people: [], now: NOW });
  const checkout = await startCheckout(db, checkoutFor(buyer!, (await findCart(db, { userId: buyer!.id }))!));
  if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));
  await settleOrder(db, paidInFull(checkout.order));
  const row = await membershipOf(db, buyer!.id);
  return { buyer: buyer!, tier, renewsAt: row!.membership.paidUntil };
}

const daysFrom = (date: Date, days: number) => new Date(date.getTime() + days * DAY);

describe("the membership clock", () => {
  it("reminds in the window with the price, date and a one-click stop link, then renews by charging the card", async () => {
    const { db } = database();
    const { buyer, renewsAt } = await member(db);
    const { sent, at } = clock(db);
    expect(await at(daysFrom(renewsAt, -20))).toEqual({ reminded: 0, renewed: 0, lapsed: 0 });
    expect(await at(daysFrom(renewsAt, -14))).toMatchObject({ reminded: 1 });
    expect(await at(daysFrom(renewsAt, -13))).toMatchObject({ reminded: 0 });
    const [reminder] = sent;
    expect(reminder).toMatchObject({ to: buyer.email, subject: "Your Annual membership renews on 1 May 2028" });
    expect(reminder!.text).toContain("£30.00");
    expect(reminderInWindow(daysFrom(renewsAt, -14), renewsAt)).toBe(true);

    expect(await at(daysFrom(renewsAt, 0.01))).toMatchObject({ renewed: 1 });
    const row = await membershipOf(db, buyer.id);
    expect(row!.membership.paidUntil.toISOString()).toBe("2029-05-01T10:00:00.000Z");
    expect(row!.membership.periodStartsAt.toISOString()).toBe(renewsAt.toISOString());
    const [renewal] = await db.select().from(orders).where(eq(orders.id, row!.membership.orderId!));
    expect(renewal).toMatchObject({ status: "paid", total: 3000, provider: "test" });
    expect(sent.at(-1)?.subject).toBe("Your Annual membership is renewed");
    // Run again at the same moment: nothing more is charged.
    expect(await at(daysFrom(renewsAt, 0.02))).toMatchObject({ renewed: 0 });
  });

  it("tries a failed renewal again on the retry days and recovers, keeping benefits meanwhile", async () => {
    const { db } = database();
    const { buyer, renewsAt } = await member(db);
    const { sent, at } = clock(db);
    await at(daysFrom(renewsAt, -14));
    await db.update(memberships).set({ paymentMethod: TEST_DECLINED_CARD }).where(eq(memberships.userId, buyer.id));
    expect(await at(daysFrom(renewsAt, 0.01))).toMatchObject({ renewed: 0 });
    expect(sent.at(-1)).toMatchObject({ subject: "We could not renew your Annual membership" });
    expect(sent.at(-1)!.text).toContain("We will try again on 2 May 2028");
    const failed = await membershipOf(db, buyer.id);
    expect(statusOf(failed!.membership, daysFrom(renewsAt, 0.5))).toMatchObject({ state: "grace" });
    expect(failed!.membership.renewalFailures).toBe(1);

    // Not before the retry day; the card is fixed; the retry renews.
    expect(await at(daysFrom(renewsAt, 0.5))).toMatchObject({ renewed: 0 });
    await db.update(memberships).set({ paymentMethod: "test:card" }).where(eq(memberships.userId, buyer.id));
    expect(await at(daysFrom(renewsAt, 1.01))).toMatchObject({ renewed: 1 });
    const renewed = await membershipOf(db, buyer.id);
    expect(renewed!.membership).toMatchObject({ renewalFailures: 0, retryAt: null });
    expect(statusOf(renewed!.membership, daysFrom(renewsAt, 2))).toMatchObject({ state: "active" });
  });

  it("lapses a renewal that keeps failing, after the retries and the grace days, and says so once", async () => {
    const { db } = database();
    const { buyer, renewsAt } = await member(db);
    const { sent, at } = clock(db);
    await at(daysFrom(renewsAt, -14));
    await db.update(memberships).set({ paymentMethod: TEST_DECLINED_CARD }).where(eq(memberships.userId, buyer.id));
    for (const day of [0.01, 1.01, 3.01, 5.01, 6]) await at(daysFrom(renewsAt, day));
    const failures = sent.filter((email) => email.subject === "We could not renew your Annual membership");
    expect(failures).toHaveLength(4);
    expect(failures.at(-1)!.text).toContain("We will not try again");
    expect(await at(daysFrom(renewsAt, 7.01))).toMatchObject({ lapsed: 1 });
    expect(await at(daysFrom(renewsAt, 8))).toMatchObject({ lapsed: 0 });
    expect(sent.at(-1)).toMatchObject({ subject: "Your Annual membership has lapsed" });
    const row = await membershipOf(db, buyer.id);
    expect(statusOf(row!.membership, daysFrom(renewsAt, 7.01))).toMatchObject({ state: "lapsed" });
    // Four tries, four cancelled orders, no money taken.
    const tries = await db.select({ status: orders.status }).from(orders).where(eq(orders.userId, buyer.id));
    expect(tries.map((order) => order.status).sort()).toEqual([
      "cancelled",
      "cancelled",
      "cancelled",
      "cancelled",
      "paid",
    ]);
  });

  it("charges nothing once renewal is off: the membership runs to its end, with no lapse notice", async () => {
    const { db } = database();
    const { buyer, renewsAt } = await member(db);
    const { sent, at } = clock(db);
    expect(await setRenewal(db, { userId: buyer.id, renews: false, now: daysFrom(renewsAt, -30) })).toMatchObject({
      ok: true,
    });
    for (const day of [-14, 0.01, 8])
      expect(await at(daysFrom(renewsAt, day))).toEqual({ reminded: 0, renewed: 0, lapsed: 0 });
    expect(sent).toEqual([]);
    const row = await membershipOf(db, buyer.id);
    expect(statusOf(row!.membership, daysFrom(renewsAt, 0.01))).toMatchObject({ state: "ended" });
  });

  it("never charges without three days' notice: a late reminder pushes the charge back", async () => {
    const { db } = database();
    const { renewsAt } = await member(db);
    const { sent, at } = clock(db);
    expect(await at(daysFrom(renewsAt, -1))).toMatchObject({ reminded: 1 });
    expect(await at(daysFrom(renewsAt, 0.01))).toMatchObject({ renewed: 0 });
    expect(await at(daysFrom(renewsAt, 2.01))).toMatchObject({ renewed: 1 });
    expect(sent.map((email) => email.subject)).toEqual([
      "Your Annual membership renews on 1 May 2028",
      "Your Annual membership is renewed",
    ]);
  });

  it("turns renewal off from the reminder's link without signing in, and refuses a changed link", async () => {
    const { db } = database();
    const { buyer, renewsAt } = await member(db);
    const { sent, at } = clock(db);
    await at(daysFrom(renewsAt, -14));
    const link = sent[0]!.text.match(/https:\/\/club\.example\/membership\/renewal\/(\S+)/)![1]!;
    expect(await stopRenewalByLink(db, { token: `${link.slice(0, -1)}x`, secret: SECRET, now: NOW })).toMatchObject({
      ok: false,
    });
    expect(await stopRenewalByLink(db, { token: link, secret: SECRET, now: NOW })).toEqual({
      ok: true,
      tierName: "Annual",
      until: "1 May 2028",
    });
    const row = await membershipOf(db, buyer.id);
    expect(row!.membership.renews).toBe(false);
    expect(await at(daysFrom(renewsAt, 0.01))).toMatchObject({ renewed: 0 });
  });

  it("lets a member cancel within 14 days of a renewal for its price less the days had, ending the membership", async () => {
    const { db } = database();
    const { buyer, renewsAt } = await member(db, 3660);
    const { at } = clock(db);
    await at(daysFrom(renewsAt, -14));
    await at(daysFrom(renewsAt, 0));
    // The renewal year (1 May 2028 to 1 May 2029) has 365 days: three of them are kept back.
    const cancelAt = daysFrom(renewsAt, 3);
    const quote = await coolingOffQuote(db, buyer.id, cancelAt);
    expect(quote).toMatchObject({ refundPence: 3660 - 31, valueUsedPence: 31 });
    const refunded = await refundOrder(db, {
      orderId: quote!.orderId,
      items: [{ orderItemId: quote!.orderItemId, quantity: 1 }],
      actorId: buyer.id,
      reason: "Cancelled within the cooling-off period",
      now: cancelAt,
      keepBack: { amount: quote!.valueUsedPence, description: "Less the days already had" },
    });
    expect(refunded).toMatchObject({
      ok: true,
      amount: 3629,
      lines: [
        { description: "Annual membership renewal", quantity: 1, amount: 3660 },
        { description: "Less the days already had", quantity: 1, amount: -31 },
      ],
    });
    const row = await membershipOf(db, buyer.id);
    expect(statusOf(row!.membership, cancelAt)).toMatchObject({ state: "ended" });
    // Past the 14 days there is nothing to cancel for a refund.
    expect(await coolingOffQuote(db, buyer.id, daysFrom(renewsAt, 15))).toBeNull();
  });

  it("charges a renewal once when two runs of the clock meet", async () => {
    const { db } = database();
    const { buyer, renewsAt } = await member(db);
    const first = clock(db);
    const second = clock(db);
    await first.at(daysFrom(renewsAt, -14));
    const [a, b] = await Promise.all([first.at(daysFrom(renewsAt, 0.01)), second.at(daysFrom(renewsAt, 0.01))]);
    expect(a.renewed + b.renewed).toBe(1);
    const paid = await db.select({ status: orders.status }).from(orders).where(eq(orders.userId, buyer.id));
    expect(paid.map((order) => order.status)).toEqual(["paid", "paid"]);
  });
});
