import { requestContext, runtimeContext } from "~/server/context.server";
import { listOutboundMessages, requireMailboxAccess } from "~/server/mail/mailbox.server";
import type { Route } from "./+types/mailbox-json";

export async function loader({ context, request, url }: Route.LoaderArgs) {
  const runtime = context.get(runtimeContext);
  requireMailboxAccess({ ip: context.get(requestContext).ip, headers: request.headers }, runtime);
  const to = url.searchParams.get("to")?.trim().toLowerCase() || undefined;
  const messages = await listOutboundMessages(runtime.db, 100, to);
  return Response.json(messages, { headers: { "Cache-Control": "no-store" } });
}
