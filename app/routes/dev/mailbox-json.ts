import { requestContext, runtimeContext, userContext } from "~/server/context.server";
import { listOutboundMessages, requireMailboxAccess } from "~/server/mail/mailbox.server";
import type { Route } from "./+types/mailbox-json";

export async function loader({ context }: Route.LoaderArgs) {
  requireMailboxAccess(context.get(requestContext), context.get(userContext));
  const messages = await listOutboundMessages(context.get(runtimeContext).db);
  return Response.json(messages, { headers: { "Cache-Control": "no-store" } });
}
