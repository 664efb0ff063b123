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
const UK_ONLY = { countries: ["GB"], dailyLimit: 500 };
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
  // Each member on a network of their own: texts are limited per network too.
  const ip = `10.2.${members}.1`;
  const headers = new Headers({ cookie, "x-pitlane-client-ip": ip });
  return { call: { auth, db, headers, ip }, userId: signIn.response.user.id };
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

    expect(await sendPhoneCode(call, { userId, phoneNumber, policy: UK_ONLY })).toEqual({
      ok: true,
      resendAfterSeconds: 60,
    });
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
    expect(await sendPhoneCode(call, { userId, phoneNumber, policy: UK_ONLY })).toEqual({ ok: false, reason: "yours" });
  });

  it("sends one code a minute and says how long to wait", async () => {
    const { call, userId } = await signedInMember();
    const phoneNumber = "+447400100002";
    await sendPhoneCode(call, { userId, phoneNumber, policy: UK_ONLY });
    const again = await sendPhoneCode(call, { userId, phoneNumber, policy: UK_ONLY });
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
    await sendPhoneCode(call, { userId, phoneNumber, policy: UK_ONLY });
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
    await sendPhoneCode(call, { userId, phoneNumber, policy: UK_ONLY });
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
    await sendPhoneCode(call, { userId, phoneNumber, policy: UK_ONLY });
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
    await sendPhoneCode(first.call, { userId: first.userId, phoneNumber, policy: UK_ONLY });
    const firstCode = lastCode(phoneNumber);
    await sendPhoneCode(second.call, { userId: second.userId, phoneNumber, policy: UK_ONLY });
    const secondCode = lastCode(phoneNumber);
    expect((await confirmPhoneCode(second.call, { userId: second.userId, phoneNumber, code: secondCode })).ok).toBe(
      true,
    );
    expect(await confirmPhoneCode(first.call, { userId: first.userId, phoneNumber, code: firstCode })).toEqual({
      ok: false,
      reason: "taken",
    });
    await forgetResendWait(first.userId);
    expect(await sendPhoneCode(first.call, { userId: first.userId, phoneNumber, policy: UK_ONLY })).toEqual({
      ok: false,
      reason: "taken",
    });
    expect(PHONE_CODE_MESSAGES.taken).not.toMatch(/Member|@/);
  });

  it("lets only the member who asked for a code confirm it", async () => {
    const asker = await signedInMember();
    const other = await signedInMember();
    const phoneNumber = "+447400100006";
    await sendPhoneCode(asker.call, { userId: asker.userId, phoneNumber, policy: UK_ONLY });
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
    await sendPhoneCode(first.call, { userId: first.userId, phoneNumber, policy: UK_ONLY });
    const firstCode = lastCode(phoneNumber);
    for (let i = 0; i < 4; i++) {
      await confirmPhoneCode(first.call, { userId: first.userId, phoneNumber, code: wrongCode(firstCode) });
    }
    await sendPhoneCode(second.call, { userId: second.userId, phoneNumber, policy: UK_ONLY });
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
      const phoneNumber = `+4474001002${String(i).padStart(2, "0")}`;
      const outcome = await sendPhoneCode(call, { userId, phoneNumber, policy: UK_ONLY });
      expect(outcome.ok).toBe(true);
    }
    await forgetResendWait(userId);
    const refused = await sendPhoneCode(call, { userId, phoneNumber: "+447400100299", policy: UK_ONLY }).catch(
      (error) => error,
    );
    expect(refused).toBeInstanceOf(TooManyAttempts);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
  });
});

describe("SMS pumping limits", () => {
  it("texts no number from a country the operator does not allow, and says which are allowed", async () => {
    const { call, userId } = await signedInMember();
    expect(await sendPhoneCode(call, { userId, phoneNumber: "+33612345678", policy: UK_ONLY })).toEqual({
      ok: false,
      reason: "country",
      country: "FR",
    });
    expect(texts).toEqual([]);
    expect(PHONE_CODE_MESSAGES.country("FR", ["GB", "IE"])).toBe(
      "We can't send texts to numbers in France. Use a number from United Kingdom or Ireland.",
    );
    const both = { countries: ["GB", "FR"], dailyLimit: 500 };
    expect((await sendPhoneCode(call, { userId, phoneNumber: "+33612345678", policy: both })).ok).toBe(true);
  });

  it("sends one number five codes a day, whoever asks", async () => {
    const phoneNumber = "+447400100400";
    for (let i = 0; i < 5; i++) {
      const { call, userId } = await signedInMember();
      expect((await sendPhoneCode(call, { userId, phoneNumber, policy: UK_ONLY })).ok).toBe(true);
    }
    const { call, userId } = await signedInMember();
    await expect(sendPhoneCode(call, { userId, phoneNumber, policy: UK_ONLY })).rejects.toThrow(TooManyAttempts);
    expect(texts).toHaveLength(5);
  });

  it("sends ten codes an hour to one network, across its members", async () => {
    const network = "10.9.9.9";
    for (let i = 0; i < 10; i++) {
      const { call, userId } = await signedInMember();
      const phoneNumber = `+4474001005${String(i).padStart(2, "0")}`;
      const outcome = await sendPhoneCode({ ...call, ip: network }, { userId, phoneNumber, policy: UK_ONLY });
      expect(outcome.ok).toBe(true);
    }
    const { call, userId } = await signedInMember();
    const refused = sendPhoneCode({ ...call, ip: network }, { userId, phoneNumber: "+447400100599", policy: UK_ONLY });
    await expect(refused).rejects.toThrow(TooManyAttempts);
  });

  it("stops at the site's daily limit with a message, not an error page", async () => {
    const tight = { countries: ["GB"], dailyLimit: 2 };
    await database().db.delete(attemptLimits).where(eq(attemptLimits.key, "phone-code-send-site"));
    const outcomes = [];
    for (let i = 0; i < 3; i++) {
      const { call, userId } = await signedInMember();
      outcomes.push(await sendPhoneCode(call, { userId, phoneNumber: `+4474001006${i}0`, policy: tight }));
    }
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true, false]);
    expect(outcomes[2]).toEqual({ ok: false, reason: "site" });
    expect(texts).toHaveLength(2);
  });
});

describe("PHONE_CODE_MESSAGES", () => {
  it("says how many tries are left", () => {
    expect(PHONE_CODE_MESSAGES.wrong(4)).toBe("That code is not right. 4 tries left.");
    expect(PHONE_CODE_MESSAGES.wrong(1)).toBe("That code is not right. 1 try left.");
    expect(PHONE_CODE_MESSAGES.wait(42)).toBe("You can ask for a new code in 42 seconds.");
  });
});
