import { accountDeletedNotice } from "~/features/accounts/emails.server";
import { confirmIdentity } from "~/features/accounts/reauth.server";
import type { Outcome, SettingsCall } from "~/features/accounts/settings.server";
import { signOut } from "~/features/accounts/sign-in.server";
import type { SessionUser } from "~/server/context.server";
import { deleteMemberAccount } from "./privacy.server";

/**
 * Deletes the member's account once they have typed their email address and confirmed it is them
 * (password, or a sign-in within minutes), emails them a last notice at that address, and answers
 * the headers that sign this browser out.
 */
export async function deleteAccount(
  call: SettingsCall,
  user: Pick<SessionUser, "id" | "email" | "signedInAt">,
  input: { confirmation: string; currentPassword?: string },
): Promise<Outcome<{ headers: Headers }>> {
  if (input.confirmation !== user.email.toLowerCase()) {
    return { ok: false, field: "confirmation", message: `Type ${user.email} to confirm.` };
  }
  const identity = await confirmIdentity(call, user, input.currentPassword);
  if (!identity.ok) {
    return { ok: false, field: identity.reason === "no-password" ? "" : "currentPassword", message: identity.message };
  }
  const deleted = await deleteMemberAccount(call.db, user.id, { storage: call.storage });
  if (!deleted) return { ok: false, field: "", message: "Your account could not be found." };
  await call.outbox.sendEmail(accountDeletedNotice(call.brand, deleted.email, deleted.name));
  return { ok: true, headers: await signOut(call) };
}
