import { attendeesCsv } from "~/features/gate/attendees-csv";
import { gateEvent, listAttendees } from "~/features/gate/gate.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/attendees-csv";
import { eventIdFrom } from "./event-id.server";

/** Everyone holding a ticket for the event (or those matching the list's search), as CSV. */
export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db } = context.get(runtimeContext);
  const event = await gateEvent(db, eventId);
  if (!event) notFound();
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
