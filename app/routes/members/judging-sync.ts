import { syncMarks } from "~/features/judging/marking.server";
import { marksSyncSchema } from "~/features/judging/marking-schemas";
import { runtimeContext } from "~/server/context.server";
import { requireMethod } from "~/server/methods.server";
import { requireJudge } from "~/web/judge.server";
import type { Route } from "./+types/judging-sync";

// No page here: GET and HEAD answer 405 with `Allow: POST`, and so does any method but POST.
export { postOnly as loader } from "~/server/methods.server";

const noStore = { "Cache-Control": "private, no-store" };

/**
 * A judge's phone back online sends the marks it kept (docs/car-shows.md); online it sends each
 * save here too. Each save is kept at the time it was made, whatever number of times it is sent;
 * the answer says what became of each: saved, stale (a newer mark was there) or refused, and why.
 */
export async function action({ request, context, url, params }: Route.ActionArgs) {
  requireMethod(request, "POST");
  const { user, eventId } = await requireJudge({ context, url, params });
  const { db } = context.get(runtimeContext);
  const now = new Date();
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return Response.json({ error: "Send the marks as JSON" }, { status: 400, headers: noStore });
  }
  const parsed = marksSyncSchema(now).safeParse(body);
  if (!parsed.success) {
    return Response.json({ error: parsed.error.issues[0]!.message }, { status: 400, headers: noStore });
  }
  const synced = await syncMarks(db, { eventId, judgeId: user.id, items: parsed.data.items, now });
  return Response.json({ synced }, { headers: noStore });
}
