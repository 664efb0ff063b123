import { feedTypes, publicEventsFeed } from "~/features/events/calendar-feeds.server";
import { PUBLIC_PAGE_CACHE } from "~/server/cache.server";
import { runtimeContext } from "~/server/context.server";
import type { Route } from "./+types/feed";

/**
 * `/events.ics`: every public event as a calendar feed to subscribe to, or only some types
 * (`?type=show&type=track-day`). The same for everyone, so shared caches may keep it like a page.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { db, env } = context.get(runtimeContext);
  const types = feedTypes(url.searchParams.getAll("type"));
  if (!types.ok) {
    return new Response(types.message, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": PUBLIC_PAGE_CACHE },
    });
  }
  const ics = await publicEventsFeed(db, {
    types: types.types,
    siteUrl: env.SITE_URL,
    siteName: env.SITE_NAME,
    feedUrl: `${env.SITE_URL}${url.pathname}${url.search}`,
    now: new Date(),
  });
  return new Response(ics, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="events.ics"',
      "Cache-Control": PUBLIC_PAGE_CACHE,
    },
  });
}
