import type { RouterContextProvider } from "react-router";
import { recordAudit } from "~/features/audit/audit.server";
import { requestContext, runtimeContext, userContext } from "~/server/context.server";
import { requireMailboxAccess } from "~/server/mail/mailbox.server";

/**
 * Opens the mailbox for this request (or answers 404/403, see `requireMailboxAccess`) and records
 * the read in the audit log: it holds everyone's sign-in links and codes.
 */
export async function openMailbox(request: Request, context: Readonly<RouterContextProvider>, to?: string) {
  const runtime = context.get(runtimeContext);
  const { ip } = context.get(requestContext);
  requireMailboxAccess({ ip, headers: request.headers }, runtime);
  await recordAudit(runtime.db, {
    actorId: context.get(userContext)?.id ?? null,
    action: "mailbox.read",
    subjectType: "mailbox",
    subjectId: to ?? "all",
    ip,
  });
  return runtime;
}
