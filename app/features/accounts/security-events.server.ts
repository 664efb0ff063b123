import { recordAudit } from "~/features/audit/audit.server";
import type { Db } from "~/server/db/client.server";

/**
 * Records something that matters to an account's security (a failed sign-in, a lockout, a
 * change of two-factor sign-in…) in the audit log, with the address the request came from.
 */
export async function recordSecurityEvent(
  db: Db,
  event: { userId: string; action: string; ip: string | null; details?: Record<string, unknown> },
) {
  await recordAudit(db, {
    actorId: event.userId,
    action: event.action,
    subjectType: "account",
    subjectId: event.userId,
    ip: event.ip,
    details: event.details,
  });
}
