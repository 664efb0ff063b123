import { syncOfflineScans } from "~/features/gate/offline-gate.server";
import { syncSchema } from "~/features/gate/schemas";
import { runtimeContext } from "~/server/context.server";
import { requireMethod } from "~/server/methods.server";
import { notFound } from "~/ui/not-found";
import { requireGateWorker } from "~/web/gate-worker.server";
import type { Route } from "./+types/checkin-sync";

// No page here: GET and HEAD answer 405 with `Allow: POST`, and so does any method but POST.
export { postOnly as loader } from "~/server/methods.server";

const noStore = { "Cache-Control": "private, no-store" };

/**
 * A device back online sends the scans it made offline (docs/gate.md). Each is replayed once, at
 * the time it was made, whatever number of times the device sends it; the answer says what the
 * server made of each, with any conflict.
 */
export async function action({ request, context, url, params }: Route.ActionArgs) {
  requireMethod(request, "POST");
  const { user, eventId, role } = await requireGateWorker({ context, url, params });
  const { db, env } = context.get(runtimeContext);
  const now = new Date();
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return Response.json({ error: "Send the scans as JSON" }, { status: 400, headers: noStore });
  }
  const parsed = syncSchema(now).safeParse(body);
  if (!parsed.success) {
    return Response.json({ error: parsed.error.issues[0]!.message }, { status: 400, headers: noStore });
  }
  const synced = await syncOfflineScans(db, {
    eventId,
    staffId: user.id,
    gate: parsed.data.gate,
    scans: parsed.data.scans,
    secret: env.AUTH_SECRET,
    now,
  });
  if (!synced) notFound();
  // A steward's device needs only what became of each scan; the headlines carry holders' names.
  const shown = role === "supervisor" ? synced : synced.map(({ headline: _, ...scan }) => scan);
  return Response.json({ synced: shown }, { headers: noStore });
}
