import { articlesFeed } from "~/features/articles/feed.server";
import { runtimeContext } from "~/server/context.server";
import type { Route } from "./+types/feed";

/** Feed readers poll: a few minutes in their cache, ten in a CDN's, served stale while it refetches. */
export const FEED_CACHE = "public, max-age=300, s-maxage=600, stale-while-revalidate=3600";

/** `/blog/feed.xml`: the Atom feed of the newest articles (docs/articles.md). */
export async function loader({ context }: Route.LoaderArgs) {
  const { db, env } = context.get(runtimeContext);
  const xml = await articlesFeed(db, { name: env.SITE_NAME, url: env.SITE_URL }, new Date());
  return new Response(xml, {
    headers: { "Content-Type": "application/atom+xml; charset=utf-8", "Cache-Control": FEED_CACHE },
  });
}
