import { eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { events } from "../../../db/schema";

/** The event as the application rules read it (ApplicationEvent), for applying and deciding. */
export const eventColumns = {
  id: events.id,
  slug: events.slug,
  title: events.title,
  status: events.status,
  endsAt: events.endsAt,
  timeZone: events.timeZone,
  applicationsOpen: events.applicationsOpen,
  applicationsDeadline: events.applicationsDeadline,
  applicationSpots: events.applicationSpots,
  applicationFee: events.applicationFee,
};

/** The event an application is for, or null when it is gone. */
export async function eventById(db: Db, eventId: string) {
  const [event] = await db.select(eventColumns).from(events).where(eq(events.id, eventId));
  return event ?? null;
}
