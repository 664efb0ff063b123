import { dictionary } from "@zxcvbn-ts/language-common";
import { and, eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { accounts } from "../../../db/schema";
import { PASSWORD_MAX, PASSWORD_MIN } from "./schemas";

// The common-password list of zxcvbn-ts (about 49 000 leaked passwords), kept on the server so
// browsers never download it.
let common: Set<string> | undefined;

export function isCommonPassword(password: string) {
  common ??= new Set((dictionary["passwords-common"] as string[]).map((entry) => entry.toLowerCase()));
  return common.has(password.toLowerCase());
}

const COMMON_PASSWORD_MESSAGE =
  "This password is on a list of passwords that attackers try first. Choose a less common one.";

/**
 * Why a password cannot be used (10–128 characters, not a common one),
 * or null. Every way of setting a password (sign-up, reset, change, the admin command) asks this.
 */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `Use at most ${PASSWORD_MAX} characters`;
  if (isCommonPassword(password)) return COMMON_PASSWORD_MESSAGE;
  return null;
}

/** Whether the member has a password (a `credential` sign-in method). */
export async function hasPassword(db: Db, userId: string) {
  const [credential] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")));
  return Boolean(credential);
}
