import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { type Auth, createAuth } from "~/server/auth/auth.server";
import type { Db } from "~/server/db/client.server";
import { parseEnv } from "~/server/env.server";
import type { OutboundEmail } from "~/server/mail/mail.server";
import type { Outbox } from "~/server/messages.server";
import { localStorage } from "~/server/storage/storage.server";
import { users } from "../../../db/schema";
import { accountMessages } from "./auth-messages.server";
import { PASSWORD_MAX, PASSWORD_MIN } from "./schemas";

/**
 * Better Auth on a test database, with an outbox instead of a mail queue, and helpers that make
 * members the way the site does (sign-up, confirmed email, finished profile).
 */
export function testAccounts(db: Db) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "pitlane-accounts-"));
  const env = parseEnv({
    DATA_DIR: dataDir,
    SITE_URL: "http://localhost:3000",
    AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
    LOG_LEVEL: "silent",
  });
  const outbox: OutboundEmail[] = [];
  const messages: Outbox = {
    sendEmail: async (email) => {
      outbox.push(email);
    },
    sendSms: async () => {},
  };
  const brand = { siteName: env.SITE_NAME, siteUrl: env.SITE_URL };
  const auth: Auth = createAuth({
    db,
    env,
    messages: accountMessages(brand, messages),
    passwordLength: { min: PASSWORD_MIN, max: PASSWORD_MAX },
  });
  const storage = localStorage(path.join(dataDir, "media"));

  /** A confirmed, onboarded member signed in with a password; answers the request headers of their session. */
  async function createMember(input: { name: string; email: string; password?: string; handle?: string }) {
    const password = input.password ?? "a long test password 42";
    const { user } = await auth.api.signUpEmail({ body: { name: input.name, email: input.email, password } });
    await db
      .update(users)
      .set({ emailVerified: true, handle: input.handle ?? null, onboardedAt: new Date(), termsAcceptedAt: new Date() })
      .where(eq(users.id, user.id));
    const signedIn = await auth.api.signInEmail({ body: { email: input.email, password }, returnHeaders: true });
    const headers = new Headers();
    headers.set(
      "cookie",
      signedIn.headers
        .getSetCookie()
        .map((cookie) => cookie.split(";")[0])
        .join("; "),
    );
    return { id: user.id, email: input.email.toLowerCase(), name: input.name, password, headers };
  }

  /** What the settings actions need, for a request with these headers. */
  function callFor(headers: Headers) {
    return {
      auth,
      db,
      headers,
      ip: "127.0.0.1",
      storage,
      brand,
      outbox: messages,
    };
  }

  return { auth, env, outbox, storage, createMember, callFor };
}
