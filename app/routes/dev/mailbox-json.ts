import { listOutboundMessages } from "~/server/mail/mailbox.server";
import type { Route } from "./+types/mailbox-json";
import { openMailbox } from "./mailbox-access.server";

export async function loader({ context, request, url }: Route.LoaderArgs) {
  const to = url.searchParams.get("to")?.trim().toLowerCase() || undefined;
  const runtime = await openMailbox(request, context, to);
  const messages = await listOutboundMessages(runtime.db, 100, to);
  return Response.json(messages, { headers: { "Cache-Control": "no-store" } });
}
