import { describeWait } from "~/features/accounts/attempts.server";
import { calendarFeedOwner, personalFeed } from "~/features/events/calendar-feeds.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import type { Route } from "./+types/calendar-feed";

const PRIVATE = "private, no-store";

function plain(status: number, message: string, headers: Record<string, string> = {}) {
  return new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": PRIVATE, ...headers },
  });
}

/**
 * `/members/calendar/{token}.ics`: a member's own calendar feed. Calendar apps fetch it without
 * cookies, so the secret address is the only key: no session is asked for, and none is used (a
 * signed-in member opening someone else's link sees that person's feed, as the app would).
 * Never kept by a shared cache. The member resets the address in their settings.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const { db, env } = context.get(runtimeContext);
  const now = new Date();
  const token = params.file.endsWith(".ics") ? params.file.slice(0, -".ics".length) : "";
  const owner = await calendarFeedOwner(db, { token, ip: context.get(requestContext).ip, now });
  if (owner.kind === "limited") {
    return plain(429, `Too many requests. Please wait ${describeWait(owner.retryAfterSeconds)} and try again.`, {
      "Retry-After": String(owner.retryAfterSeconds),
    });
  }
  if (owner.kind === "unknown") {
    return plain(
      404,
      "There is no calendar at this address. The link may have been reset: find the new one in your settings.",
    );
  }
  const ics = await personalFeed(db, owner.userId, {
    siteUrl: env.SITE_URL,
    siteName: env.SITE_NAME,
    timeZone: env.TIME_ZONE,
    feedUrl: `${env.SITE_URL}/members/calendar/${params.file}`,
    now,
  });
  return new Response(ics, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="my-calendar.ics"',
      "Cache-Control": PRIVATE,
      // The address is the key: it should not travel on in a Referer or be indexed.
      "Referrer-Policy": "no-referrer",
      "X-Robots-Tag": "noindex",
    },
  });
}
