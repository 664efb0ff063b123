import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { testAccounts } from "~/features/accounts/members.test-support";
import { signInWithPassword } from "~/features/accounts/sign-in.server";
import { authenticatorCode } from "~/features/accounts/totp.test-support";
import { confirmSetup, startSetup } from "~/features/accounts/two-factor.server";
import { requestContext, runtimeContext, userContext } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { Runtime } from "~/server/runtime.server";
import { testSessionUser } from "~/server/session-user.test-support";
import { action, loader } from "./login-code";

// The code step of a password sign-in, called as React Router calls it, for each role.
const database = freshDatabasePerFile();
const ROLES = ["member", "organizer", "admin"] as const;

function argsFor(
  accounts: ReturnType<typeof testAccounts>,
  who: (typeof ROLES)[number] | null,
  init: { method?: string; cookie?: string; body?: Record<string, string> } = {},
) {
  const context = new RouterContextProvider();
  context.set(runtimeContext, { db: database().db, env: accounts.env, auth: accounts.auth } as Runtime);
  context.set(requestContext, { ip: "10.7.0.1", nonce: "n", requestId: "r" });
  context.set(userContext, who ? testSessionUser({ id: `${who}-id`, email: `${who}@club.example`, role: who }) : null);
  const url = new URL("http://localhost:3000/login/code?redirectTo=%2Fadmin");
  const headers = new Headers(init.cookie ? { cookie: init.cookie } : {});
  const request = new Request(url, {
    method: init.method ?? "GET",
    headers,
    body: init.body ? new URLSearchParams(init.body) : undefined,
  });
  return { request, url, params: {}, context, unstable_pattern: "/login/code" } as never;
}

async function answerOf(call: () => unknown) {
  try {
    const answer = await call();
    return { status: (answer as { init?: { status?: number } }).init?.status ?? 200, answer };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("Location") };
    throw thrown;
  }
}

describe("/login/code", () => {
  it("sends signed-in members, organizers and admins on, for the page and the form", async () => {
    const accounts = testAccounts(database().db);
    for (const who of ROLES) {
      expect(await answerOf(() => loader(argsFor(accounts, who)))).toEqual({ status: 302, location: "/admin" });
      const post = argsFor(accounts, who, { method: "POST", body: { code: "123456" } });
      expect(await answerOf(() => action(post))).toEqual({ status: 302, location: "/admin" });
    }
  });

  it("sends a visitor without a pending sign-in back to sign in", async () => {
    const accounts = testAccounts(database().db);
    expect(await answerOf(() => loader(argsFor(accounts, null)))).toEqual({
      status: 302,
      location: "/login?redirectTo=%2Fadmin",
    });
    const post = argsFor(accounts, null, { method: "POST", body: { code: "123456", redirectTo: "/admin" } });
    expect(await answerOf(() => action(post))).toEqual({
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
      action(argsFor(accounts, null, { method: "POST", cookie, body: { code: "000000", redirectTo: "/admin" } })),
    );
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.answer)).toContain("That code is not right.");
    const right = await answerOf(() =>
      action(
        argsFor(accounts, null, {
          method: "POST",
          cookie,
          body: { code: authenticatorCode(setup.totpURI), redirectTo: "/admin" },
        }),
      ),
    );
    expect(right).toEqual({ status: 302, location: "/admin" });
  });
});
