import { data, type RouterContextProvider } from "react-router";
import { EventIdSchema } from "~/features/events/organizer/schemas";
import { judgesAt, syncMarks } from "~/features/judging/marking.server";
import { marksSyncSchema } from "~/features/judging/marking-schemas";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { requireMethod } from "~/server/methods.server";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/judging-sync";

// No page here: GET and HEAD answer 405 with `Allow: POST`, and so does any method but POST.
export { postOnly as loader } from "~/server/methods.server";

const noStore = { "Cache-Control": "private, no-store" };

/**
 * Who may mark cars at an event (docs/car-shows.md): a member who judges one of its classes,
 * whatever their role; staff who judge nothing supervise from the organizer's Show tab instead.
 * Signed-out visitors go to sign in; anyone else gets a 403; a malformed event id is a 404.
 */
export async function requireJudge(args: {
  context: Readonly<RouterContextProvider>;
  url: URL;
  params: { eventId?: string };
}) {
  const user = requireUser(args);
  const parsed = EventIdSchema.safeParse(args.params.eventId);
  if (!parsed.success) notFound();
  const eventId = parsed.data.toLowerCase();
  const { db } = args.context.get(runtimeContext);
  if (!(await judgesAt(db, { eventId, userId: user.id }))) {
    throw data("You do not have access to this page", { status: 403 });
  }
  return { user, eventId };
}

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
