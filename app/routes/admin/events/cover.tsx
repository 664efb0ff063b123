import { useRouteLoaderData } from "react-router";
import { CoverEditor } from "~/features/events/organizer/cover-form";
import { getEventCover } from "~/features/events/organizer/queries.server";
import { requireRole } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { dashboardMeta, recordTitle } from "~/ui/dashboard-meta";
import { notFound } from "~/ui/not-found";
import { TabSection } from "~/ui/record-page";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/cover";
import type { loader as eventLoader } from "./event";
import { eventCoverAction } from "./event-forms.server";
import { eventIdFrom } from "./event-id.server";

// The one organizer form that sends a file: server.ts lets bodies of up to 16 MB through to
// this path only (a 15 MB image and the form around it).
export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const cover = await getEventCover(context.get(runtimeContext).db, eventIdFrom(params.eventId));
  if (!cover) notFound();
  return { cover };
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db, env, storage } = context.get(runtimeContext);
  const ip = context.get(requestContext).ip;
  const call = { db, actorId: user.id, currency: env.CURRENCY, eventId, storage, ip };
  return eventCoverAction(call, await readForm(request), url.pathname);
}

export default function EventCover({ loaderData, actionData }: Route.ComponentProps) {
  const parent = useRouteLoaderData<typeof eventLoader>("routes/admin/events/event");
  return (
    <TabSection id="cover" title="Cover image" intro="The picture on the event's tile, its page and when it is shared.">
      <CoverEditor
        cover={loaderData.cover}
        lastResult={actionData?.intent === "upload" ? actionData.result : undefined}
        removeResult={actionData?.intent === "remove" ? actionData.result : undefined}
        disabled={parent?.event.status === "cancelled"}
      />
    </TabSection>
  );
}

const EVENT_LAYOUT = { id: "routes/admin/events/event", key: "event", fallback: "Event" };

export const meta: Route.MetaFunction = ({ matches }) =>
  dashboardMeta(matches, "Cover", recordTitle(matches, EVENT_LAYOUT));
