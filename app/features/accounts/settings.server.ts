import { isAPIError } from "better-auth/api";
import { and, asc, eq } from "drizzle-orm";
import type { SessionUser } from "~/server/context.server";
import type { Db } from "~/server/db/client.server";
import type { Outbox } from "~/server/messages.server";
import type { Storage } from "~/server/storage/storage.server";
import { accounts, earlierEmails, users } from "../../../db/schema";
import { ATTEMPT_RULES, limitAttempts } from "./attempts.server";
import type { Branding } from "./emails.server";
import { getProfile } from "./profile.server";
import type { NotificationPreferences } from "./schemas";
import type { AuthCall } from "./sign-in.server";

/** What the settings rules need besides the member: their session's call, storage and the outbox. */
export type SettingsCall = AuthCall & { storage: Storage; brand: Branding; outbox: Pick<Outbox, "sendEmail"> };

/** A sign-in provider's name as members know it. */
export function providerName(providerId: string) {
  const names: Record<string, string> = {
    credential: "Password",
    google: "Google",
    facebook: "Facebook",
    apple: "Apple",
  };
  return names[providerId] ?? providerId.charAt(0).toUpperCase() + providerId.slice(1);
}

/** Everything the settings page shows, read fresh from the database. */
export async function getAccountSettings(db: Db, userId: string) {
  const profile = await getProfile(db, userId);
  const [account] = await db
    .select({
      email: users.email,
      emailVerified: users.emailVerified,
      phoneNumber: users.phoneNumber,
      phoneNumberVerified: users.phoneNumberVerified,
      notifyEvents: users.notifyEvents,
      notifyDraws: users.notifyDraws,
      notifyOrders: users.notifyOrders,
      marketingConsent: users.marketingConsent,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!profile || !account) return null;
  const methods = await signInMethods(db, userId);
  const { email, emailVerified, phoneNumber, phoneNumberVerified, ...notifications } = account;
  return {
    profile,
    email,
    emailVerified,
    phone: phoneNumber && phoneNumberVerified ? phoneNumber : null,
    notifications,
    signInMethods: methods.map((method) => ({
      ...method,
      // The password stays (it is changed, not removed), and the last way in is never removed.
      canUnlink: method.providerId !== "credential" && methods.length > 1,
    })),
    hasPassword: methods.some((method) => method.providerId === "credential"),
  };
}

export type AccountSettings = NonNullable<Awaited<ReturnType<typeof getAccountSettings>>>;

async function signInMethods(db: Db, userId: string) {
  const rows = await db
    .select({ id: accounts.id, providerId: accounts.providerId, connectedAt: accounts.createdAt })
    .from(accounts)
    .where(eq(accounts.userId, userId))
    .orderBy(asc(accounts.createdAt));
  return rows.map((row) => ({ ...row, name: providerName(row.providerId) }));
}

export async function updateNotifications(db: Db, userId: string, preferences: NotificationPreferences) {
  await db
    .update(users)
    .set({
      notifyEvents: preferences.notifyEvents,
      notifyDraws: preferences.notifyDraws,
      notifyOrders: preferences.notifyOrders,
      marketingConsent: preferences.marketingConsent,
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId));
}

export type Outcome<T = object> = ({ ok: true } & T) | { ok: false; field: string; message: string };

/**
 * Starts a change of email: the member proves it is them with their password, then the new
 * address gets a confirmation link. The email changes only when that link is opened, and the
 * old address is then told (see auth.server.ts). An address that already has an account gets
 * the same answer and no email, so the form cannot be used to find out who is a member.
 */
export async function requestEmailChange(
  { auth, db, headers }: SettingsCall,
  user: Pick<SessionUser, "id" | "email">,
  input: { newEmail: string; currentPassword: string },
): Promise<Outcome<{ sentTo: string }>> {
  if (input.newEmail === user.email.toLowerCase()) {
    return { ok: false, field: "newEmail", message: "This is already your email address." };
  }
  await limitAttempts(db, [[`email-change:${user.id}`, ATTEMPT_RULES.passwordChange]]);
  const [credential] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, user.id), eq(accounts.providerId, "credential")));
  if (!credential) {
    return {
      ok: false,
      field: "currentPassword",
      message: "Your account has no password yet: set one with a reset link first, then change your email.",
    };
  }
  try {
    await auth.api.verifyPassword({ body: { password: input.currentPassword }, headers });
  } catch (error) {
    if (isAPIError(error) && error.statusCode === 400) {
      return { ok: false, field: "currentPassword", message: "The password is not right." };
    }
    throw error;
  }
  // Messages already sent to the address the member is leaving are theirs too: deleting the
  // account erases them, so the address is kept with the account.
  await db.insert(earlierEmails).values({ userId: user.id, email: user.email.toLowerCase() }).onConflictDoNothing();
  await auth.api.changeEmail({ body: { newEmail: input.newEmail, callbackURL: "/settings?email=changed" }, headers });
  return { ok: true, sentTo: input.newEmail };
}

/** Disconnects a social sign-in. The password and the last remaining way in always stay. */
export async function unlinkSignInMethod(
  { auth, db, headers }: SettingsCall,
  userId: string,
  accountId: string,
): Promise<Outcome<{ name: string }>> {
  const methods = await signInMethods(db, userId);
  const method = methods.find((candidate) => candidate.id === accountId);
  if (!method) return { ok: false, field: "", message: "This sign-in method is not connected to your account." };
  if (method.providerId === "credential") {
    return { ok: false, field: "", message: "Your password cannot be removed. You can change it instead." };
  }
  if (methods.length <= 1) {
    return { ok: false, field: "", message: `${method.name} is your only way to sign in, so it cannot be removed.` };
  }
  try {
    await auth.api.unlinkAccount({ body: { accountId: method.id }, headers });
  } catch (error) {
    const code = isAPIError(error) ? (error.body as { code?: string } | undefined)?.code : undefined;
    if (code === "SESSION_NOT_FRESH") {
      return {
        ok: false,
        field: "",
        message: `For your security, sign out and in again, then remove ${method.name} within 10 minutes.`,
      };
    }
    if (code === "FAILED_TO_UNLINK_LAST_ACCOUNT") {
      return { ok: false, field: "", message: `${method.name} is your only way to sign in, so it cannot be removed.` };
    }
    throw error;
  }
  return { ok: true, name: method.name };
}
