import { data } from "react-router";
import { eventIdFrom } from "~/features/events/admin-queries.server";
import { attendeesCsv } from "~/features/tickets/attendees-csv";
import { gateEvent, listAttendees } from "~/features/tickets/gate.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import type { Route } from "./+types/attendees-csv";

/** Everyone holding a ticket for the event (or those matching the list's search), as CSV. */
export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db } = context.get(runtimeContext);
  const event = await gateEvent(db, eventId);
  if (!event) throw data("This page could not be found", { status: 404 });
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const attendees = await listAttendees(db, { eventId, q, timeZone: event.timeZone, now: new Date() });
  return new Response(attendeesCsv(attendees), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${event.slug}-attendees.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
