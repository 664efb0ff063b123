import { requestContext, runtimeContext, userContext } from "~/server/context.server";
import { listOutboundMessages, requireMailboxAccess } from "~/server/mail/mailbox.server";
import type { Route } from "./+types/mailbox-json";

export async function loader({ context, url }: Route.LoaderArgs) {
  requireMailboxAccess(context.get(requestContext), context.get(userContext));
  const to = url.searchParams.get("to")?.trim().toLowerCase() || undefined;
  const messages = await listOutboundMessages(context.get(runtimeContext).db, 100, to);
  return Response.json(messages, { headers: { "Cache-Control": "no-store" } });
}
