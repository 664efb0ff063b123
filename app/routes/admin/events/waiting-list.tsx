import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { WaitingListPanel } from "~/features/waiting-lists/organizer-list";
import { ListSettingsSchema, MoveSchema } from "~/features/waiting-lists/schemas";
import { ordinal } from "~/features/waiting-lists/waiting-list-rules";
import { moveInLine, saveWaitingListSettings, waitingListPage } from "~/features/waiting-lists/waiting-lists.server";
import { requireRole } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import { intentOf } from "~/web/form-data.server";
import type { Route } from "./+types/waiting-list";
import { eventIdFrom } from "./event-id.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const page = await waitingListPage(context.get(runtimeContext).db, eventId, new Date());
  if (!page) notFound();
  return page;
}

type Errors = Record<string, string[] | null | undefined>;

/** The list's settings, and moving someone up the line (organizers and admins), both audited. */
export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db } = context.get(runtimeContext);
  const actor = { actorId: user.id, ip: context.get(requestContext).ip, now: new Date() };
  const formData = await request.formData();
  const here = `/admin/events/${eventId}/waiting-list`;
  const refused = (intent: string, errors: Errors, entryId?: string) =>
    data({ intent, errors, entryId: entryId ?? null }, { status: 400 });
  if (intentOf(formData) === "move") {
    const submission = parseWithZod(formData, { schema: MoveSchema });
    const entryId = String(formData.get("entryId") ?? "");
    if (submission.status !== "success") return refused("move", submission.error ?? {}, entryId);
    const moved = await moveInLine(db, { eventId, ...submission.value, ...actor });
    if (!moved.ok) {
      if ("notFound" in moved) notFound();
      return refused("move", { [moved.field]: [moved.message] }, entryId);
    }
    return redirectWithFlash(here, {
      kind: "success",
      message: `${moved.name} is now ${ordinal(moved.position)} in line.`,
    });
  }
  const submission = parseWithZod(formData, { schema: ListSettingsSchema });
  if (submission.status !== "success") return refused("settings", submission.error ?? {});
  const { intent: _, ...settings } = submission.value;
  if (!(await saveWaitingListSettings(db, eventId, settings, actor))) notFound();
  return redirectWithFlash(here, { kind: "success", message: "Waiting list settings saved." });
}

export default function EventWaitingList({ loaderData, actionData }: Route.ComponentProps) {
  return <WaitingListPanel page={loaderData} answer={actionData} />;
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Waiting list") }];
