import { admissionList } from "~/features/gate/offline-gate.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import { requireGateWorker } from "~/web/gate-worker.server";
import type { Route } from "./+types/checkin-admissions";

/**
 * The event's admission list for a device going offline (docs/gate.md): hashes, initials and
 * states, never names or codes. Kept by no cache: it is the gate's, and out of date in minutes.
 */
export async function loader({ context, url, params }: Route.LoaderArgs) {
  const { eventId } = await requireGateWorker({ context, url, params });
  const { db, env } = context.get(runtimeContext);
  const list = await admissionList(db, { eventId, secret: env.AUTH_SECRET, now: new Date() });
  if (!list) notFound();
  return Response.json(list, { headers: { "Cache-Control": "private, no-store" } });
}
