import { data, type RouterContextProvider } from "react-router";
import { EventIdSchema } from "~/features/events/organizer/schemas";
import { gateRoleOf } from "~/features/gate/gate-staff.server";
import { hasRole, requireRole, requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { SAVED_COPY_HEADER } from "~/sw/gate-page";
import { notFound } from "~/ui/not-found";

/**
 * Who may work an event's gate (docs/gate.md): organizers and admins, with two-factor sign-in
 * where the site asks staff for it, as supervisors; a member put on this event's gate, in the role
 * given. Signed-out visitors go to sign in; anyone else gets a 403; a malformed event id is a 404.
 */
export async function requireGateWorker(args: {
  context: Readonly<RouterContextProvider>;
  url: URL;
  params: { eventId?: string };
}) {
  const user = hasRole(requireUser(args), "organizer") ? requireRole(args, "organizer") : requireUser(args);
  const parsed = EventIdSchema.safeParse(args.params.eventId);
  if (!parsed.success) notFound();
  const eventId = parsed.data.toLowerCase();
  const role = await gateRoleOf(args.context.get(runtimeContext).db, user, eventId);
  if (!role) throw data("You do not have access to this page", { status: 403 });
  return { user, eventId, role };
}

/**
 * Whether the request is the service worker asking for the gate page's copy to keep on the device
 * (`app/sw/gate-page.ts`): the page answers with the scanner alone, with nobody's name.
 */
export function wantsSavedCopy(request: Request) {
  return request.headers.get(SAVED_COPY_HEADER) === "1";
}
