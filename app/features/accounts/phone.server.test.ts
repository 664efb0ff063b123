import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, like, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Auth, createAuth } from "~/server/auth/auth.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { parseEnv } from "~/server/env.server";
import type { OutboundSms } from "~/server/sms/sms.server";
import { attemptLimits, users, verifications } from "../../../db/schema";
import { TooManyAttempts } from "./attempts.server";
import { accountMessages } from "./auth-messages.server";
import { confirmPhoneCode, PHONE_CODE_MESSAGES, secondsBeforeResend, sendPhoneCode } from "./phone.server";
import { PASSWORD_MAX, PASSWORD_MIN } from "./schemas";
import type { AuthCall } from "./sign-in.server";

const database = freshDatabasePerFile();
const texts: OutboundSms[] = [];
let auth: Auth;

beforeAll(() => {
  const env = parseEnv({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "pitlane-phone-")),
    AUTH_SECRET: "s".repeat(32),
    SITE_URL: "http://localhost:3000",
  });
  const outbox = {
    sendEmail: async () => {},
    sendSms: async (sms: OutboundSms) => {
      texts.push(sms);
    },
  };
  auth = createAuth({
    db: database().db,
    env,
    messages: accountMessages({ siteName: env.SITE_NAME, siteUrl: env.SITE_URL }, outbox),
    passwordLength: { min: PASSWORD_MIN, max: PASSWORD_MAX },
  });
});

beforeEach(() => {
  texts.length = 0;
});

let members = 0;

/** A signed-in member with a confirmed email address, as the call context of the route would give it. */
async function signedInMember(): Promise<{ call: AuthCall; userId: string }> {
  members += 1;
  const email = `member${members}@example.com`;
  const password = "a long enough passphrase";
  const { db } = database();
  await auth.api.signUpEmail({ body: { name: `Member ${members}`, email, password } });
  await db.update(users).set({ emailVerified: true }).where(eq(users.email, email));
  const signIn = await auth.api.signInEmail({ body: { email, password }, returnHeaders: true });
  const cookie = signIn.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
  const headers = new Headers({ cookie, "x-pitlane-client-ip": "127.0.0.1" });
  return { call: { auth, db, headers, ip: "127.0.0.1" }, userId: signIn.response.user.id };
}

function lastCode(to: string) {
  const text = texts.findLast((sms) => sms.to === to)?.text ?? "";
  return /\b(\d{6})\b/.exec(text)?.[1] ?? "";
}

/** Lets the member ask for another code at once, as if the minute had passed. */
async function forgetResendWait(userId: string) {
  await database()
    .db.delete(attemptLimits)
    .where(eq(attemptLimits.key, `phone-code-send:${userId}`));
}

function wrongCode(code: string) {
  return code === "000000" ? "111111" : "000000";
}

describe("sendPhoneCode and confirmPhoneCode", () => {
  it("texts a 6-digit code that makes the number the member's verified number", async () => {
    const { call, userId } = await signedInMember();
    const phoneNumber = "+447400100001";

    expect(await sendPhoneCode(call, { userId, phoneNumber })).toEqual({ ok: true, resendAfterSeconds: 60 });
    expect(texts).toHaveLength(1);
    const code = lastCode(phoneNumber);
    expect(code).toMatch(/^\d{6}$/);

    const outcome = await confirmPhoneCode(call, { userId, phoneNumber, code });
    expect(outcome.ok).toBe(true);
    const [row] = await database()
      .db.select({ phoneNumber: users.phoneNumber, verified: users.phoneNumberVerified })
      .from(users)
      .where(eq(users.id, userId));
    expect(row).toEqual({ phoneNumber, verified: true });

    // The same number again is the member's own already.
    await forgetResendWait(userId);
    expect(await sendPhoneCode(call, { userId, phoneNumber })).toEqual({ ok: false, reason: "yours" });
  });

  it("sends one code a minute and says how long to wait", async () => {
    const { call, userId } = await signedInMember();
    const phoneNumber = "+447400100002";
    await sendPhoneCode(call, { userId, phoneNumber });
    const again = await sendPhoneCode(call, { userId, phoneNumber });
    expect(again).toMatchObject({ ok: false, reason: "wait" });
    expect(again.ok === false && again.reason === "wait" && again.retryAfterSeconds).toBeGreaterThan(55);
    expect(texts).toHaveLength(1);
    expect(await secondsBeforeResend(call.db, userId)).toBeGreaterThan(55);
    await forgetResendWait(userId);
    expect(await secondsBeforeResend(call.db, userId)).toBe(0);
  });

  it("counts wrong codes down and locks the code after the fifth", async () => {
    const { call, userId } = await signedInMember();
    const phoneNumber = "+447400100003";
    await sendPhoneCode(call, { userId, phoneNumber });
    const code = lastCode(phoneNumber);

    const outcomes = [];
    for (let i = 0; i < 5; i++)
      outcomes.push(await confirmPhoneCode(call, { userId, phoneNumber, code: wrongCode(code) }));
    expect(outcomes).toEqual([
      { ok: false, reason: "wrong", triesLeft: 4 },
      { ok: false, reason: "wrong", triesLeft: 3 },
      { ok: false, reason: "wrong", triesLeft: 2 },
      { ok: false, reason: "wrong", triesLeft: 1 },
      { ok: false, reason: "locked" },
    ]);
    // Even the right code no longer works, however often it is tried.
    expect(await confirmPhoneCode(call, { userId, phoneNumber, code })).toEqual({ ok: false, reason: "locked" });
    expect(await confirmPhoneCode(call, { userId, phoneNumber, code })).toEqual({ ok: false, reason: "locked" });

    // A new code has all its tries again.
    await forgetResendWait(userId);
    await sendPhoneCode(call, { userId, phoneNumber });
    const fresh = lastCode(phoneNumber);
    expect(await confirmPhoneCode(call, { userId, phoneNumber, code: wrongCode(fresh) })).toEqual({
      ok: false,
      reason: "wrong",
      triesLeft: 4,
    });
    expect((await confirmPhoneCode(call, { userId, phoneNumber, code: fresh })).ok).toBe(true);
  });

  it("refuses an expired code", async () => {
    const { call, userId } = await signedInMember();
    const phoneNumber = "+447400100004";
    await sendPhoneCode(call, { userId, phoneNumber });
    await database()
      .db.update(verifications)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(like(verifications.identifier, "%phone%"));
    const code = lastCode(phoneNumber);
    expect(await confirmPhoneCode(call, { userId, phoneNumber, code })).toEqual({ ok: false, reason: "expired" });
    expect(await confirmPhoneCode(call, { userId, phoneNumber, code })).toEqual({ ok: false, reason: "expired" });
  });

  it("keeps a number to the member who verified it, without saying who", async () => {
    const first = await signedInMember();
    const second = await signedInMember();
    const phoneNumber = "+447400100005";

    // Both ask for a code before either confirms; the first to confirm keeps the number.
    await sendPhoneCode(first.call, { userId: first.userId, phoneNumber });
    const firstCode = lastCode(phoneNumber);
    await sendPhoneCode(second.call, { userId: second.userId, phoneNumber });
    const secondCode = lastCode(phoneNumber);
    expect((await confirmPhoneCode(second.call, { userId: second.userId, phoneNumber, code: secondCode })).ok).toBe(
      true,
    );
    expect(await confirmPhoneCode(first.call, { userId: first.userId, phoneNumber, code: firstCode })).toEqual({
      ok: false,
      reason: "taken",
    });
    await forgetResendWait(first.userId);
    expect(await sendPhoneCode(first.call, { userId: first.userId, phoneNumber })).toEqual({
      ok: false,
      reason: "taken",
    });
    expect(PHONE_CODE_MESSAGES.taken).not.toMatch(/Member|@/);
  });

  it("lets only the member who asked for a code confirm it", async () => {
    const asker = await signedInMember();
    const other = await signedInMember();
    const phoneNumber = "+447400100006";
    await sendPhoneCode(asker.call, { userId: asker.userId, phoneNumber });
    const code = lastCode(phoneNumber);

    // The other member has the code (say, it is their phone): it is no code of theirs, and their
    // tries do not spend it.
    for (let i = 0; i < 6; i++) {
      expect(await confirmPhoneCode(other.call, { userId: other.userId, phoneNumber, code })).toEqual({
        ok: false,
        reason: "expired",
      });
    }
    const [otherRow] = await database()
      .db.select({ phoneNumber: users.phoneNumber })
      .from(users)
      .where(eq(users.id, other.userId));
    expect(otherRow?.phoneNumber).toBeNull();
    // Nor can a request be made in one member's name with another's session.
    await expect(confirmPhoneCode(other.call, { userId: asker.userId, phoneNumber, code })).rejects.toThrow();

    expect((await confirmPhoneCode(asker.call, { userId: asker.userId, phoneNumber, code })).ok).toBe(true);
  });

  it("counts wrong codes per member and number: another member's request resets nobody else's", async () => {
    const first = await signedInMember();
    const second = await signedInMember();
    const phoneNumber = "+447400100007";
    await sendPhoneCode(first.call, { userId: first.userId, phoneNumber });
    const firstCode = lastCode(phoneNumber);
    for (let i = 0; i < 4; i++) {
      await confirmPhoneCode(first.call, { userId: first.userId, phoneNumber, code: wrongCode(firstCode) });
    }
    await sendPhoneCode(second.call, { userId: second.userId, phoneNumber });
    const counted = await database()
      .db.select({ key: attemptLimits.key, count: attemptLimits.count })
      .from(attemptLimits)
      .where(like(attemptLimits.key, `phone-code-tries:%${phoneNumber}`));
    expect(counted).toEqual([{ key: `phone-code-tries:${first.userId}:${phoneNumber}`, count: 4 }]);
    // The number's code is now the second member's: the first's last try is not a try at it.
    expect(
      await confirmPhoneCode(first.call, { userId: first.userId, phoneNumber, code: lastCode(phoneNumber) }),
    ).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(
      await confirmPhoneCode(second.call, {
        userId: second.userId,
        phoneNumber,
        code: wrongCode(lastCode(phoneNumber)),
      }),
    ).toEqual({ ok: false, reason: "wrong", triesLeft: 4 });
  });

  it("stops a member after ten texts a day with a 429", async () => {
    const { call, userId } = await signedInMember();
    for (let i = 0; i < 10; i++) {
      await forgetResendWait(userId);
      const outcome = await sendPhoneCode(call, { userId, phoneNumber: `+4474001002${String(i).padStart(2, "0")}` });
      expect(outcome.ok).toBe(true);
    }
    await forgetResendWait(userId);
    const refused = await sendPhoneCode(call, { userId, phoneNumber: "+447400100299" }).catch((error) => error);
    expect(refused).toBeInstanceOf(TooManyAttempts);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
  });
});

describe("PHONE_CODE_MESSAGES", () => {
  it("says how many tries are left", () => {
    expect(PHONE_CODE_MESSAGES.wrong(4)).toBe("That code is not right. 4 tries left.");
    expect(PHONE_CODE_MESSAGES.wrong(1)).toBe("That code is not right. 1 try left.");
    expect(PHONE_CODE_MESSAGES.wait(42)).toBe("You can ask for a new code in 42 seconds.");
  });
});
