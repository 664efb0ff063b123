import { admissionList } from "~/features/gate/offline-gate.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/checkin-admissions";
import { eventIdFrom } from "./event-id.server";

/**
 * The event's admission list for a device going offline (docs/gate.md): hashes, initials and
 * states, never names or codes. Kept by no cache: it is the gate's, and out of date in minutes.
 */
export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db, env } = context.get(runtimeContext);
  const list = await admissionList(db, { eventId, secret: env.AUTH_SECRET, now: new Date() });
  if (!list) notFound();
  return Response.json(list, { headers: { "Cache-Control": "private, no-store" } });
}
