import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { accounts, draws, outboundMessages, users } from "../../../db/schema";
import { type Auth, type AuthMessages, createAuth } from "../auth/auth.server";
import type { DatabaseHandle } from "../db/client.server";
import { createTestDatabase, type TestDatabase } from "../db/test-database";
import { parseEnv } from "../env.server";
import { localStorage, type Storage } from "../storage/storage.server";
import type { Seal } from "./archive.server";

/**
 * A small site holding every kind of key a backup must not hand over: a member signed in on
 * two devices and with an unused password reset link (through Better Auth itself), a federated
 * sign-in's tokens, a confirmation email just sent from the local mailbox, and a live draw with
 * its secret seed; plus the generated auth secret it signs with. Each value is random, so
 * finding it in a file means it was copied there.
 */

/** A passphrase with a low work factor: the real default takes seconds per backup. */
export const TEST_SEAL: Seal = { passphrase: "correct horse battery staple", workFactor: 10 };

const PASSWORD = "a long test password 42";

export type SiteWithKeys = {
  database: TestDatabase;
  storage: Storage;
  authSecret: string;
  email: string;
  /** The Cookie header of each browser the member signed in on. */
  cookies: string[];
  resetToken: string;
  providerTokens: string[];
  /** The confirmation link in the mailbox's copy of an email sent a minute before the backup. */
  recentLink: string;
  /** A message sent two days before: its text outlives every link in it and stays. */
  oldText: string;
  drawSeed: string;
  /** A photo, stored as it is. */
  photo: { key: string; bytes: Buffer };
  cleanup(): Promise<void>;
};

const token = () => randomBytes(24).toString("base64url");

/** Better Auth on `database`, signing with `secret`; the reset links it sends land in `links`. */
export function authOn(database: DatabaseHandle, secret: string, links: string[] = []): Auth {
  const env = parseEnv({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "pitlane-keys-data-")),
    SITE_URL: "http://localhost:3000",
    AUTH_SECRET: secret,
    PAYMENTS: "test",
  });
  const quiet = async () => {};
  const messages: AuthMessages = {
    existingAccount: quiet,
    resetPassword: async (_user, url) => {
      links.push(url);
    },
    verification: quiet,
    magicLink: quiet,
    phoneCode: quiet,
    accountUpdated: quiet,
  };
  return createAuth({ db: database.db, env, messages, passwordLength: { min: 12, max: 128 } });
}

/** Signs in with the password; answers the browser's Cookie header. */
export async function signIn(auth: Auth, email: string) {
  const signedIn = await auth.api.signInEmail({ body: { email, password: PASSWORD }, returnHeaders: true });
  return signedIn.headers
    .getSetCookie()
    .map((pair) => pair.split(";")[0])
    .join("; ");
}

/** The member the Cookie header signs in, or null. */
export async function whoIs(auth: Auth, cookie: string) {
  const session = await auth.api.getSession({ headers: new Headers({ cookie }) });
  return session?.user.email ?? null;
}

export async function createSiteWithKeys(): Promise<SiteWithKeys> {
  const database = await createTestDatabase();
  const storage = localStorage(mkdtempSync(path.join(tmpdir(), "pitlane-keys-media-")));
  const { db } = database;
  const now = Date.now();
  const authSecret = token();
  const links: string[] = [];
  const auth = authOn(database, authSecret, links);
  const email = `ada.${token().toLowerCase()}@example.com`;
  const { user } = await auth.api.signUpEmail({ body: { name: "Ada", email, password: PASSWORD } });
  await db.update(users).set({ emailVerified: true }).where(eq(users.id, user.id));
  const userId = user.id;
  const cookies = [await signIn(auth, email), await signIn(auth, email)];
  await auth.api.requestPasswordReset({ body: { email, redirectTo: "/changePassword" } });
  const resetToken = new URL(links[0]!).searchParams.get("token")!;

  const providerTokens = [token(), token(), token()];
  await db.insert(accounts).values({
    id: `account-${token()}`,
    userId,
    accountId: token(),
    providerId: "google",
    accessToken: providerTokens[0],
    refreshToken: providerTokens[1],
    idToken: providerTokens[2],
    accessTokenExpiresAt: new Date(now + 60 * 60 * 1000),
  });

  const recentLink = `http://localhost:3000/api/auth/verify-email?token=${token()}`;
  const oldText = `Your order is confirmed (${token()}).`;
  await db.insert(outboundMessages).values([
    {
      channel: "email",
      to: email,
      subject: "Confirm your address",
      text: `Confirm your address: ${recentLink}`,
      html: `<a href="${recentLink}">Confirm your address</a>`,
      transport: "mailbox",
      sentAt: new Date(now - 60 * 1000),
    },
    {
      channel: "email",
      to: email,
      subject: "Your order",
      text: oldText,
      html: `<p>${oldText}</p>`,
      transport: "mailbox",
      sentAt: new Date(now - 2 * 24 * 60 * 60 * 1000),
    },
  ]);

  const drawSeed = randomBytes(32).toString("hex");
  await db.insert(draws).values({
    slug: `track-day-${token().toLowerCase()}`,
    title: "Win a track day",
    kind: "competition",
    status: "live",
    prize: "A track day for two",
    prizeValue: 50_000,
    totalEntries: 100,
    maxPerMember: 20,
    opensAt: new Date(now - 24 * 60 * 60 * 1000),
    closesAt: new Date(now + 7 * 24 * 60 * 60 * 1000),
    question: "How many wheels does a car have?",
    options: ["Three", "Four", "Five"],
    answer: 1,
    beaconSource: "drand quicknet round 1000",
    seed: drawSeed,
    commitment: "0".repeat(64),
  });

  const photo = { key: "cars/track-day-640.webp", bytes: randomBytes(2048) };
  await storage.put(photo.key, photo.bytes, "image/webp");

  return {
    database,
    storage,
    authSecret,
    email,
    cookies,
    resetToken,
    providerTokens,
    recentLink,
    oldText,
    drawSeed,
    photo,
    cleanup: () => database.cleanup(),
  };
}
