import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { testAccounts } from "~/features/accounts/members.test-support";
import { authenticatorCode } from "~/features/accounts/totp.test-support";
import { confirmSetup, startSetup } from "~/features/accounts/two-factor.server";
import type { SessionUser } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { TEST_ROLES, type TestRole, testSessionUser } from "~/server/session-user.test-support";
import { answerOf, ROUTE_TEST_IP, routeArgs } from "~/web/route-calls.test-support";
import { auditLog, users } from "../../../db/schema";
import { action, loader } from "./two-factor";

// /settings/twoFactor, called as React Router calls it, for a visitor and each role.
const database = freshDatabasePerFile();

let made = 0;

async function signedIn(role: TestRole, staffTwoFactor: "required" | "optional" = "required") {
  const accounts = testAccounts(database().db);
  made += 1;
  const member = await accounts.createMember({ name: `A ${role}`, email: `${role}-${made}@example.com` });
  await database().db.update(users).set({ role }).where(eq(users.id, member.id));
  const env = { ...accounts.env, STAFF_TWO_FACTOR: staffTwoFactor };
  const user = testSessionUser({ id: member.id, email: member.email, role });
  return { accounts, member, env, user };
}

function argsFor(
  who: { env: Record<string, unknown>; accounts: ReturnType<typeof testAccounts>; user: SessionUser | null },
  init: { body?: Record<string, string>; headers?: Headers; query?: string } = {},
) {
  const { body, headers, query = "" } = init;
  const runtime = { auth: who.accounts.auth };
  return routeArgs({
    db: database().db,
    env: who.env,
    runtime,
    who: who.user,
    path: `/settings/twoFactor${query}`,
    body,
    headers,
  });
}

describe("/settings/twoFactor", () => {
  it("sends a visitor to sign in, for the page and the form", async () => {
    const accounts = testAccounts(database().db);
    const visitor = { env: accounts.env, accounts, user: null };
    const toLogin = { status: 302, location: "/login?redirectTo=%2Fsettings%2FtwoFactor" };
    expect(await answerOf(() => loader(argsFor(visitor)))).toMatchObject(toLogin);
    expect(await answerOf(() => action(argsFor(visitor, { body: { intent: "start", password: "x" } })))).toMatchObject(
      toLogin,
    );
  });

  it("shows every role its state; staff are told they keep it where the site requires it", async () => {
    for (const role of TEST_ROLES) {
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
    for (const role of TEST_ROLES) {
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
      expect(done).toMatchObject({ status: 302, location: "/admin" });
      const [row] = await database().db.select().from(users).where(eq(users.id, who.member.id));
      expect(row?.twoFactorEnabled).toBe(true);
      const events = await database()
        .db.select({ action: auditLog.action, ip: auditLog.ip })
        .from(auditLog)
        .where(eq(auditLog.subjectId, who.member.id));
      expect(events).toEqual([{ action: "two-factor.enabled", ip: ROUTE_TEST_IP }]);
    }
  });

  it("lets a member turn it off with the password, but not staff where the site requires it", async () => {
    for (const role of TEST_ROLES) {
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
      if (role === "member") expect(off).toMatchObject({ status: 302, location: "/settings#sign-in" });
      else expect(off).toMatchObject({ status: 400 });
    }
  });
});
