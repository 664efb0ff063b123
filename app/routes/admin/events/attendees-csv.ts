import { listSearch } from "~/features/forms/fields";
import { attendeesCsv } from "~/features/gate/attendees-csv";
import { eventAttendees } from "~/features/gate/gate.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { csvDownload } from "~/ui/csv-download";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/attendees-csv";
import { eventIdFrom } from "./event-id.server";

/** Everyone holding a ticket for the event (or those matching the list's search), as CSV. */
export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const q = listSearch.parse(url.searchParams.get("q"));
  const list = await eventAttendees(context.get(runtimeContext).db, { eventId, q, now: new Date() });
  if (!list) notFound();
  return csvDownload(attendeesCsv(list.attendees), `${list.slug}-attendees.csv`);
}
