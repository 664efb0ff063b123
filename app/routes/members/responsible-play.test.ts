import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { createEntrants } from "~/features/draws/draws.test-support";
import { requestContext, runtimeContext, userContext } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { Runtime } from "~/server/runtime.server";
import { testSessionUser } from "~/server/session-user.test-support";
import { auditLog, playSettings, users } from "../../../db/schema";
import { action, loader } from "./responsible-play";

// /settings/responsiblePlay, called as React Router calls it, for a visitor and each role.
const database = freshDatabasePerFile();
const ROLES = ["member", "organizer", "admin"] as const;
const ENV = { TIME_ZONE: "Europe/London", CURRENCY: "GBP", SITE_URL: "http://localhost:3000" };

async function signedIn(role: (typeof ROLES)[number]) {
  const [account] = await createEntrants(database().db, 1);
  await database().db.update(users).set({ role }).where(eq(users.id, account!.id));
  return testSessionUser({ id: account!.id, email: account!.email, role });
}

function argsFor(user: ReturnType<typeof testSessionUser> | null, body?: Record<string, string>) {
  const context = new RouterContextProvider();
  context.set(runtimeContext, { db: database().db, env: ENV } as unknown as Runtime);
  context.set(requestContext, { ip: "10.8.0.1", nonce: "n", requestId: "r" });
  context.set(userContext, user);
  const url = new URL("http://localhost:3000/settings/responsiblePlay");
  const request = new Request(url, {
    method: body ? "POST" : "GET",
    body: body ? new URLSearchParams(body) : undefined,
  });
  return { request, url, params: {}, context, unstable_pattern: "/settings/responsiblePlay" } as never;
}

async function answerOf(call: () => unknown) {
  try {
    const answer = (await call()) as { data?: unknown; init?: { status?: number } };
    if (answer instanceof Response) return { status: answer.status, location: answer.headers.get("Location") };
    return { status: answer.init?.status ?? 200, data: answer.data ?? answer };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("Location") };
    throw thrown;
  }
}

async function settingsOf(userId: string) {
  const [row] = await database().db.select().from(playSettings).where(eq(playSettings.userId, userId));
  return row;
}

describe("/settings/responsiblePlay", () => {
  it("sends a visitor to sign in, for the page and every form", async () => {
    const toLogin = { status: 302, location: "/login?redirectTo=%2Fsettings%2FresponsiblePlay" };
    expect(await answerOf(() => loader(argsFor(null)))).toEqual(toLogin);
    const bodies: Record<string, string>[] = [
      { intent: "limits", weekly: "0" },
      { intent: "cool-off", period: "24h" },
      { intent: "exclude", period: "6m", confirm: "on" },
    ];
    for (const body of bodies) {
      expect(await answerOf(() => action(argsFor(null, body)))).toEqual(toLogin);
    }
  });

  it("shows every role their own limits and spend", async () => {
    for (const role of ROLES) {
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
    for (const role of ROLES) {
      const user = await signedIn(role);
      const other = await signedIn("member");
      const post = (body: Record<string, string>) => answerOf(() => action(argsFor(user, body)));
      expect(await post({ intent: "limits", weekly: "ten", monthly: "" })).toMatchObject({ status: 400 });
      expect(await post({ intent: "limits", weekly: "0", monthly: "50", userId: other.id })).toEqual({
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
    for (const role of ROLES) {
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
});
