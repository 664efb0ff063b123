import { createHash, createHmac, randomBytes } from "node:crypto";
import { and, asc, eq, gte, inArray } from "drizzle-orm";
import { type AttemptRule, countAttempt, secondsUntilAllowed } from "~/features/accounts/attempts.server";
import { ipKey } from "~/features/accounts/ip-key";
import type { Db } from "~/server/db/client.server";
import { showCarApplications } from "../../../db/schema/applications";
import { calendarFeeds } from "../../../db/schema/calendar-feeds";
import { tickets } from "../../../db/schema/commerce";
import { drawEntries } from "../../../db/schema/draw-entries";
import { draws } from "../../../db/schema/draws";
import { type EventType, events } from "../../../db/schema/events";
import { type CalendarEntry, calendarFile, eventEntry, eventLocation } from "./calendar";
import { whenAndWhereColumns } from "./catalogue.server";
import { EVENT_TYPE_LABELS, isEventType } from "./event-types";

/**
 * The calendar feeds (docs/calendar.md): every public event at /events.ics, and each member's own
 * tickets, show cars and draw closings at a secret address of their own.
 */

const DAY = 24 * 60 * 60 * 1000;
/** Feeds keep events that ended up to this long ago, so a subscriber sees a late cancellation. */
const FEED_HISTORY_DAYS = 30;
/** How often calendar apps are asked to fetch a feed again. Most fetch less often whatever we say. */
const REFRESH_MINUTES = 60 * 6;
/** A draw's closing is a short entry, long enough to be seen in a day view. */
const DRAW_CLOSING_MINUTES = 15;
/** Most events a feed lists: years of a busy club's calendar. */
const FEED_LIMIT = 1000;

type Site = { siteUrl: string; siteName: string; now: Date };

const hostOf = (siteUrl: string) => new URL(siteUrl).hostname;

/** An event as its calendar entries show it: the same columns as its page's when and where. */
const eventColumns = whenAndWhereColumns;

/** Published events, and cancelled ones so calendars that have them take them off. */
const listed = inArray(events.status, ["published", "cancelled"]);
const recentSince = (now: Date) => new Date(now.getTime() - FEED_HISTORY_DAYS * DAY);

export type FeedTypes = { ok: true; types: EventType[] } | { ok: false; message: string };

/**
 * The `type` filters of /events.ics (`?type=show&type=track-day`). A feed address is typed once
 * into a calendar app and fetched for years, so an unknown type is refused rather than quietly
 * giving every event. "track-day" and "track_day" are both accepted.
 */
export function feedTypes(values: string[]): FeedTypes {
  const types = new Set<EventType>();
  for (const value of values) {
    const type = value.trim().toLowerCase().replace(/-/g, "_");
    if (!isEventType(type)) {
      const known = Object.keys(EVENT_TYPE_LABELS)
        .map((name) => name.replace(/_/g, "-"))
        .join(", ");
      return { ok: false, message: `There is no event type "${value}". The types are: ${known}.` };
    }
    types.add(type);
  }
  return { ok: true, types: [...types] };
}

/** The name a feed of these types goes by in a calendar app: "Pitlane events", "Pitlane: Show, Track day". */
export function feedName(siteName: string, types: EventType[]) {
  if (types.length === 0) return `${siteName} events`;
  return `${siteName}: ${types.map((type) => EVENT_TYPE_LABELS[type]).join(", ")}`;
}

/** /events.ics: public events that ended from 30 days ago on, of `types` (all when empty). */
export async function publicEventsFeed(db: Db, input: Site & { types: EventType[]; feedUrl: string }) {
  const rows = await db
    .select(eventColumns)
    .from(events)
    .where(
      and(
        listed,
        gte(events.endsAt, recentSince(input.now)),
        input.types.length > 0 ? inArray(events.type, input.types) : undefined,
      ),
    )
    .orderBy(asc(events.startsAt), asc(events.id))
    .limit(FEED_LIMIT);
  const entries = rows.map((event) => eventEntry(event, `${input.siteUrl}/events/${event.slug}`));
  return calendarFile(entries, {
    host: hostOf(input.siteUrl),
    now: input.now,
    feed: {
      name: feedName(input.siteName, input.types),
      description: `Car meets, shows, cruises and track days from ${input.siteName}.`,
      url: input.feedUrl,
      refreshMinutes: REFRESH_MINUTES,
    },
  });
}

/**
 * What a member's own calendar holds: the events they hold a ticket for (valid or already used),
 * their cars' places in shows (approved or paid), and the closing of each draw they entered.
 */
async function personalEntries(db: Db, userId: string, input: Site & { timeZone: string }) {
  const since = recentSince(input.now);
  const eventUrl = (slug: string) => `${input.siteUrl}/events/${slug}`;

  const ticketed = await db
    .selectDistinct(eventColumns)
    .from(tickets)
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where(
      and(
        eq(tickets.userId, userId),
        inArray(tickets.status, ["valid", "checked_in"]),
        listed,
        gte(events.endsAt, since),
      ),
    );

  const showCars = await db
    .select({
      application: {
        id: showCarApplications.id,
        carLabel: showCarApplications.carLabel,
        updatedAt: showCarApplications.updatedAt,
      },
      event: eventColumns,
    })
    .from(showCarApplications)
    .innerJoin(events, eq(events.id, showCarApplications.eventId))
    .where(
      and(
        eq(showCarApplications.userId, userId),
        inArray(showCarApplications.status, ["approved", "paid"]),
        listed,
        gte(events.endsAt, since),
      ),
    );

  const entered = await db
    .selectDistinct({
      id: draws.id,
      slug: draws.slug,
      title: draws.title,
      prize: draws.prize,
      status: draws.status,
      closesAt: draws.closesAt,
      updatedAt: draws.updatedAt,
    })
    .from(drawEntries)
    .innerJoin(draws, eq(draws.id, drawEntries.drawId))
    .where(
      and(
        eq(drawEntries.userId, userId),
        eq(drawEntries.status, "valid"),
        inArray(draws.status, ["live", "closed", "drawn", "cancelled"]),
        gte(draws.closesAt, since),
      ),
    );

  const entries: CalendarEntry[] = [
    // The same UID as the event's own file and the public feed: one event, wherever it came from.
    ...ticketed.map((event) => eventEntry(event, eventUrl(event.slug))),
    ...showCars.map(({ application, event }): CalendarEntry => {
      const cancelled = event.status === "cancelled";
      const url = eventUrl(event.slug);
      return {
        uid: `show-car-${application.id}`,
        title: `${cancelled ? "Cancelled: " : ""}Showing ${application.carLabel} at ${event.title}`,
        description: [
          cancelled ? `Cancelled${event.cancelReason ? `: ${event.cancelReason}` : "."}` : "",
          `Your ${application.carLabel} has a place in the show.`,
          `Details: ${url}`,
        ]
          .filter(Boolean)
          .join("\n\n"),
        cancelled,
        startsAt: event.startsAt,
        endsAt: event.endsAt,
        timeZone: event.timeZone,
        location: eventLocation(event),
        latitude: event.latitude,
        longitude: event.longitude,
        url,
        updatedAt: new Date(Math.max(application.updatedAt.getTime(), event.updatedAt.getTime())),
      };
    }),
    ...entered.map((draw): CalendarEntry => {
      const cancelled = draw.status === "cancelled";
      const url = `${input.siteUrl}/giveaways/${draw.slug}`;
      return {
        uid: `draw-closing-${draw.id}`,
        title: `${cancelled ? "Cancelled: " : ""}${draw.title}: entries close`,
        description: [
          cancelled
            ? "This draw has been cancelled."
            : `Entries for ${draw.prize} close now; the winner is drawn after.`,
          `Details: ${url}`,
        ].join("\n\n"),
        cancelled,
        startsAt: draw.closesAt,
        endsAt: new Date(draw.closesAt.getTime() + DRAW_CLOSING_MINUTES * 60_000),
        // Draws have no place, so no zone of their own: the site's zone.
        timeZone: input.timeZone,
        location: "",
        latitude: null,
        longitude: null,
        url,
        updatedAt: draw.updatedAt,
      };
    }),
  ];
  return entries.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.uid.localeCompare(b.uid));
}

/** The member's own feed as a calendar file. */
export async function personalFeed(db: Db, userId: string, input: Site & { timeZone: string; feedUrl: string }) {
  const entries = await personalEntries(db, userId, input);
  return calendarFile(entries, {
    host: hostOf(input.siteUrl),
    now: input.now,
    feed: {
      name: `My ${input.siteName}`,
      description: `Your tickets, show cars and draw closing times at ${input.siteName}.`,
      url: input.feedUrl,
      refreshMinutes: REFRESH_MINUTES,
    },
  });
}

// The secret link. Its token is an HMAC of the member's id and a random nonce under the site's
// secret: the settings page can show the link again without it being stored, and the database
// keeps only its SHA-256 to find the member by. A copy of the database alone opens no feed.

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

function tokenOf(userId: string, nonce: string, secret: string) {
  const key = createHmac("sha256", secret).update("pitlane calendar feed links v1").digest();
  return createHmac("sha256", key).update(`${userId}.${nonce}`).digest("base64url");
}

/**
 * The member's calendar link token, or null when they have not made one. Should the site's
 * secret change, the link is worked out afresh and the old one stops.
 */
export async function calendarFeedToken(db: Db, userId: string, secret: string) {
  const [feed] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, userId)).limit(1);
  if (!feed) return null;
  const token = tokenOf(userId, feed.nonce, secret);
  if (hashOf(token) !== feed.tokenHash) {
    await db
      .update(calendarFeeds)
      .set({ tokenHash: hashOf(token) })
      .where(eq(calendarFeeds.userId, userId));
  }
  return token;
}

/**
 * Makes the member's calendar link, or a new one in place of the old, which stops at once.
 * True when there was an old one.
 */
export async function resetCalendarFeed(db: Db, userId: string, input: { secret: string; now: Date }) {
  const nonce = randomBytes(16).toString("hex");
  const row = { userId, nonce, tokenHash: hashOf(tokenOf(userId, nonce, input.secret)), createdAt: input.now };
  return db.transaction(async (tx) => {
    const [old] = await tx
      .select({ userId: calendarFeeds.userId })
      .from(calendarFeeds)
      .where(eq(calendarFeeds.userId, userId))
      .for("update");
    await tx
      .insert(calendarFeeds)
      .values(row)
      .onConflictDoUpdate({
        target: calendarFeeds.userId,
        set: { nonce: row.nonce, tokenHash: row.tokenHash, createdAt: row.createdAt },
      });
    return old !== undefined;
  });
}

/**
 * Addresses that kept asking for feeds that do not exist. Tokens are 256 bits, so guessing is
 * hopeless anyway; this keeps a scanner from costing a query a request. Loose, because calendar
 * services fetch for many people from few addresses, old links included.
 */
export const FEED_MISSES_BY_IP: AttemptRule = { max: 100, windowSeconds: 15 * 60 };

export type FeedOwner =
  | { kind: "found"; userId: string }
  | { kind: "unknown" }
  | { kind: "limited"; retryAfterSeconds: number };

/** Whose feed `token` opens, counting the misses of the address asking. */
export async function calendarFeedOwner(db: Db, input: { token: string; ip: string; now: Date }): Promise<FeedOwner> {
  const key = `calendar-feed-miss:${ipKey(input.ip)}`;
  const wait = await secondsUntilAllowed(db, key, FEED_MISSES_BY_IP, input.now);
  if (wait > 0) return { kind: "limited", retryAfterSeconds: wait };
  const [feed] = /^[A-Za-z0-9_-]{43}$/.test(input.token)
    ? await db
        .select({ userId: calendarFeeds.userId })
        .from(calendarFeeds)
        .where(eq(calendarFeeds.tokenHash, hashOf(input.token)))
        .limit(1)
    : [];
  if (feed) return { kind: "found", userId: feed.userId };
  await countAttempt(db, key, FEED_MISSES_BY_IP, input.now);
  return { kind: "unknown" };
}
