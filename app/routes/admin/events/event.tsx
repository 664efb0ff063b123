import { Outlet } from "react-router";
import { EventHeader } from "~/features/events/organizer/event-header";
import { getEventSummary } from "~/features/events/organizer/queries.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import { RecordPages } from "~/ui/record-page";
import type { Route } from "./+types/event";
import { eventIdFrom } from "./event-id.server";

// One event's pages (details, cover, tickets) under a shared header. Each page checks the role
// and the id again: loaders run in parallel.
export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const event = await getEventSummary(context.get(runtimeContext).db, eventId);
  if (!event) notFound();
  return { event, now: new Date() };
}

export default function EventPages({ loaderData }: Route.ComponentProps) {
  return (
    <RecordPages header={<EventHeader event={loaderData.event} now={loaderData.now} />}>
      <Outlet />
    </RecordPages>
  );
}
