import { data, type RouterContextProvider } from "react-router";
import { EventIdSchema } from "~/features/events/organizer/schemas";
import { judgesAt } from "~/features/judging/marking.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";

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
