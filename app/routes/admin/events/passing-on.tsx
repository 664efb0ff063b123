import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { OrganizerPassingOn } from "~/features/transfers/organizer-passing-on";
import { passingOnSettingsSchema } from "~/features/transfers/schemas";
import { passingOnPage, savePassingOnSettings } from "~/features/transfers/transfers.server";
import { requireRole } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import type { Route } from "./+types/passing-on";
import { eventIdFrom } from "./event-id.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const page = await passingOnPage(context.get(runtimeContext).db, eventId);
  if (!page) notFound();
  return page;
}

/** The event's transfer and resale settings (organizers and admins), audited. */
export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db, env } = context.get(runtimeContext);
  const submission = parseWithZod(await request.formData(), { schema: passingOnSettingsSchema(env.CURRENCY) });
  if (submission.status !== "success") return data({ errors: submission.error ?? {} }, { status: 400 });
  const { intent: _, ...settings } = submission.value;
  const actor = { actorId: user.id, ip: context.get(requestContext).ip, now: new Date() };
  if (!(await savePassingOnSettings(db, eventId, settings, actor))) notFound();
  return redirectWithFlash(`/admin/events/${eventId}/passing-on`, {
    kind: "success",
    message: "Transfer and resale settings saved.",
  });
}

export default function EventPassingOn({ loaderData, actionData }: Route.ComponentProps) {
  return <OrganizerPassingOn page={loaderData} errors={actionData?.errors} />;
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Transfers and resale") }];
