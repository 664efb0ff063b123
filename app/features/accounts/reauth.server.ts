import { isAPIError } from "better-auth/api";
import { ATTEMPT_RULES, limitAttempts } from "./attempts.server";
import { hasPassword } from "./passwords.server";
import type { AuthCall } from "./sign-in.server";

/** A sign-in this recent stands in for the password before a sensitive change. */
const RECENT_SIGN_IN_SECONDS = 5 * 60;

export function signedInRecently(user: { signedInAt: Date }, now = new Date()) {
  return now.getTime() - user.signedInAt.getTime() < RECENT_SIGN_IN_SECONDS * 1000;
}

export type IdentityCheck =
  | { ok: true }
  | { ok: false; reason: "needs-password" | "wrong-password" | "no-password"; message: string };

const MESSAGES = {
  "needs-password": "Enter your password to confirm it's you.",
  "wrong-password": "The password is not right.",
  "no-password": "Your account has no password: sign out and in again, then do this within 5 minutes.",
} as const;

/**
 * Before deleting an account or changing a role (OWASP ASVS 7.5.1): the member's password, or a
 * sign-in within the last five minutes. Wrong passwords count towards the member's limit.
 */
export async function confirmIdentity(
  { auth, db, headers }: Pick<AuthCall, "auth" | "db" | "headers">,
  user: { id: string; signedInAt: Date },
  password: string | undefined,
): Promise<IdentityCheck> {
  if (signedInRecently(user)) return { ok: true };
  const refuse = (reason: keyof typeof MESSAGES) => ({ ok: false, reason, message: MESSAGES[reason] }) as const;
  if (!(await hasPassword(db, user.id))) return refuse("no-password");
  if (!password) return refuse("needs-password");
  await limitAttempts(db, [[`reauth:${user.id}`, ATTEMPT_RULES.passwordChange]]);
  try {
    await auth.api.verifyPassword({ body: { password }, headers });
    return { ok: true };
  } catch (error) {
    if (isAPIError(error) && (error.statusCode === 400 || error.statusCode === 401)) return refuse("wrong-password");
    throw error;
  }
}
