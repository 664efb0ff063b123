import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { NOW } from "~/features/checkout/stock.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { calendarFeeds, events } from "../../../db/schema";
import { readCalendar } from "./calendar.test-support";
import {
  calendarFeedOwner,
  calendarFeedToken,
  FEED_MISSES_BY_IP,
  feedName,
  feedTypes,
  personalFeed,
  publicEventsFeed,
  resetCalendarFeed,
} from "./calendar-feeds.server";
import { cancelEvents, feedEvent, memberCalendarScenario } from "./calendar-feeds.test-support";

const database = freshDatabasePerFile();
const SITE = { siteUrl: "https://club.example", siteName: "Pitlane", now: NOW };
const SECRET = "a-test-secret-that-is-long-enough-0123456789";
const uidsOf = (ics: string) => readCalendar(ics).entries.map((entry) => entry.uid.replace(/@club\.example$/, ""));

describe("the type filters of /events.ics", () => {
  it("takes the site's event types, hyphenated or not, and refuses others by name", () => {
    expect(feedTypes([])).toEqual({ ok: true, types: [] });
    expect(feedTypes(["show", "track-day", "track_day"])).toEqual({ ok: true, types: ["show", "track_day"] });
    expect(feedTypes(["show", "drag-race"])).toEqual({
      ok: false,
      message: 'There is no event type "drag-race". The types are: meet, show, track-day, cruise.',
    });
    expect(feedName("Pitlane", [])).toBe("Pitlane events");
    expect(feedName("Pitlane", ["show", "track_day"])).toBe("Pitlane: Show, Track day");
  });
});

describe("the public events feed", () => {
  it("lists published and cancelled events from 30 days ago on, of the types asked for", async () => {
    const { db } = database();
    const meet = await feedEvent(db, { title: "Sunday meet" });
    const show = await feedEvent(db, { title: "Concours", type: "show" });
    const track = await feedEvent(db, { title: "Track evening", type: "track_day", days: -20 });
    const cancelled = await feedEvent(db, { title: "Flooded cruise", type: "cruise" });
    const draft = await feedEvent(db, { title: "Secret draft", type: "show", status: "draft" });
    const old = await feedEvent(db, { title: "Old show", type: "show", days: -45 });
    await cancelEvents(db, [cancelled.eventId], NOW);

    const all = await publicEventsFeed(db, { ...SITE, types: [], feedUrl: "https://club.example/events.ics" });
    const uids = uidsOf(all);
    expect(uids).toEqual(expect.arrayContaining([meet.eventId, show.eventId, track.eventId, cancelled.eventId]));
    expect(uids).not.toContain(draft.eventId);
    expect(uids).not.toContain(old.eventId);
    const read = readCalendar(all);
    expect(read.property("x-wr-calname")).toBe("Pitlane events");
    expect(read.entries.find((entry) => entry.uid === `${cancelled.eventId}@club.example`)?.status).toBe("CANCELLED");

    const filtered = await publicEventsFeed(db, {
      ...SITE,
      types: ["show", "track_day"],
      feedUrl: "https://club.example/events.ics?type=show&type=track-day",
    });
    expect(uidsOf(filtered).sort()).toEqual([show.eventId, track.eventId].sort());
    expect(readCalendar(filtered).property("x-wr-calname")).toBe("Pitlane: Show, Track day");
  });

  it("keeps an event's UID across an edit and its cancellation", async () => {
    const { db } = database();
    const event = await feedEvent(db, { title: "Edited meet", type: "cruise", days: 90 });
    const read = async () => {
      const ics = await publicEventsFeed(db, {
        ...SITE,
        types: ["cruise"],
        feedUrl: "https://club.example/events.ics",
      });
      return readCalendar(ics).entries.find((entry) => entry.uid === `${event.eventId}@club.example`)!;
    };
    const before = await read();
    await db
      .update(events)
      .set({ title: "Edited meet, new venue", updatedAt: new Date(NOW.getTime() + 60_000) })
      .where(eq(events.id, event.eventId));
    const edited = await read();
    expect(edited).toMatchObject({ uid: before.uid, summary: "Edited meet, new venue", status: "CONFIRMED" });
    expect(edited.sequence).toBeGreaterThan(before.sequence);
    await cancelEvents(db, [event.eventId], new Date(NOW.getTime() + 120_000));
    const cancelled = await read();
    expect(cancelled).toMatchObject({ uid: before.uid, status: "CANCELLED" });
    expect(cancelled.sequence).toBeGreaterThan(edited.sequence);
  });
});

describe("a member's own feed", () => {
  it("holds exactly their tickets, show-car places and draw closings", async () => {
    const { db } = database();
    const scenario = await memberCalendarScenario(db);
    const ics = await personalFeed(db, scenario.member.id, {
      ...SITE,
      timeZone: "Europe/London",
      feedUrl: "https://club.example/members/calendar/x.ics",
    });
    expect(uidsOf(ics).sort()).toEqual(scenario.expected);
    const read = readCalendar(ics);
    expect(read.property("x-wr-calname")).toBe("My Pitlane");
    const closing = read.entries.find((entry) => entry.uid.startsWith("draw-closing-"))!;
    expect(closing).toMatchObject({ tzid: "Europe/London", summary: "Track day draw: entries close" });
    expect(closing.end.getTime() - closing.start.getTime()).toBe(15 * 60_000);
    const slot = read.entries.find((entry) => entry.uid.startsWith("show-car-"))!;
    expect(slot.summary).toBe("Showing 1991 Mazda MX-5 at Summer show");

    // A cancelled show stays, marked, under the same UIDs.
    await cancelEvents(db, [scenario.show.eventId, scenario.ticketed.eventId], new Date(NOW.getTime() + 60_000));
    const after = readCalendar(
      await personalFeed(db, scenario.member.id, {
        ...SITE,
        timeZone: "Europe/London",
        feedUrl: "https://club.example/x",
      }),
    );
    expect(after.entries.map((entry) => entry.uid.replace(/@club\.example$/, "")).sort()).toEqual(scenario.expected);
    expect(after.entries.find((entry) => entry.uid === slot.uid)?.status).toBe("CANCELLED");
    expect(after.entries.find((entry) => entry.uid === `${scenario.ticketed.eventId}@club.example`)?.status).toBe(
      "CANCELLED",
    );

    const others = await personalFeed(db, scenario.other.id, { ...SITE, timeZone: "Europe/London", feedUrl: "x" });
    expect(uidsOf(others)).not.toEqual(expect.arrayContaining(scenario.expected));
    expect(uidsOf(others).some((uid) => scenario.expected.includes(uid))).toBe(false);
  });
});

describe("the secret link", () => {
  it("is stored only as its hash, shown again from the settings, and stops at once when reset", async () => {
    const { db } = database();
    const scenario = await memberCalendarScenario(db);
    const userId = scenario.member.id;
    const ip = "203.0.113.7";
    expect(await calendarFeedToken(db, userId, SECRET)).toBeNull();
    expect(await resetCalendarFeed(db, userId, { secret: SECRET, now: NOW })).toBe(false);
    const first = (await calendarFeedToken(db, userId, SECRET))!;
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, userId));
    expect(Object.values(row!).map(String)).not.toContain(first);
    expect(await calendarFeedOwner(db, { token: first, ip, now: NOW })).toEqual({ kind: "found", userId });

    expect(await resetCalendarFeed(db, userId, { secret: SECRET, now: NOW })).toBe(true);
    const second = (await calendarFeedToken(db, userId, SECRET))!;
    expect(second).not.toBe(first);
    expect(await calendarFeedOwner(db, { token: first, ip, now: NOW })).toEqual({ kind: "unknown" });
    expect(await calendarFeedOwner(db, { token: second, ip, now: NOW })).toEqual({ kind: "found", userId });
  });

  it("stops answering an address that keeps asking for feeds that do not exist", async () => {
    const { db } = database();
    const ip = "198.51.100.99";
    for (let i = 0; i < FEED_MISSES_BY_IP.max; i++) {
      expect((await calendarFeedOwner(db, { token: `guess-${i}`, ip, now: NOW })).kind).toBe("unknown");
    }
    const limited = await calendarFeedOwner(db, { token: "guess-again", ip, now: NOW });
    expect(limited).toMatchObject({ kind: "limited" });
    // Another address is not held up.
    expect((await calendarFeedOwner(db, { token: "guess", ip: "198.51.100.100", now: NOW })).kind).toBe("unknown");
  });
});
