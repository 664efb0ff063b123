import { data } from "react-router";
import { queueSettingsPage, readQueueSettings, saveQueueSettings } from "~/features/waiting-room/queue-settings.server";
import { QueueSettingsPanel } from "~/features/waiting-room/queue-settings-form";
import { requireRole } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import type { Route } from "./+types/queue";
import { eventIdFrom } from "./event-id.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const page = await queueSettingsPage(context.get(runtimeContext).db, eventId);
  if (!page) notFound();
  return page;
}

/** Saves the event's queue settings (organizers and admins), with the change audited. */
export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const read = readQueueSettings(await request.formData());
  if (!read.ok) return data({ errors: read.errors }, { status: 400 });
  const saved = await saveQueueSettings(context.get(runtimeContext).db, {
    eventId,
    actorId: user.id,
    ip: context.get(requestContext).ip,
    settings: read.settings,
    now: new Date(),
  });
  if (!saved) notFound();
  return redirectWithFlash(`/admin/events/${eventId}/queue`, { kind: "success", message: "Queue settings saved." });
}

export default function EventQueue({ loaderData, actionData }: Route.ComponentProps) {
  return <QueueSettingsPanel {...loaderData} errors={actionData?.errors} />;
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Queue") }];
