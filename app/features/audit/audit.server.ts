import type { Db } from "~/server/db/client.server";
import { auditLog } from "../../../db/schema";

export type AuditEntry = {
  /** The staff member who acted; null when the change came from the command line. */
  actorId: string | null;
  action: string;
  subjectType: string;
  subjectId: string;
  details?: Record<string, unknown>;
  /** The address the request came from, for security events. */
  ip?: string | null;
};

/** Records a staff action. Call it inside the transaction that makes the change, so neither lands alone. */
export async function recordAudit(db: Db, entry: AuditEntry) {
  await db.insert(auditLog).values({ ...entry, ip: entry.ip ?? null, details: entry.details ?? {} });
}
