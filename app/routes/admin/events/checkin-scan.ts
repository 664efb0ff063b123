import { collectionsAtGate } from "~/features/fulfilment/fulfilment.server";
import { scanOnline } from "~/features/gate/offline-gate.server";
import { OnlineScanSchema } from "~/features/gate/schemas";
import { runtimeContext } from "~/server/context.server";
import { requireMethod } from "~/server/methods.server";
import { notFound } from "~/ui/not-found";
import { requireGateWorker } from "~/web/gate-worker.server";
import type { Route } from "./+types/checkin-scan";

// No page here: GET and HEAD answer 405 with `Allow: POST`, and so does any method but POST.
export { postOnly as loader } from "~/server/methods.server";

const noStore = { "Cache-Control": "private, no-store" };

/**
 * A scan from a device ready for offline, while it has a connection (docs/gate.md): decided by
 * the server under the scan's own id, with the merch the holder collects here. The device waits a
 * few seconds for this answer, then decides the scan itself and queues it under the same id.
 */
export async function action({ request, context, url, params }: Route.ActionArgs) {
  requireMethod(request, "POST");
  const { user, eventId, role } = await requireGateWorker({ context, url, params });
  const { db, env } = context.get(runtimeContext);
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return Response.json({ error: "Send the scan as JSON" }, { status: 400, headers: noStore });
  }
  const parsed = OnlineScanSchema.safeParse(body);
  if (!parsed.success) {
    return Response.json({ error: parsed.error.issues[0]!.message }, { status: 400, headers: noStore });
  }
  const scanned = await scanOnline(db, {
    eventId,
    staffId: user.id,
    ...parsed.data,
    secret: env.AUTH_SECRET,
    now: new Date(),
    shownTo: role,
  });
  if (!scanned) notFound();
  const { buyerId, ...result } = scanned.result;
  const merch = buyerId && result.tone !== "refused" ? await collectionsAtGate(db, { eventId, userId: buyerId }) : [];
  return Response.json({ result, merch }, { headers: noStore });
}
