import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findCart } from "~/features/cart/cart.server";
import { checkoutFor, paidInFull } from "~/features/checkout/stock.test-support";
import { addMembershipToCart } from "~/features/membership/cart-membership.server";
import { issueMembership } from "~/features/membership/memberships.server";
import { renewalToken } from "~/features/membership/renewals.server";
import { createTestTier } from "~/features/membership/tiers.test-support";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import type { SessionUser } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { TEST_ROLES, testAccount } from "~/server/session-user.test-support";
import { answerOf, type FormFields, recordingOutbox, routeArgs } from "~/web/route-calls.test-support";
import { auditLog, cartItems, memberships, membershipTiers, transactions } from "../../../db/schema";
import { loader as staffListLoader } from "../admin/membership/list";
import { loader as membersLoader } from "../admin/membership/members";
import { loader as membersCsvLoader } from "../admin/membership/members-csv";
import { action as newTierAction, loader as newTierLoader } from "../admin/membership/new";
import { action as tierAction, loader as tierLoader } from "../admin/membership/tier";
import { action as cartAction } from "../cart/cart";
import { loader as cardLoader } from "../members/card";
import { action as mineAction, loader as mineLoader } from "../members/membership";
import { action as renewalAction, loader as renewalLoader } from "./renewal-link";
import { action as joinAction, loader as tiersLoader } from "./tiers";

// The membership routes, called as React Router calls them, for a visitor and each role: the
// public tiers and Join, the member's membership and card, and the organizer's tier editor.
const database = freshDatabasePerFile();
const ENV = {
  CURRENCY: "GBP",
  SITE_URL: "http://localhost:3000",
  SITE_NAME: "Pitlane",
  TIME_ZONE: "Europe/London",
  AUTH_SECRET: "a-secret-of-at-least-thirty-two-characters",
  STAFF_TWO_FACTOR: "optional",
};

const TEN_DAYS_AGO = new Date(Date.now() - 10 * 24 * 60 * 60 * 1000);

const argsFor = (who: SessionUser | null, path: string, params: Record<string, string> = {}, body?: FormFields) =>
  routeArgs({ db: database().db, env: ENV, who, path, params, body });

async function everyone() {
  const who: { name: string; user: SessionUser | null }[] = [{ name: "visitor", user: null }];
  for (const role of TEST_ROLES) who.push({ name: role, user: await testAccount(database().db, role) });
  return who;
}

const TIER_FORM = {
  name: "Junior",
  summary: "Under 18s",
  benefits: "Junior track days",
  price: "12",
  period: "season",
  rollingMonths: "12",
  seasonStartMonth: "1",
  seasonStartDay: "1",
  lateJoinMonth: "",
  lateJoinDay: "",
  lateJoinPrice: "",
  people: "1",
  capacity: "",
  autoRenews: "on",
  onSale: "on",
};

describe("/membership", () => {
  it("shows the tiers on sale to everyone; Join sends a visitor to sign in and puts the tier in a member's cart", async () => {
    const { db } = database();
    const annual = await createTestTier(db, { name: "Route annual", benefits: "A card\nA vote" });
    await createTestTier(db, { name: "Route hidden", onSale: false });
    for (const { name, user } of await everyone()) {
      const page = await answerOf(() => tiersLoader(argsFor(user, "/membership")));
      expect(page.status, name).toBe(200);
      const tiers = page.data!.tiers as { name: string; benefits: string[] }[];
      expect(
        tiers.map((tier) => tier.name),
        name,
      ).toContain("Route annual");
      expect(
        tiers.map((tier) => tier.name),
        name,
      ).not.toContain("Route hidden");
      expect(tiers.find((tier) => tier.name === "Route annual")?.benefits, name).toEqual(["A card", "A vote"]);

      const joined = await answerOf(() => joinAction(argsFor(user, "/membership", {}, { tierId: annual.id })));
      expect(joined.status, name).toBe(302);
      if (!user) {
        expect(joined.location, name).toBe("/login?redirectTo=%2Fmembership");
        continue;
      }
      expect(joined.location, name).toBe("/cart");
      const cartId = await findCart(db, { userId: user.id });
      const lines = await db.select().from(cartItems).where(eq(cartItems.cartId, cartId!));
      expect(
        lines.map((line) => [line.kind, line.tierId]),
        name,
      ).toEqual([["membership", annual.id]]);

      const refused = await answerOf(() =>
        joinAction(argsFor(user, "/membership", {}, { tierId: annual.id, person: "Sam Driver" })),
      );
      expect(refused, name).toMatchObject({ status: 400, data: { message: "Route annual is for one person" } });
      const unknown = await answerOf(() => joinAction(argsFor(user, "/membership", {}, { tierId: "nope" })));
      expect(unknown, name).toMatchObject({
        status: 400,
        data: { message: "That membership tier could not be found" },
      });
    }
  });
});

describe("/members/membership and /members/card", () => {
  it("send a visitor to sign in, and show each member their own membership, card and renewal switch", async () => {
    const { db } = database();
    const tier = await createTestTier(db, { name: "Card tier" });
    for (const { name, user } of await everyone()) {
      for (const path of ["/members/membership", "/members/card"]) {
        const loader = path === "/members/card" ? cardLoader : mineLoader;
        const answer = await answerOf(() => loader(argsFor(user, path)));
        if (!user) {
          expect(answer.location, `${name} ${path}`).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
          continue;
        }
        expect(answer.status, `${name} ${path}`).toBe(200);
      }
      if (!user) {
        const stop = await answerOf(() =>
          mineAction(argsFor(null, "/members/membership", {}, { intent: "stop-renewal" })),
        );
        expect(stop.status).toBe(302);
        expect(stop.location).toContain("/login");
        continue;
      }
      // Not a member yet: no card, and nothing to turn off.
      const none = await answerOf(() => cardLoader(argsFor(user, "/members/card")));
      expect(none.data!.card, name).toBeNull();
      const nothing = await answerOf(() =>
        mineAction(argsFor(user, "/members/membership", {}, { intent: "stop-renewal" })),
      );
      expect(nothing, name).toMatchObject({ status: 400, data: { error: "You do not have a membership" } });

      await issueMembership(db, {
        userId: user.id,
        tier,
        people: [],
        orderId: null,
        paidPence: 3000,
        paidAt: new Date(),
      });
      const card = await answerOf(() => cardLoader(argsFor(user, "/members/card")));
      expect(card.data!.card, name).toMatchObject({ tierName: "Card tier", valid: true, state: "active" });
      expect(String((card.data!.card as { qrSvg: string }).qrSvg), name).toContain("<svg");

      const stopped = await answerOf(() =>
        mineAction(argsFor(user, "/members/membership", {}, { intent: "stop-renewal" })),
      );
      expect(stopped, name).toMatchObject({ status: 302, location: "/members/membership" });
      const [row] = await db
        .select({ renews: memberships.renews })
        .from(memberships)
        .where(eq(memberships.userId, user.id));
      expect(row?.renews, name).toBe(false);
      const bad = await answerOf(() => mineAction(argsFor(user, "/members/membership", {}, { intent: "cancel-all" })));
      expect(bad.status, name).toBe(400);
    }
  });
});

describe("/admin/membership", () => {
  it("is for organizers and admins: lists tiers, adds one (audited) and saves its terms, with messages", async () => {
    const { db } = database();
    for (const { name, user } of await everyone()) {
      const staff = name === "organizer" || name === "admin";
      const list = await answerOf(() => staffListLoader(argsFor(user, "/admin/membership")));
      const form = await answerOf(() => newTierLoader(argsFor(user, "/admin/membership/new")));
      const created = await answerOf(() =>
        newTierAction(argsFor(user, "/admin/membership/new", {}, { ...TIER_FORM, name: `Junior ${name}` })),
      );
      if (!staff) {
        const expected = user ? 403 : 302;
        expect([list.status, form.status, created.status], name).toEqual([expected, expected, expected]);
        continue;
      }
      expect([list.status, form.status], name).toEqual([200, 200]);
      expect(created, name).toMatchObject({ status: 302, location: "/admin/membership" });
      const [tier] = await db
        .select()
        .from(membershipTiers)
        .where(eq(membershipTiers.name, `Junior ${name}`));
      expect(tier, name).toMatchObject({ price: 1200, period: "season", onSale: true, timeZone: "Europe/London" });

      const edit = await answerOf(() =>
        tierLoader(argsFor(user, `/admin/membership/${tier!.id}`, { tierId: tier!.id })),
      );
      expect(edit.data!.values, name).toMatchObject({ name: `Junior ${name}`, price: "12.00" });
      const saved = await answerOf(() =>
        tierAction(
          argsFor(
            user,
            `/admin/membership/${tier!.id}`,
            { tierId: tier!.id },
            { ...TIER_FORM, name: `Junior ${name}`, price: "15" },
          ),
        ),
      );
      expect(saved.status, name).toBe(302);
      const wrong = await answerOf(() =>
        tierAction(
          argsFor(
            user,
            `/admin/membership/${tier!.id}`,
            { tierId: tier!.id },
            { ...TIER_FORM, seasonStartMonth: "2", seasonStartDay: "30" },
          ),
        ),
      );
      expect(wrong.status, name).toBe(400);
      expect(JSON.stringify(wrong.data), name).toContain("That month has fewer days");
      const missing = await answerOf(() =>
        tierLoader(argsFor(user, "/admin/membership/x", { tierId: "00000000-0000-4000-8000-000000000000" })),
      );
      expect(missing.status, name).toBe(404);
    }
    const audit = await db.select({ action: auditLog.action }).from(auditLog);
    expect(audit.map((entry) => entry.action).sort()).toEqual([
      "membership_tier.create",
      "membership_tier.create",
      "membership_tier.update",
      "membership_tier.update",
    ]);
  });
});

describe("/membership/renewal/:token", () => {
  it("turns renewal off for whoever holds the reminder's link, signed in or not, and refuses a made-up one", async () => {
    const { db } = database();
    const tier = await createTestTier(db, { name: "Link tier" });
    for (const { name, user } of await everyone()) {
      const holder = await testAccount(db, "member", `Holder for ${name}`);
      const paidAt = new Date();
      await issueMembership(db, { userId: holder.id, tier, people: [], orderId: null, paidPence: 3000, paidAt });
      const [row] = await db.select().from(memberships).where(eq(memberships.userId, holder.id));
      const token = renewalToken(row!.id, row!.paidUntil, ENV.AUTH_SECRET);
      const path = `/membership/renewal/${token}`;

      const page = await answerOf(() => renewalLoader(argsFor(user, path, { token })));
      expect(page.data!.membership, name).toEqual({ tierName: "Link tier", renews: true });
      const stopped = await answerOf(() => renewalAction(argsFor(user, path, { token }, {})));
      expect(stopped, name).toMatchObject({ status: 200, data: { ok: true, tierName: "Link tier" } });
      const [after] = await db
        .select({ renews: memberships.renews })
        .from(memberships)
        .where(eq(memberships.id, row!.id));
      expect(after?.renews, name).toBe(false);

      const forged = `${token.slice(0, -2)}zz`;
      expect(
        (await answerOf(() => renewalLoader(argsFor(user, path, { token: forged })))).data!.membership,
        name,
      ).toBeNull();
      const refused = await answerOf(() => renewalAction(argsFor(user, path, { token: forged }, {})));
      expect(refused.status, name).toBe(400);
    }
  });
});

describe("/cart remove-membership", () => {
  it("takes the tier out of the member's cart", async () => {
    const { db } = database();
    const tier = await createTestTier(db, { name: "Cart tier" });
    const member = await testAccount(db, "member");
    await answerOf(() => joinAction(argsFor(member, "/membership", {}, { tierId: tier.id })));
    const removed = await answerOf(() =>
      cartAction(argsFor(member, "/cart", {}, { intent: "remove-membership", tierId: tier.id })),
    );
    expect(removed).toMatchObject({ status: 302, location: "/cart" });
    const cartId = await findCart(db, { userId: member.id });
    expect(await db.select().from(cartItems).where(eq(cartItems.cartId, cartId!))).toEqual([]);
    const visitor = await answerOf(() =>
      cartAction(argsFor(null, "/cart", {}, { intent: "remove-membership", tierId: tier.id })),
    );
    expect(visitor.status).toBe(302);
  });
});

describe("cancelling within the cooling-off days, from /members/membership", () => {
  it("refunds each member the payment less the days had, ends the membership, and emails the refund", async () => {
    const { db } = database();
    const tier = await createTestTier(db, { name: "Cooling tier", price: 3650 });
    for (const { name, user } of await everyone()) {
      const { outbox, sent } = recordingOutbox();
      const jobs = { enqueue: async () => "job" };
      const post = (who: SessionUser | null) =>
        answerOf(() =>
          mineAction(
            routeArgs({
              db,
              env: ENV,
              who,
              path: "/members/membership",
              body: { intent: "cancel-membership" },
              runtime: { outbox, jobs },
            }),
          ),
        );
      if (!user) {
        expect((await post(null)).location).toContain("/login");
        continue;
      }
      expect(await post(user), name).toMatchObject({ status: 400 });
      // Joined and paid ten days ago: ten days of the year are kept back.
      await addMembershipToCart(db, { userId: user.id, tierId: tier.id, people: [], now: TEN_DAYS_AGO });
      const checkout = await startCheckout(
        db,
        checkoutFor(user, (await findCart(db, { userId: user.id }))!, TEN_DAYS_AGO),
      );
      if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));
      await settleOrder(db, paidInFull(checkout.order, TEN_DAYS_AGO));

      const page = await answerOf(() => mineLoader(argsFor(user, "/members/membership?confirm=cancel")));
      expect(page.data, name).toMatchObject({ confirmCancel: true });
      // Ten days (and the moments since) of a 365-day year of £36.50, rounded up to the penny.
      const { used, refund: due } = page.data!.coolingOff as { used: number; refund: number };
      expect([100, 101], name).toContain(used);
      expect(due, name).toBe(3650 - used);
      const cancelled = await post(user);
      expect(cancelled, name).toMatchObject({ status: 302, location: "/members/membership" });
      const [refund] = await db
        .select({ amount: transactions.amount, status: transactions.status })
        .from(transactions)
        .where(and(eq(transactions.orderId, checkout.order.id), eq(transactions.kind, "refund")));
      expect(refund?.status, name).toBe("pending");
      expect([3550, 3549], name).toContain(refund?.amount);
      expect(
        sent.map((email) => email.subject),
        name,
      ).toEqual([expect.stringMatching(/^Refund for order PL-/)]);
      expect(sent[0]!.text, name).toContain("Less the days already had");
      const card = await answerOf(() => cardLoader(argsFor(user, "/members/card")));
      expect(card.data!.card, name).toMatchObject({ state: "ended", valid: false });
      expect(await post(user), name).toMatchObject({ status: 400 });
    }
  });
});

describe("/admin/membership/members and its CSV", () => {
  it("list members by state and search for organizers and admins, and refuse everyone else", async () => {
    const { db } = database();
    const tier = await createTestTier(db, { name: "List tier" });
    const holder = await testAccount(db, "member", "Morgan Listed");
    await issueMembership(db, {
      userId: holder.id,
      tier,
      people: ["Kit"],
      orderId: null,
      paidPence: 3000,
      paidAt: new Date(),
    });
    for (const { name, user } of await everyone()) {
      const staff = name === "organizer" || name === "admin";
      const list = await answerOf(() => membersLoader(argsFor(user, "/admin/membership/members?q=morgan&show=active")));
      const csv = await answerOf(() => membersCsvLoader(argsFor(user, "/admin/membership/members.csv?q=morgan")));
      if (!staff) {
        expect([list.status, csv.status], name).toEqual(user ? [403, 403] : [302, 302]);
        continue;
      }
      expect(list.data!.members, name).toMatchObject([
        { name: "Morgan Listed", tier: "List tier", state: "active", people: ["Kit"] },
      ]);
      const lapsed = await answerOf(() =>
        membersLoader(argsFor(user, "/admin/membership/members?q=morgan&show=lapsed")),
      );
      expect(lapsed.data!.members, name).toEqual([]);
      expect(csv.headers?.get("Content-Type"), name).toBe("text/csv; charset=utf-8");
      expect(csv.text, name).toContain("Morgan Listed,");
      expect(csv.text, name).toContain(",List tier,Kit,Active,");
    }
  });
});
