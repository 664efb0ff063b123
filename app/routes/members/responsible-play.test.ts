import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutFor } from "~/features/checkout/stock.test-support";
import { createEntrants, createTestDraw, fillEntryCart } from "~/features/draws/draws.test-support";
import { startCheckout } from "~/features/selling/selling.server";
import type { SessionUser } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { TEST_ROLES, type TestRole, testSessionUser } from "~/server/session-user.test-support";
import { answerOf, routeArgs } from "~/web/route-calls.test-support";
import { auditLog, orders, playSettings } from "../../../db/schema";
import { action, loader } from "./responsible-play";

// /settings/responsiblePlay, called as React Router calls it, for a visitor and each role.
const database = freshDatabasePerFile();
const ENV = { TIME_ZONE: "Europe/London", CURRENCY: "GBP", SITE_URL: "http://localhost:3000" };

async function signedIn(role: TestRole) {
  const [account] = await createEntrants(database().db, 1, { role });
  return testSessionUser({ ...account!, role });
}

const argsFor = (who: SessionUser | null, body?: Record<string, string>) =>
  routeArgs({ db: database().db, env: ENV, who, path: "/settings/responsiblePlay", body });

async function settingsOf(userId: string) {
  const [row] = await database().db.select().from(playSettings).where(eq(playSettings.userId, userId));
  return row;
}

describe("/settings/responsiblePlay", () => {
  it("sends a visitor to sign in, for the page and every form", async () => {
    const toLogin = { status: 302, location: "/login?redirectTo=%2Fsettings%2FresponsiblePlay" };
    expect(await answerOf(() => loader(argsFor(null)))).toMatchObject(toLogin);
    const bodies: Record<string, string>[] = [
      { intent: "limits", weekly: "0" },
      { intent: "cool-off", period: "24h" },
      { intent: "exclude", period: "6m", confirm: "on" },
    ];
    for (const body of bodies) {
      expect(await answerOf(() => action(argsFor(null, body)))).toMatchObject(toLogin);
    }
  });

  it("shows every role their own limits and spend", async () => {
    for (const role of TEST_ROLES) {
      const user = await signedIn(role);
      const page = await answerOf(() => loader(argsFor(user)));
      expect(page).toMatchObject({
        status: 200,
        data: {
          limits: { weekly: "no limit", monthly: "no limit", spentWeek: "£0.00", pending: null },
          coolOffUntil: null,
          excludedUntil: null,
          blocked: null,
        },
      });
    }
  });

  it("lets every role set limits (a raise waits), only for themselves, with bad amounts refused", async () => {
    for (const role of TEST_ROLES) {
      const user = await signedIn(role);
      const other = await signedIn("member");
      const post = (body: Record<string, string>) => answerOf(() => action(argsFor(user, body)));
      expect(await post({ intent: "limits", weekly: "ten", monthly: "" })).toMatchObject({ status: 400 });
      expect(await post({ intent: "limits", weekly: "0", monthly: "50", userId: other.id })).toMatchObject({
        status: 302,
        location: "/settings/responsiblePlay",
      });
      expect(await settingsOf(user.id)).toMatchObject({ weeklyLimit: 0, monthlyLimit: 5000, pendingLimits: null });
      expect(await settingsOf(other.id)).toBeUndefined();

      await post({ intent: "limits", weekly: "20", monthly: "50" });
      const page = await answerOf(() => loader(argsFor(user)));
      expect(page).toMatchObject({ data: { limits: { weekly: "£0.00", pending: { weekly: "£20.00" } } } });
    }
  });

  it("lets every role take a break and self-exclude, confirmed, and never shorten either", async () => {
    for (const role of TEST_ROLES) {
      const user = await signedIn(role);
      const post = (body: Record<string, string>) => answerOf(() => action(argsFor(user, body)));
      expect(await post({ intent: "cool-off", period: "7d" })).toMatchObject({ status: 302 });
      const shorter = await post({ intent: "cool-off", period: "24h" });
      expect(shorter).toMatchObject({ status: 400 });
      expect(JSON.stringify(shorter)).toMatch(/cannot be shortened/);

      expect(await post({ intent: "exclude", period: "6m" })).toMatchObject({ status: 400 });
      expect((await settingsOf(user.id))?.excludedUntil).toBeNull();
      expect(await post({ intent: "exclude", period: "6m", confirm: "on" })).toMatchObject({ status: 302 });
      const page = await answerOf(() => loader(argsFor(user)));
      expect(page).toMatchObject({ data: { blocked: expect.stringMatching(/excluded yourself from prize draws/) } });

      const actions = await database()
        .db.select({ action: auditLog.action })
        .from(auditLog)
        .where(eq(auditLog.subjectId, user.id));
      expect(actions.map((row) => row.action)).toEqual(["play.cool-off", "play.self-exclusion"]);
    }
  });

  // Staff cannot enter draws, so only a member can have an unpaid order for entries.
  it("cancels the member's unpaid orders for entries when a break begins, and no one else's", async () => {
    const { db } = database();
    const day = 24 * 3600 * 1000;
    const draw = await createTestDraw(db, {
      opensAt: new Date(Date.now() - day),
      closesAt: new Date(Date.now() + 7 * day),
      publishedAt: new Date(Date.now() - day),
    });
    const pendingOrder = async (user: SessionUser) => {
      const cartId = await fillEntryCart(db, user.id, [{ drawId: draw.id, entriesPerUnit: 1, quantity: 1, answer: 1 }]);
      const checkout = await startCheckout(db, checkoutFor(user, cartId, new Date()));
      if (!checkout.ok) throw new Error(checkout.problems[0]!.message);
      return checkout.order.id;
    };
    const statusOf = async (orderId: string) =>
      (await db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]?.status;
    for (const period of ["24h", "7d"]) {
      const user = await signedIn("member");
      const other = await signedIn("member");
      const [mine, theirs] = [await pendingOrder(user), await pendingOrder(other)];
      expect(await answerOf(() => action(argsFor(user, { intent: "cool-off", period })))).toMatchObject({
        status: 302,
      });
      expect(await statusOf(mine)).toBe("cancelled");
      expect(await statusOf(theirs)).toBe("pending");
    }
  });
});
