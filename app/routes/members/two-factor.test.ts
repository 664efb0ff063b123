import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { testAccounts } from "~/features/accounts/members.test-support";
import { authenticatorCode } from "~/features/accounts/totp.test-support";
import { confirmSetup, startSetup } from "~/features/accounts/two-factor.server";
import { requestContext, runtimeContext, userContext } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { Runtime } from "~/server/runtime.server";
import { testSessionUser } from "~/server/session-user.test-support";
import { auditLog, users } from "../../../db/schema";
import { action, loader } from "./two-factor";

// /settings/twoFactor, called as React Router calls it, for a visitor and each role.
const database = freshDatabasePerFile();
const ROLES = ["member", "organizer", "admin"] as const;
type Role = (typeof ROLES)[number];

let made = 0;

async function signedIn(role: Role, staffTwoFactor: "required" | "optional" = "required") {
  const accounts = testAccounts(database().db);
  made += 1;
  const member = await accounts.createMember({ name: `A ${role}`, email: `${role}-${made}@example.com` });
  await database().db.update(users).set({ role }).where(eq(users.id, member.id));
  const env = { ...accounts.env, STAFF_TWO_FACTOR: staffTwoFactor };
  const user = testSessionUser({ id: member.id, email: member.email, role });
  return { accounts, member, env, user };
}

function argsFor(
  who: { env: object; accounts: ReturnType<typeof testAccounts>; user: ReturnType<typeof testSessionUser> | null },
  init: { body?: Record<string, string>; headers?: Headers; query?: string } = {},
) {
  const context = new RouterContextProvider();
  context.set(runtimeContext, { db: database().db, env: who.env, auth: who.accounts.auth } as Runtime);
  context.set(requestContext, { ip: "10.8.0.1", nonce: "n", requestId: "r" });
  context.set(userContext, who.user);
  const url = new URL(`http://localhost:3000/settings/twoFactor${init.query ?? ""}`);
  const request = new Request(url, {
    method: init.body ? "POST" : "GET",
    headers: init.headers,
    body: init.body ? new URLSearchParams(init.body) : undefined,
  });
  return { request, url, params: {}, context, unstable_pattern: "/settings/twoFactor" } as never;
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

describe("/settings/twoFactor", () => {
  it("sends a visitor to sign in, for the page and the form", async () => {
    const visitor = { env: testAccounts(database().db).env, accounts: testAccounts(database().db), user: null };
    const toLogin = { status: 302, location: "/login?redirectTo=%2Fsettings%2FtwoFactor" };
    expect(await answerOf(() => loader(argsFor(visitor)))).toEqual(toLogin);
    expect(await answerOf(() => action(argsFor(visitor, { body: { intent: "start", password: "x" } })))).toEqual(
      toLogin,
    );
  });

  it("shows every role its state; staff are told they keep it where the site requires it", async () => {
    for (const role of ROLES) {
      const who = await signedIn(role);
      const page = await answerOf(() => loader(argsFor(who, { query: "?required=1&redirectTo=%2Fadmin" })));
      expect(page).toMatchObject({
        status: 200,
        data: {
          enabled: false,
          hasPassword: true,
          staffMustKeep: role !== "member",
          required: true,
          redirectTo: "/admin",
        },
      });
    }
  });

  it("sets it up for every role with the password and a first code, back where the member was going", async () => {
    for (const role of ROLES) {
      const who = await signedIn(role);
      const post = (body: Record<string, string>, query = "") =>
        answerOf(() => action(argsFor(who, { body, headers: who.member.headers, query })));

      expect(await post({ intent: "start", password: "not the password" })).toMatchObject({ status: 400 });
      const started = await post({ intent: "start", password: who.member.password });
      const setup = (started.data as { setup: { totpURI: string; recoveryCodes: string[] } }).setup;
      expect(setup.recoveryCodes).toHaveLength(10);

      const codes = setup.recoveryCodes.join(" ");
      const wrong = await post({ intent: "confirm", code: "000000", totpURI: setup.totpURI, recoveryCodes: codes });
      // A wrong code shows the same set-up again.
      expect(wrong).toMatchObject({ status: 400, data: { setup: { totpURI: setup.totpURI } } });

      const code = authenticatorCode(setup.totpURI);
      const done = await post({ intent: "confirm", code }, "?redirectTo=%2Fadmin");
      expect(done).toEqual({ status: 302, location: "/admin" });
      const [row] = await database().db.select().from(users).where(eq(users.id, who.member.id));
      expect(row?.twoFactorEnabled).toBe(true);
      const events = await database()
        .db.select({ action: auditLog.action, ip: auditLog.ip })
        .from(auditLog)
        .where(eq(auditLog.subjectId, who.member.id));
      expect(events).toEqual([{ action: "two-factor.enabled", ip: "10.8.0.1" }]);
    }
  });

  it("lets a member turn it off with the password, but not staff where the site requires it", async () => {
    for (const role of ROLES) {
      const who = await signedIn(role);
      const call = { ...who.accounts.callFor(who.member.headers), ip: "10.8.0.2" };
      const setup = await startSetup(call, who.member.id, who.member.password);
      if (!setup.ok) throw new Error(setup.message);
      const confirmed = await confirmSetup(call, who.member.id, authenticatorCode(setup.totpURI));
      if (!confirmed.ok) throw new Error(confirmed.message);
      // The session is renewed when two-factor sign-in is turned on.
      const cookie = confirmed.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");
      const enabled = { ...who, user: { ...who.user, twoFactorEnabled: true } };
      const body = { intent: "turn-off", password: who.member.password };
      const off = await answerOf(() => action(argsFor(enabled, { body, headers: new Headers({ cookie }) })));
      if (role === "member") expect(off).toEqual({ status: 302, location: "/settings#sign-in" });
      else expect(off).toMatchObject({ status: 400 });
    }
  });
});
