import { eventCalendar } from "~/features/events/calendar";
import { calendarEvent } from "~/features/events/catalogue.server";
import { PUBLIC_PAGE_CACHE } from "~/server/cache.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/calendar";

/** `/events/{id}/calendar.ics`: the event as a file any calendar app can add. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const { db, env } = context.get(runtimeContext);
  const event = await calendarEvent(db, params.id);
  if (!event) notFound("This event could not be found");
  const ics = eventCalendar(event, {
    url: `${env.SITE_URL}/events/${event.slug}`,
    host: new URL(env.SITE_URL).hostname,
    now: new Date(),
  });
  return new Response(ics, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": `attachment; filename="${event.slug}.ics"`,
      "Cache-Control": PUBLIC_PAGE_CACHE,
    },
  });
}
