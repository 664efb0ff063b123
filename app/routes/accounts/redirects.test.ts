import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { RouterContextProvider } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { insertAccount } from "~/features/accounts/staff.server";
import { runtimeContext, type SessionUser, userContext } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { type Env, parseEnv } from "~/server/env.server";
import type { Runtime } from "~/server/runtime.server";
import { testSessionUser } from "~/server/session-user.test-support";
import { loader as createAccountLoader } from "./create-account";
import { loader as loginLoader } from "./login";
import { loader as newProfileLoader } from "./new-profile";
import { loader as signUpLoader } from "./sign-up";
import { loader as verifyPhoneLoader } from "./verify-phone";

// Every account page that takes a `redirectTo` keeps it on the site, called as React Router calls them.
const database = freshDatabasePerFile();
let env: Env;
let member: SessionUser;

beforeAll(async () => {
  env = parseEnv({
    SITE_URL: "https://club.example",
    // A public address takes payments only when told how.
    PAYMENTS: "test",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "pitlane-redirects-")),
    AUTH_SECRET: "a-test-secret-that-is-long-enough-0123456789",
  });
  const account = await insertAccount(database().db, {
    email: "member@club.example",
    name: "A Member",
    role: "member",
    passwordHash: "x",
  });
  member = testSessionUser(account);
});

const ATTACKS = [
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r/evil.example",
  "/%09/evil.example",
  "/\\evil.example",
  "/%2F/evil.example",
  "/%5C/evil.example",
  "//evil.example",
  "https://evil.example/",
];

function args(page: string, target: string, user: SessionUser | null) {
  const context = new RouterContextProvider();
  context.set(runtimeContext, { db: database().db, env } as Runtime);
  context.set(userContext, user);
  const url = new URL(`https://club.example/${page}`);
  url.searchParams.set("redirectTo", target);
  return { request: new Request(url), url, params: {}, context, unstable_pattern: `/${page}` } as never;
}

const pages = {
  login: { loader: loginLoader, signedIn: false, fallback: "" },
  signUp: { loader: signUpLoader, signedIn: false, fallback: "" },
  createAnAccount: { loader: createAccountLoader, signedIn: false, fallback: "" },
  newProfile: { loader: newProfileLoader, signedIn: true, fallback: "" },
  verifyPhone: { loader: verifyPhoneLoader, signedIn: true, fallback: "/settings" },
} as const;

describe.each(Object.entries(pages))("/%s?redirectTo=", (page, { loader, signedIn, fallback }) => {
  it("keeps a path on the site", async () => {
    const result = (await loader(args(page, "/events?month=6", signedIn ? member : null))) as { redirectTo: string };
    expect(result.redirectTo).toBe("/events?month=6");
  });

  it.each(ATTACKS)("refuses %j", async (target) => {
    const result = (await loader(args(page, target, signedIn ? member : null))) as { redirectTo: string };
    expect(result.redirectTo).toBe(fallback);
  });
});

describe("a signed-in member on a signed-out page", () => {
  it.each(["login", "signUp", "createAnAccount"] as const)("is sent on within the site from /%s", async (page) => {
    for (const target of ATTACKS) {
      const response = await Promise.resolve()
        .then(() => pages[page].loader(args(page, target, member)))
        .catch((thrown: unknown) => thrown as Response);
      expect((response as Response).headers.get("Location"), JSON.stringify(target)).toBe("/members");
    }
  });
});
