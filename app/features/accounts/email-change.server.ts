import { type Branding, emailChangedNotice } from "./emails.server";

export type EmailChange = { from: string; to: string };

/**
 * The change of address a Better Auth email token carries, if any. Better Auth signs these
 * tokens (a JWT with `email`, `updateTo` and `requestType`) and has checked the signature before
 * any hook below runs, so only the payload is read here.
 */
export function emailChangeIn(token: unknown): EmailChange | null {
  if (typeof token !== "string") return null;
  const payload = token.split(".")[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
    if (typeof claims.email !== "string" || typeof claims.updateTo !== "string") return null;
    return { from: claims.email, to: claims.updateTo.toLowerCase() };
  } catch {
    return null;
  }
}

type UpdatedUser = { email: string; name: string };
/** What Better Auth tells its update hook about the request that made the change. */
export type HookContext = { path?: string; query?: Record<string, unknown> } | null;

/**
 * The notice for the old address once a change of email has been applied: the member's row was
 * just updated by the confirmation link (/verify-email) and now holds the address the link named.
 */
export function emailChangedNoticeAfterUpdate(brand: Branding, user: UpdatedUser, context: HookContext) {
  if (context?.path !== "/verify-email") return null;
  const change = emailChangeIn(context.query?.token);
  if (!change || user.email.toLowerCase() !== change.to || change.from === change.to) return null;
  return emailChangedNotice(brand, change.from, user.name, change.to);
}
