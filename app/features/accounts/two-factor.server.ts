import { isAPIError } from "better-auth/api";
import { ATTEMPT_RULES, limitAttempts } from "./attempts.server";
import { knownDeviceCookie } from "./known-device.server";
import { hasPassword } from "./passwords.server";
import { type AuthCall, forwardCookies } from "./sign-in.server";

// Two-factor sign-in with an authenticator app (TOTP, RFC 6238) and one-time recovery codes,
// through Better Auth's two-factor plugin. Setting it up, new recovery codes and turning it off
// all need the member's password.

/** Six digits from an app, or a recovery code as shown (`abcde-12345`; the dash is optional). */
export function readCode(typed: string): { kind: "app"; code: string } | { kind: "recovery"; code: string } | null {
  const compact = typed.replace(/[\s-]/g, "");
  if (/^\d{6}$/.test(compact)) return { kind: "app", code: compact };
  if (/^[A-Za-z0-9]{10}$/.test(compact))
    return { kind: "recovery", code: `${compact.slice(0, 5)}-${compact.slice(5)}` };
  return null;
}

function errorCode(error: unknown) {
  return isAPIError(error) ? (error.body as { code?: string } | undefined)?.code : undefined;
}

export type SecondFactorOutcome =
  | { ok: true; headers: Headers }
  | { ok: false; reason: "invalid" | "expired" | "locked" };

/**
 * The second step of a password sign-in: checks the code against the challenge cookie the first
 * step set, and answers the session cookie (and, if asked, a cookie that lets this device skip the
 * code for 30 days). Wrong codes are limited per address here, per challenge and per account by
 * the plugin (ten in a row lock the account for 15 minutes).
 */
export async function verifySignInCode(
  { auth, db, headers, ip }: AuthCall,
  input: { code: string; trustDevice: boolean },
): Promise<SecondFactorOutcome> {
  await limitAttempts(db, [[`two-factor:ip:${ip}`, ATTEMPT_RULES.secondFactorByIp]]);
  const code = readCode(input.code);
  if (!code) return { ok: false, reason: "invalid" };
  try {
    const body = { code: code.code, trustDevice: input.trustDevice };
    const result =
      code.kind === "app"
        ? await auth.api.verifyTOTP({ body, headers, returnHeaders: true })
        : await auth.api.verifyBackupCode({ body, headers, returnHeaders: true });
    const answer = forwardCookies(result.headers);
    answer.append("Set-Cookie", await knownDeviceCookie(auth, result.response.user.id));
    return { ok: true, headers: answer };
  } catch (error) {
    const reason = errorCode(error);
    if (reason === "INVALID_TWO_FACTOR_COOKIE" || reason === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE") {
      return { ok: false, reason: "expired" };
    }
    if (reason === "ACCOUNT_TEMPORARILY_LOCKED") return { ok: false, reason: "locked" };
    if (isAPIError(error) && (error.statusCode === 401 || error.statusCode === 400)) {
      return { ok: false, reason: "invalid" };
    }
    throw error;
  }
}

type Refusal = { ok: false; field: string; message: string };

const WRONG_PASSWORD: Refusal = { ok: false, field: "password", message: "The password is not right." };

/** The secret an app needs, from the `otpauth://` address the plugin made. */
export function secretOf(totpURI: string) {
  return new URL(totpURI).searchParams.get("secret") ?? "";
}

export type Setup = { ok: true; totpURI: string; secret: string; recoveryCodes: string[] } | Refusal;

/**
 * First step of setting up: checks the password and makes a new secret and recovery codes. Sign-in
 * does not ask for codes until the member has typed one from the app (`confirmSetup`).
 */
export async function startSetup({ auth, db, headers }: AuthCall, userId: string, password: string): Promise<Setup> {
  await limitAttempts(db, [[`two-factor-setup:${userId}`, ATTEMPT_RULES.passwordChange]]);
  if (!(await hasPassword(db, userId))) {
    return {
      ok: false,
      field: "password",
      message: "Two-factor sign-in is a second step after your password: set a password first.",
    };
  }
  try {
    const result = await auth.api.enableTwoFactor({ body: { password }, headers });
    const totpURI = "totpURI" in result ? result.totpURI : undefined;
    const recoveryCodes = "backupCodes" in result ? result.backupCodes : undefined;
    if (!totpURI || !recoveryCodes) throw new Error("two-factor set-up answered no secret");
    return { ok: true, totpURI, secret: secretOf(totpURI), recoveryCodes };
  } catch (error) {
    const code = errorCode(error);
    if (code === "INVALID_PASSWORD") return WRONG_PASSWORD;
    if (code === "TOTP_ALREADY_ENABLED") {
      return { ok: false, field: "", message: "Two-factor sign-in is already on." };
    }
    throw error;
  }
}

/** Second step: the first code from the app turns two-factor sign-in on (the session is renewed). */
export async function confirmSetup(
  { auth, db, headers }: AuthCall,
  userId: string,
  typed: string,
): Promise<{ ok: true; headers: Headers } | Refusal> {
  await limitAttempts(db, [[`two-factor-confirm:${userId}`, ATTEMPT_RULES.secondFactorByIp]]);
  const code = readCode(typed);
  if (code?.kind !== "app") {
    return { ok: false, field: "code", message: "Type the 6-digit code your app shows now." };
  }
  try {
    const result = await auth.api.verifyTOTP({ body: { code: code.code }, headers, returnHeaders: true });
    return { ok: true, headers: forwardCookies(result.headers) };
  } catch (error) {
    if (isAPIError(error) && (error.statusCode === 401 || error.statusCode === 400)) {
      return {
        ok: false,
        field: "code",
        message: "That code is not right. Check the time on your phone is set automatically, and try the newest code.",
      };
    }
    throw error;
  }
}

/** Replaces the recovery codes: the old ones stop working. */
export async function newRecoveryCodes(
  { auth, db, headers }: AuthCall,
  userId: string,
  password: string,
): Promise<{ ok: true; recoveryCodes: string[] } | Refusal> {
  await limitAttempts(db, [[`two-factor-setup:${userId}`, ATTEMPT_RULES.passwordChange]]);
  try {
    const result = await auth.api.generateBackupCodes({ body: { password }, headers });
    return { ok: true, recoveryCodes: result.backupCodes };
  } catch (error) {
    if (errorCode(error) === "INVALID_PASSWORD" || (isAPIError(error) && error.statusCode === 400)) {
      return WRONG_PASSWORD;
    }
    throw error;
  }
}

/**
 * Turns two-factor sign-in off. Where the site requires it of staff, organizers and admins
 * keep it.
 */
export async function turnOff(
  { auth, db, headers }: AuthCall,
  user: { id: string; role: string },
  input: { password: string; staffMustKeep: boolean },
): Promise<{ ok: true; headers: Headers } | Refusal> {
  if (input.staffMustKeep && user.role !== "member") {
    return {
      ok: false,
      field: "",
      message: "Organisers and admins need two-factor sign-in here, so it stays on.",
    };
  }
  await limitAttempts(db, [[`two-factor-setup:${user.id}`, ATTEMPT_RULES.passwordChange]]);
  try {
    const result = await auth.api.disableTwoFactor({
      body: { password: input.password },
      headers,
      returnHeaders: true,
    });
    return { ok: true, headers: forwardCookies(result.headers) };
  } catch (error) {
    if (errorCode(error) === "INVALID_PASSWORD" || (isAPIError(error) && error.statusCode === 400)) {
      return WRONG_PASSWORD;
    }
    throw error;
  }
}
