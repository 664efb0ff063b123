import { isAPIError } from "better-auth/api";
import { sql } from "drizzle-orm";
import { type Auth, signUpCookie } from "~/server/auth/auth.server";
import type { Db } from "~/server/db/client.server";
import { users } from "../../../db/schema";
import { ATTEMPT_RULES, type AttemptRule, clearAttempts, limitAttempts, TooManyAttempts } from "./attempts.server";
import { ipKey } from "./ip-key";
import { isKnownDevice, knownDeviceCookie } from "./known-device.server";
import { passwordProblem } from "./passwords.server";
import { recordSecurityEvent } from "./security-events.server";

export type AuthCall = { auth: Auth; db: Db; headers: Headers; ip: string };

/** The Set-Cookie headers of a Better Auth answer, ready to pass on with a redirect. */
export function forwardCookies(from: Headers) {
  const headers = new Headers();
  for (const cookie of from.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
}

/**
 * `needsCode`: the password was right and the account has two-factor sign-in on, so the headers
 * carry a short-lived challenge cookie for the code page instead of a session.
 */
export type PasswordSignIn =
  | { ok: true; headers: Headers; needsCode: boolean }
  | { ok: false; reason: "invalid" | "unverified" | "banned" };

/**
 * One generic answer for a wrong email or password, so the form never says which was wrong.
 *
 * Failures are limited per address and network together (5 in 15 minutes), so a stranger who
 * types someone's address cannot lock its owner out from elsewhere; per address from every
 * network (50 an hour), which still slows a guesser spread over many networks; and per network
 * (100 in 15 minutes, loose enough for a venue's Wi-Fi). A browser that has signed in to the
 * account before (a known device) skips the two address limits. Failures and lockouts of an
 * existing account go to the audit log with the address they came from.
 */
export async function signInWithPassword(
  { auth, db, headers, ip }: AuthCall,
  input: { email: string; password: string },
): Promise<PasswordSignIn> {
  const network = ipKey(ip);
  const pairKey = `sign-in:pair:${input.email}:${network}`;
  const [account] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${input.email}`);
  const knownDevice = account ? await isKnownDevice(auth, headers, account.id) : false;
  const limits: [string, AttemptRule][] = [[`sign-in:ip:${network}`, ATTEMPT_RULES.signInByIp]];
  if (!knownDevice) {
    limits.push(
      [pairKey, ATTEMPT_RULES.signInByAddressAndIp],
      [`sign-in:email:${input.email}`, ATTEMPT_RULES.signInByEmail],
    );
  }
  try {
    await limitAttempts(db, limits);
  } catch (error) {
    if (error instanceof TooManyAttempts && account) {
      await recordSecurityEvent(db, { userId: account.id, action: "sign-in.locked", ip });
    }
    throw error;
  }
  try {
    const result = await auth.api.signInEmail({
      body: { email: input.email, password: input.password, rememberMe: true },
      headers,
      returnHeaders: true,
    });
    await clearAttempts(db, pairKey);
    const needsCode = "twoFactorRedirect" in result.response && Boolean(result.response.twoFactorRedirect);
    const answer = forwardCookies(result.headers);
    if (!needsCode && "user" in result.response) {
      answer.append("Set-Cookie", await knownDeviceCookie(auth, result.response.user.id));
    }
    return { ok: true, headers: answer, needsCode };
  } catch (error) {
    if (isAPIError(error)) {
      const code = (error.body as { code?: string } | undefined)?.code;
      if (code === "EMAIL_NOT_VERIFIED") return { ok: false, reason: "unverified" };
      if (code === "BANNED_USER") return { ok: false, reason: "banned" };
      if (error.statusCode === 401 || error.statusCode === 400) {
        if (account) await recordSecurityEvent(db, { userId: account.id, action: "sign-in.failed", ip });
        return { ok: false, reason: "invalid" };
      }
    }
    throw error;
  }
}

/**
 * Sends a sign-in link. The answer never says whether the address has an account: a new
 * address gets an account when the link is opened, and finishes it on /newProfile.
 */
export async function sendMagicLink({ auth, db, headers, ip }: AuthCall, input: { email: string; redirectTo: string }) {
  await limitAttempts(db, [
    [`email-link:ip:${ip}`, ATTEMPT_RULES.emailLinkByIp],
    [`email-link:email:${input.email}`, ATTEMPT_RULES.emailLinkByEmail],
  ]);
  await auth.api.signInMagicLink({
    body: {
      email: input.email,
      callbackURL: input.redirectTo,
      newUserCallbackURL: "/newProfile",
      errorCallbackURL: "/login?link=expired",
    },
    headers,
  });
}

export async function sendPasswordReset({ auth, db, headers, ip }: AuthCall, input: { email: string }) {
  await limitAttempts(db, [
    [`email-link:ip:${ip}`, ATTEMPT_RULES.emailLinkByIp],
    [`email-link:email:${input.email}`, ATTEMPT_RULES.emailLinkByEmail],
  ]);
  // Better Auth answers the same whether or not the account exists.
  await auth.api.requestPasswordReset({ body: { email: input.email, redirectTo: "/changePassword" }, headers });
}

export async function signOut({ auth, headers }: Pick<AuthCall, "auth" | "headers">) {
  const result = await auth.api.signOut({ headers, returnHeaders: true });
  return forwardCookies(result.headers);
}

export type SignUp = { ok: true; headers: Headers } | { ok: false; field: "password"; message: string };

/**
 * Creates an account and sends its confirmation link. An address that already has an account
 * gets a notice instead, and the visitor sees the same answer either way.
 */
export async function signUpWithPassword(
  { auth, db, headers, ip }: AuthCall,
  input: { name: string; email: string; password: string; redirectTo: string },
): Promise<SignUp> {
  const problem = passwordProblem(input.password);
  if (problem) return { ok: false, field: "password", message: problem };
  await limitAttempts(db, [[`sign-up:ip:${ip}`, ATTEMPT_RULES.signUpByIp]]);
  const callbackURL = input.redirectTo
    ? `/newProfile?redirectTo=${encodeURIComponent(input.redirectTo)}`
    : "/newProfile";
  await auth.api.signUpEmail({
    body: {
      name: input.name,
      email: input.email,
      password: input.password,
      termsAcceptedAt: new Date(),
      callbackURL,
    },
    headers,
  });
  const { secret, baseURL } = await auth.$context;
  const answer = new Headers();
  answer.append("Set-Cookie", signUpCookie(secret, input.email, baseURL.startsWith("https://")));
  return { ok: true, headers: answer };
}

export type PasswordChange = { ok: true; headers?: Headers } | { ok: false; field: string; message: string };

/** Sets a new password from a reset link; every session of the account is signed out. */
export async function resetPassword({ auth }: Pick<AuthCall, "auth">, input: { token: string; password: string }) {
  const problem = passwordProblem(input.password);
  if (problem) return { ok: false, field: "password", message: problem } as const;
  try {
    await auth.api.resetPassword({ body: { newPassword: input.password, token: input.token } });
    return { ok: true } as const;
  } catch (error) {
    if (isAPIError(error) && error.statusCode === 400) {
      return {
        ok: false,
        field: "",
        message: "This reset link has expired or was already used. Ask for a new one.",
      } as const;
    }
    throw error;
  }
}

/** Changes the password of the signed-in member and signs out their other sessions. */
export async function changePassword(
  { auth, db, headers }: AuthCall,
  input: { userId: string; currentPassword: string; password: string },
): Promise<PasswordChange> {
  const problem = passwordProblem(input.password);
  if (problem) return { ok: false, field: "password", message: problem };
  await limitAttempts(db, [[`password-change:${input.userId}`, ATTEMPT_RULES.passwordChange]]);
  try {
    const result = await auth.api.changePassword({
      body: { currentPassword: input.currentPassword, newPassword: input.password, revokeOtherSessions: true },
      headers,
      returnHeaders: true,
    });
    return { ok: true, headers: forwardCookies(result.headers) };
  } catch (error) {
    if (isAPIError(error) && (error.statusCode === 400 || error.statusCode === 401)) {
      const code = (error.body as { code?: string } | undefined)?.code;
      if (code === "CREDENTIAL_ACCOUNT_NOT_FOUND") {
        return {
          ok: false,
          field: "currentPassword",
          message: "Your account has no password yet: use a reset link to set one.",
        };
      }
      return { ok: false, field: "currentPassword", message: "The current password is not right." };
    }
    throw error;
  }
}
