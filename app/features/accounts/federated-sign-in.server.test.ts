import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { handleOAuthUserInfo } from "better-auth/oauth2";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type Auth, configuredProviders, createAuth, TRUSTED_PROVIDERS } from "~/server/auth/auth.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { type Env, parseEnv } from "~/server/env.server";
import { accounts, sessions, users } from "../../../db/schema";
import { accountMessages } from "./auth-messages.server";
import { PASSWORD_MAX, PASSWORD_MIN } from "./schemas";

// A federated sign-in only joins an existing account when the provider's address can be trusted.
const database = freshDatabasePerFile();
let env: Env;
let auth: Auth;

beforeAll(() => {
  env = parseEnv({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "pitlane-federated-")),
    AUTH_SECRET: "s".repeat(32),
    SITE_URL: "http://localhost:3000",
    LOG_LEVEL: "silent",
    FACEBOOK_CLIENT_ID: "facebook-app",
    FACEBOOK_CLIENT_SECRET: "facebook-secret",
  });
  const outbox = { sendEmail: async () => {}, sendSms: async () => {} };
  auth = createAuth({
    db: database().db,
    env,
    messages: accountMessages({ siteName: env.SITE_NAME, siteUrl: env.SITE_URL }, outbox),
    passwordLength: { min: PASSWORD_MIN, max: PASSWORD_MAX },
  });
});

/** An unsigned ID token, as Facebook's Limited Login hands one to the site. */
function idToken(claims: Record<string, unknown>) {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part(claims)}.signature`;
}

describe("Facebook sign-in", () => {
  it("is not a trusted provider, and its addresses are never taken as verified", async () => {
    expect(TRUSTED_PROVIDERS).not.toContain("facebook");
    const context = await auth.$context;
    expect(context.trustedProviders).not.toContain("facebook");
    const facebook = configuredProviders(env).facebook;
    expect(facebook?.mapProfileToUser()).toEqual({ emailVerified: false });
  });

  it("with the address of an existing, confirmed account does not get into that account", async () => {
    const { db } = database();
    const email = "owner@example.com";
    const { user: owner } = await auth.api.signUpEmail({
      body: { name: "Owner", email, password: "a long enough passphrase" },
    });
    await db.update(users).set({ emailVerified: true }).where(eq(users.id, owner.id));

    const context = await auth.$context;
    const facebook = context.socialProviders.find((provider) => provider.id === "facebook");
    // Whatever the token claims about the address.
    const info = await facebook?.getUserInfo({
      idToken: idToken({ sub: "fb-123", name: "Someone Else", email, email_verified: true }),
    });
    expect(info?.user.emailVerified).toBe(false);

    const result = await handleOAuthUserInfo({ context } as never, {
      userInfo: { ...info!.user, id: "fb-123", email, name: "Someone Else", image: null, emailVerified: false },
      account: { providerId: "facebook", accountId: "fb-123", accessToken: "token" },
      callbackURL: "/members",
    });
    expect(result.error).toBe("account not linked");
    expect(result.data).toBeNull();
    const linked = await db
      .select()
      .from(accounts)
      .where(and(eq(accounts.userId, owner.id), eq(accounts.providerId, "facebook")));
    expect(linked).toEqual([]);
    expect(await db.select().from(sessions).where(eq(sessions.userId, owner.id))).toEqual([]);
  });
});
