import { describe, expect, it } from "vitest";
import { testAccounts } from "~/features/accounts/members.test-support";
import { signInWithPassword } from "~/features/accounts/sign-in.server";
import { authenticatorCode } from "~/features/accounts/totp.test-support";
import { confirmSetup, startSetup } from "~/features/accounts/two-factor.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { TEST_ROLES, type TestRole, testSessionUser } from "~/server/session-user.test-support";
import { answerOf, routeArgs } from "~/web/route-calls.test-support";
import { action, loader } from "./login-code";

// The code step of a password sign-in, called as React Router calls it, for each role.
const database = freshDatabasePerFile();
function argsFor(
  accounts: ReturnType<typeof testAccounts>,
  who: TestRole | null,
  init: { cookie?: string; body?: Record<string, string> } = {},
) {
  return routeArgs({
    db: database().db,
    env: accounts.env,
    runtime: { auth: accounts.auth },
    who: who ? testSessionUser({ id: `${who}-id`, email: `${who}@club.example`, role: who }) : null,
    path: "/login/code?redirectTo=%2Fadmin",
    body: init.body,
    headers: init.cookie ? { cookie: init.cookie } : undefined,
  });
}

describe("/login/code", () => {
  it("sends signed-in members, organizers and admins on, for the page and the form", async () => {
    const accounts = testAccounts(database().db);
    for (const who of TEST_ROLES) {
      expect(await answerOf(() => loader(argsFor(accounts, who)))).toMatchObject({ status: 302, location: "/admin" });
      const post = argsFor(accounts, who, { body: { code: "123456" } });
      expect(await answerOf(() => action(post))).toMatchObject({ status: 302, location: "/admin" });
    }
  });

  it("sends a visitor without a pending sign-in back to sign in", async () => {
    const accounts = testAccounts(database().db);
    expect(await answerOf(() => loader(argsFor(accounts, null)))).toMatchObject({
      status: 302,
      location: "/login?redirectTo=%2Fadmin",
    });
    const post = argsFor(accounts, null, { body: { code: "123456", redirectTo: "/admin" } });
    expect(await answerOf(() => action(post))).toMatchObject({
      status: 302,
      location: "/login?redirectTo=%2Fadmin&code=expired",
    });
  });

  it("takes the code after the password, and says so when it is wrong", async () => {
    const accounts = testAccounts(database().db);
    const member = await accounts.createMember({ name: "Code Page", email: "code-page@example.com" });
    const call = { ...accounts.callFor(member.headers), ip: "10.7.0.2" };
    const setup = await startSetup(call, member.id, member.password);
    if (!setup.ok) throw new Error(setup.message);
    await confirmSetup(call, member.id, authenticatorCode(setup.totpURI));
    const password = await signInWithPassword(
      { auth: accounts.auth, db: database().db, headers: new Headers(), ip: "10.7.0.2" },
      { email: member.email, password: member.password },
    );
    if (!password.ok) throw new Error("expected the password to be accepted");
    const cookie = password.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");

    expect((await answerOf(() => loader(argsFor(accounts, null, { cookie })))).status).toBe(200);
    const wrong = await answerOf(() =>
      action(argsFor(accounts, null, { cookie, body: { code: "000000", redirectTo: "/admin" } })),
    );
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.data)).toContain("That code is not right.");
    const right = await answerOf(() =>
      action(
        argsFor(accounts, null, {
          cookie,
          body: { code: authenticatorCode(setup.totpURI), redirectTo: "/admin" },
        }),
      ),
    );
    expect(right).toMatchObject({ status: 302, location: "/admin" });
  });
});
