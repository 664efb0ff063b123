import { randomUUID } from "node:crypto";
import { isAPIError } from "better-auth/api";
import { and, eq, gt } from "drizzle-orm";
import { PHONE_CODE_SECONDS, PHONE_CODE_TRIES } from "~/server/auth/auth.server";
import type { Db } from "~/server/db/client.server";
import { countOf } from "~/ui/plural";
import { users, verifications } from "../../../db/schema";
import {
  ATTEMPT_RULES,
  type AttemptRule,
  clearAttempts,
  countAttempt,
  describeWait,
  limitAttempts,
  secondsUntilAllowed,
} from "./attempts.server";
import { ipKey } from "./ip-key";
import { countryName, countryOfPhone, formatPhone, isE164Phone } from "./phone";
import { type AuthCall, forwardCookies } from "./sign-in.server";

// Verifying a member's phone number with a 6-digit text message (codes
// expire in 10 minutes with 5 tries). Better Auth's phone-number plugin owns the codes; these
// functions add the site's rules around it: one text a minute and ten a day per member, one
// member per number, and the messages the form shows.
//
// Better Auth keeps one code per number, whoever asked for it. The site binds that code to the
// member who asked last (a `phone-code-member:` row beside it) and counts wrong tries per member
// and number: a code sent at one member's request can only be confirmed by that member, and no
// other member's requests or tries spend or reset it.

/** Better Auth's limits on one code (auth.server.ts), counted here too to say how many tries are left. */
const CODE_TRIES: AttemptRule = { max: PHONE_CODE_TRIES, windowSeconds: PHONE_CODE_SECONDS };

const sendKey = (userId: string) => `phone-code-send:${userId}`;
const dailyKey = (userId: string) => `phone-code-send-daily:${userId}`;
const triesKey = (userId: string, phoneNumber: string) => `phone-code-tries:${userId}:${phoneNumber}`;
const requesterKey = (phoneNumber: string) => `phone-code-member:${phoneNumber}`;

/** Records that the code just sent to `phoneNumber` is `userId`'s (for as long as the code lives). */
async function bindCode(db: Db, userId: string, phoneNumber: string) {
  await db.transaction(async (tx) => {
    await tx.delete(verifications).where(eq(verifications.identifier, requesterKey(phoneNumber)));
    await tx.insert(verifications).values({
      id: randomUUID(),
      identifier: requesterKey(phoneNumber),
      value: userId,
      expiresAt: new Date(Date.now() + PHONE_CODE_SECONDS * 1000),
    });
  });
}

/** Whether the live code for `phoneNumber` was sent at `userId`'s request. */
async function isCodeFor(db: Db, userId: string, phoneNumber: string) {
  const [row] = await db
    .select({ id: verifications.id })
    .from(verifications)
    .where(
      and(
        eq(verifications.identifier, requesterKey(phoneNumber)),
        eq(verifications.value, userId),
        gt(verifications.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * What the operator allows texts for (SMS pumping: fraudsters trigger texts to premium numbers
 * abroad and share the charge): the countries whose numbers may get a code, and how many codes
 * the whole site sends a day.
 */
export type SmsPolicy = { countries: readonly string[]; dailyLimit: number };

const numberKey = (phoneNumber: string) => `phone-code-send-number:${phoneNumber}`;
const ipSendKey = (ip: string) => `phone-code-send-ip:${ipKey(ip)}`;
const SITE_KEY = "phone-code-send-site";

export const PHONE_CODE_MESSAGES = {
  taken: "This number is already used by another account. Use a different number.",
  yours: "This number is already verified on your account.",
  locked: "Too many wrong codes. Ask for a new code.",
  expired: "This code has expired. Ask for a new one.",
  wait: (seconds: number) => `You can ask for a new code in ${describeWait(seconds)}.`,
  country: (country: string, allowed: readonly string[]) => {
    const names = allowed.map(countryName);
    const list = names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : (names[0] ?? "");
    const place = country ? `numbers in ${countryName(country)}` : "this number";
    return `We can't send texts to ${place}. Use a number from ${list}.`;
  },
  site: "We can't send more codes today. Please try again tomorrow.",
  wrong: (triesLeft: number) => `That code is not right. ${countOf(triesLeft, "try", "tries")} left.`,
};

/** Who holds `phoneNumber` already; the answer never says which other member it is. */
async function holderOf(db: Db, userId: string, phoneNumber: string): Promise<"nobody" | "yours" | "taken"> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.phoneNumber, phoneNumber)).limit(1);
  if (!row) return "nobody";
  return row.id === userId ? "yours" : "taken";
}

export type SendPhoneCode =
  | { ok: true; resendAfterSeconds: number }
  | { ok: false; reason: "wait"; retryAfterSeconds: number }
  | { ok: false; reason: "taken" | "yours" | "site" }
  | { ok: false; reason: "country"; country: string };

/**
 * Texts a new code to `phoneNumber` (E.164) for the signed-in member. A number from a country
 * the operator does not allow gets nothing. Every other request counts towards the member's daily
 * limit (a 429 page past it, which also bounds how many numbers one account can test for
 * "already used"), and each text towards limits per network, per number and for the whole site.
 */
export async function sendPhoneCode(
  { auth, db, headers, ip }: AuthCall,
  input: { userId: string; phoneNumber: string; policy: SmsPolicy },
): Promise<SendPhoneCode> {
  const country = countryOfPhone(input.phoneNumber);
  if (!country || !input.policy.countries.includes(country)) {
    return { ok: false, reason: "country", country: country ?? "" };
  }
  await limitAttempts(db, [[dailyKey(input.userId), ATTEMPT_RULES.phoneCodeSendDaily]]);
  const holder = await holderOf(db, input.userId, input.phoneNumber);
  if (holder !== "nobody") return { ok: false, reason: holder };
  const minute = await countAttempt(db, sendKey(input.userId), ATTEMPT_RULES.phoneCodeSend);
  if (!minute.allowed) return { ok: false, reason: "wait", retryAfterSeconds: minute.retryAfterSeconds };
  await limitAttempts(db, [
    [ipSendKey(ip), ATTEMPT_RULES.phoneCodeSendByIp],
    [numberKey(input.phoneNumber), ATTEMPT_RULES.phoneCodeSendByNumber],
  ]);
  const site = await countAttempt(db, SITE_KEY, { max: input.policy.dailyLimit, windowSeconds: 24 * 60 * 60 });
  if (!site.allowed) return { ok: false, reason: "site" };

  // Bound before it is sent, so the member can confirm it as soon as it arrives.
  await bindCode(db, input.userId, input.phoneNumber);
  await auth.api.sendPhoneNumberOTP({ body: { phoneNumber: input.phoneNumber }, headers });
  // A new code starts with all its tries (Better Auth stores it with none used).
  await clearAttempts(db, triesKey(input.userId, input.phoneNumber));
  return { ok: true, resendAfterSeconds: ATTEMPT_RULES.phoneCodeSend.windowSeconds };
}

/** Seconds before the member may ask for another code (0: now). */
export function secondsBeforeResend(db: Db, userId: string) {
  return secondsUntilAllowed(db, sendKey(userId), ATTEMPT_RULES.phoneCodeSend);
}

/**
 * The code step of the form for a number sent back by the page, checked again (null: back to
 * the first step). `since` tells one answer from the next.
 */
export async function pendingCode(db: Db, userId: string, phoneNumber: unknown) {
  if (typeof phoneNumber !== "string" || !isE164Phone(phoneNumber)) return null;
  const resendAfterSeconds = await secondsBeforeResend(db, userId);
  return { phoneNumber, shown: formatPhone(phoneNumber), resendAfterSeconds, since: Date.now() };
}

export type ConfirmPhoneCode =
  | { ok: true; headers: Headers }
  | { ok: false; reason: "wrong"; triesLeft: number }
  | { ok: false; reason: "locked" | "expired" | "taken" | "yours" };

/**
 * Checks the code; when right, `phoneNumber` becomes the verified number of the member signed in
 * with `headers`, who must be `userId` and must have asked for the code. A code someone else asked
 * for is answered as no code at all, and Better Auth never sees the attempt.
 */
export async function confirmPhoneCode(
  { auth, db, headers }: AuthCall,
  input: { userId: string; phoneNumber: string; code: string },
): Promise<ConfirmPhoneCode> {
  const holder = await holderOf(db, input.userId, input.phoneNumber);
  if (holder !== "nobody") return { ok: false, reason: holder };
  const session = await auth.api.getSession({ headers });
  if (session?.user.id !== input.userId) throw new Error("confirmPhoneCode: the session is not the member's");
  const triesCounter = triesKey(input.userId, input.phoneNumber);
  if (!(await isCodeFor(db, input.userId, input.phoneNumber))) {
    const past = await secondsUntilAllowed(db, triesCounter, CODE_TRIES);
    return { ok: false, reason: past > 0 ? "locked" : "expired" };
  }
  try {
    const result = await auth.api.verifyPhoneNumber({
      body: { phoneNumber: input.phoneNumber, code: input.code, updatePhoneNumber: true },
      headers,
      returnHeaders: true,
    });
    await clearAttempts(db, triesCounter);
    await db.delete(verifications).where(eq(verifications.identifier, requesterKey(input.phoneNumber)));
    return { ok: true, headers: forwardCookies(result.headers) };
  } catch (error) {
    const code = isAPIError(error) ? (error.body as { code?: string } | undefined)?.code : undefined;
    switch (code) {
      case "INVALID_OTP": {
        const tries = await countAttempt(db, triesCounter, CODE_TRIES);
        return tries.allowed && tries.remaining > 0
          ? { ok: false, reason: "wrong", triesLeft: tries.remaining }
          : { ok: false, reason: "locked" };
      }
      // Better Auth deletes a code once it is used up or expired: past its last try, say so again.
      case "OTP_NOT_FOUND": {
        const tries = await countAttempt(db, triesCounter, CODE_TRIES);
        return { ok: false, reason: tries.allowed ? "expired" : "locked" };
      }
      case "TOO_MANY_ATTEMPTS":
        return { ok: false, reason: "locked" };
      case "OTP_EXPIRED":
        return { ok: false, reason: "expired" };
      // Another member verified the number between the check above and this one.
      case "PHONE_NUMBER_EXIST":
        return { ok: false, reason: "taken" };
      default:
        throw error;
    }
  }
}
