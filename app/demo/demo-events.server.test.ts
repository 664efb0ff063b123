import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { asc } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { eventDays, localDate, toLocalInputValue } from "~/features/dates/time-zones";
import { COVER_WIDTHS, coverKey } from "~/features/events/cover-urls";
import { eventSalesSummary, ticketSalesState } from "~/features/events/sales";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { runSeeders } from "~/server/seed.server";
import { localStorage } from "~/server/storage/storage.server";
import { events, ticketTypes } from "../../db/schema";
import { demoAccountsSeeder } from "./demo-accounts.server";
import { demoEvents, demoEventsSeeder } from "./demo-events.server";

const database = freshDatabasePerFile();
const storage = localStorage(mkdtempSync(path.join(tmpdir(), "pitlane-demo-events-")));
const DAY = 24 * 60 * 60 * 1000;

type Seeded = typeof events.$inferSelect & { types: (typeof ticketTypes.$inferSelect)[] };
let seeded: Seeded[] = [];
let now: Date;
let before: Date;

beforeAll(async () => {
  before = new Date();
  await runSeeders(database().db, [demoAccountsSeeder, demoEventsSeeder], { demo: true, storage });
  now = new Date();
  const rows = await database().db.select().from(events).orderBy(asc(events.startsAt));
  const types = await database().db.select().from(ticketTypes).orderBy(asc(ticketTypes.sortOrder));
  seeded = rows.map((row) => ({ ...row, types: types.filter((type) => type.eventId === row.id) }));
});

const bySlug = (slug: string) => {
  const event = seeded.find((row) => row.slug === slug);
  if (!event) throw new Error(`No demo event ${slug}`);
  return event;
};
const summaryOf = (event: Seeded) => eventSalesSummary(event, event.types, now);
/**
 * Weeks from the day of seeding to the event's day, both as calendars show them where the event is:
 * "the first Sunday a week from today" is a week ahead even when it starts at 08:00 and it is now 09:00.
 */
const weeksAhead = (event: Seeded) =>
  (Date.parse(localDate(event.startsAt, event.timeZone)) - Date.parse(localDate(before, event.timeZone))) / (7 * DAY);

describe("demo events", () => {
  it("fill the calendar with at least twelve events, each with ticket types", () => {
    expect(seeded.length).toBeGreaterThanOrEqual(12);
    for (const event of seeded) {
      expect(event.types.length, event.slug).toBeGreaterThan(0);
      expect(event.summary, event.slug).not.toBe("");
      expect(event.description, event.slug).toMatch(/^## /m);
      expect(event.venue && event.town && event.postcode, event.slug).toBeTruthy();
      expect(event.latitude, event.slug).toEqual(expect.any(Number));
      expect(event.longitude, event.slug).toEqual(expect.any(Number));
    }
  });

  it("are published, apart from the cancelled one and a draft", () => {
    for (const event of seeded) {
      if (event.status === "draft") {
        expect(event.publishedAt).toBeNull();
        continue;
      }
      expect(event.publishedAt, event.slug).toBeInstanceOf(Date);
      expect(event.publishedAt!.getTime(), event.slug).toBeLessThanOrEqual(now.getTime());
    }
    expect(seeded.filter((event) => event.status === "cancelled").map((event) => event.slug)).toEqual([
      "classics-on-the-green",
    ]);
  });

  it("have a multi-day Silverstone headline with day tickets and weekend passes on its days", () => {
    const festival = bySlug("silverstone-festival-of-speed");
    expect(festival).toMatchObject({ type: "show", headline: true, status: "published", timeZone: "Europe/London" });
    expect(festival.capacity).toBeGreaterThan(0);
    expect(weeksAhead(festival)).toBeGreaterThanOrEqual(3);
    expect(weeksAhead(festival)).toBeLessThanOrEqual(8);
    const [saturday, sunday, ...rest] = eventDays(festival.startsAt, festival.endsAt, festival.timeZone);
    expect(rest).toEqual([]);
    expect(new Date(`${saturday}T12:00:00Z`).getUTCDay()).toBe(6);
    expect(new Date(`${sunday}T12:00:00Z`).getUTCDay()).toBe(0);
    expect(toLocalInputValue(festival.startsAt, festival.timeZone)).toBe(`${saturday}T09:00`);
    expect(toLocalInputValue(festival.endsAt, festival.timeZone)).toBe(`${sunday}T18:00`);

    const days = Object.fromEntries(festival.types.map((type) => [type.name, type.days]));
    expect(days["Saturday day ticket"]).toEqual([saturday]);
    expect(days["Sunday day ticket"]).toEqual([sunday]);
    expect(days["Weekend pass"]).toEqual([saturday, sunday]);
    expect(days["Show car display pass"]).toEqual([saturday, sunday]);
    for (const type of festival.types) expect(type.capacity, type.name).toBeGreaterThan(type.sold);
    expect(summaryOf(festival).state).toBe("on_sale");
  });

  it("have a cheap Sunday meet in the next week or two and a cruise to come", () => {
    const meet = bySlug("sunday-service-coffee-and-cars");
    expect(meet.type).toBe("meet");
    expect(eventDays(meet.startsAt, meet.endsAt, meet.timeZone)).toHaveLength(1);
    expect(weeksAhead(meet)).toBeGreaterThanOrEqual(1);
    expect(weeksAhead(meet)).toBeLessThanOrEqual(2);
    expect(Math.max(...meet.types.map((type) => type.price))).toBeLessThanOrEqual(500);
    expect(summaryOf(meet)).toMatchObject({ state: "on_sale", fromPrice: 0 });

    const cruise = bySlug("midnight-cruise-to-the-coast");
    expect(cruise.type).toBe("cruise");
    expect(cruise.startsAt.getTime()).toBeGreaterThan(now.getTime());
    expect(eventDays(cruise.startsAt, cruise.endsAt, cruise.timeZone)).toHaveLength(1);
    expect(summaryOf(cruise).state).toBe("on_sale");
  });

  it("have a sold-out track day, sold out on every ticket type", () => {
    const trackDay = bySlug("brands-hatch-track-day");
    expect(trackDay.type).toBe("track_day");
    expect(trackDay.startsAt.getTime()).toBeGreaterThan(now.getTime());
    for (const type of trackDay.types) {
      expect(type.sold, type.name).toBe(type.capacity);
      expect(ticketSalesState(trackDay, type, trackDay.types, now).kind).toBe("sold_out");
    }
    expect(summaryOf(trackDay).state).toBe("sold_out");
  });

  it("have a cancelled show that has not happened yet, with the reason", () => {
    const show = bySlug("classics-on-the-green");
    expect(show).toMatchObject({ type: "show", status: "cancelled" });
    expect(show.cancelReason).toMatch(/refunded/);
    expect(show.cancelledAt!.getTime()).toBeLessThanOrEqual(now.getTime());
    expect(show.startsAt.getTime()).toBeGreaterThan(now.getTime());
    expect(summaryOf(show).state).toBe("cancelled");
  });

  it("have a show taking show-car applications until a deadline before the day", () => {
    const show = bySlug("japanese-performance-day");
    expect(show).toMatchObject({ type: "show", applicationsOpen: true, applicationFee: 1500 });
    expect(show.applicationSpots).toBeGreaterThan(0);
    expect(show.applicationCriteria).toMatch(/^## /m);
    expect(show.applicationsDeadline!.getTime()).toBeGreaterThan(now.getTime());
    expect(show.applicationsDeadline!.getTime()).toBeLessThan(show.startsAt.getTime());
    // The show-car pass is for approved cars only: it never sets the public "from" price.
    const hidden = show.types.filter((type) => type.hidden);
    expect(hidden.map((type) => type.name)).toEqual(["Show car entry"]);
    expect(summaryOf(show)).toMatchObject({ state: "on_sale", fromPrice: 600 });
  });

  it("have past events of different types that sold tickets", () => {
    const past = seeded.filter((event) => event.status === "published" && event.endsAt < before);
    expect(past.length).toBeGreaterThanOrEqual(3);
    expect(new Set(past.map((event) => event.type)).size).toBeGreaterThanOrEqual(3);
    for (const event of past) {
      expect(summaryOf(event).state, event.slug).toBe("past");
      expect(
        event.types.reduce((sum, type) => sum + type.sold, 0),
        event.slug,
      ).toBeGreaterThan(0);
    }
  });

  it("have one event not yet on sale and one with few places left", () => {
    const upcoming = seeded.filter((event) => event.status === "published" && event.startsAt > now);
    const notYet = upcoming.filter((event) => summaryOf(event).state === "not_yet");
    expect(notYet.map((event) => event.slug)).toEqual(["nurburgring-nordschleife-weekend"]);
    expect(summaryOf(notYet[0]!).opensAt!.getTime()).toBeGreaterThan(now.getTime());

    const fewLeft = upcoming.filter((event) => summaryOf(event).fewLeft);
    expect(fewLeft.length).toBeGreaterThanOrEqual(1);
    for (const event of fewLeft) {
      for (const type of event.types.filter((t) => !t.hidden)) {
        expect(type.capacity! - type.sold, `${event.slug}: ${type.name}`).toBeLessThanOrEqual(type.capacity! * 0.1);
      }
    }
  });

  it("spread over every type and several months, so the filters have something to filter", () => {
    const upcoming = seeded.filter((event) => event.status === "published" && event.startsAt > now);
    expect(new Set(upcoming.map((event) => event.type))).toEqual(new Set(["meet", "show", "track_day", "cruise"]));
    const months = new Set(upcoming.map((event) => toLocalInputValue(event.startsAt, event.timeZone).slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(3);
  });

  it("keep the trip abroad in its own time zone", () => {
    const trip = bySlug("nurburgring-nordschleife-weekend");
    expect(trip.timeZone).toBe("Europe/Berlin");
    expect(toLocalInputValue(trip.startsAt, trip.timeZone)).toMatch(/T10:00$/);
    const days = eventDays(trip.startsAt, trip.endsAt, trip.timeZone);
    expect(days).toHaveLength(3);
    for (const type of trip.types) expect(type.days).toEqual(days);
  });

  it("each have their own cover, stored at every width in AVIF and WebP", async () => {
    expect(new Set(seeded.map((event) => event.coverHash)).size).toBe(seeded.length);
    for (const event of seeded) {
      expect(event.coverHash, event.slug).toMatch(/^[0-9a-f]{32}$/);
      expect(event.coverColor, event.slug).toMatch(/^#[0-9a-f]{6}$/);
      expect(event.coverAlt.length, event.slug).toBeGreaterThan(20);
      for (const width of COVER_WIDTHS) {
        for (const format of ["avif", "webp"] as const) {
          const file = await storage.get(coverKey(event.coverHash!, width, format));
          expect(file, `${event.slug} ${width} ${format}`).not.toBeNull();
          const meta = await sharp(file!.bytes).metadata();
          expect(meta.format).toBe(format === "avif" ? "heif" : "webp");
          expect([meta.width, meta.height]).toEqual([width, Math.round((width * 9) / 16)]);
          expect(meta.exif).toBeUndefined();
        }
      }
    }
  });
});

describe("the demo programme, whenever it is seeded", () => {
  // Every week of a year, so both clock changes and every weekday are crossed.
  const moments = Array.from(
    { length: 53 },
    (_, week) => new Date(Date.UTC(2027, 0, 1, 23, 30) + week * 7 * DAY + week * 3_600_000),
  );

  it("keeps local times, future and past, and deadlines in order", () => {
    for (const moment of moments) {
      for (const event of demoEvents(moment)) {
        const label = `${event.slug} seeded at ${moment.toISOString()}`;
        expect(event.endsAt.getTime(), label).toBeGreaterThan(event.startsAt.getTime());
        if (event.publishedAt) expect(event.publishedAt.getTime(), label).toBeLessThanOrEqual(moment.getTime());
        if (event.applicationsDeadline) {
          expect(event.applicationsDeadline.getTime(), label).toBeGreaterThan(moment.getTime());
          expect(event.applicationsDeadline.getTime(), label).toBeLessThan(event.startsAt.getTime());
        }
        const days = eventDays(event.startsAt, event.endsAt, event.timeZone);
        for (const ticket of event.tickets) {
          for (const day of ticket.days ?? []) expect(days, label).toContain(day);
        }
      }
      const festival = demoEvents(moment).find((event) => event.slug === "silverstone-festival-of-speed")!;
      const [saturday, sunday] = eventDays(festival.startsAt, festival.endsAt, "Europe/London");
      expect(toLocalInputValue(festival.startsAt, "Europe/London")).toBe(`${saturday}T09:00`);
      expect(toLocalInputValue(festival.endsAt, "Europe/London")).toBe(`${sunday}T18:00`);
    }
  });

  it("has as many past events whatever the day", () => {
    const counts = moments.map(
      (moment) => demoEvents(moment).filter((event) => event.endsAt.getTime() < moment.getTime()).length,
    );
    expect(new Set(counts)).toEqual(new Set([4]));
  });
});
