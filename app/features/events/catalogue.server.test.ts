import { eq } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { beforeAll, describe, expect, it } from "vitest";
import { checkoutFor, createBuyers, createTestEvent, fillCart, NOW } from "~/features/checkout/stock.test-support";
import { startCheckout } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import * as schema from "../../../db/schema";
import { events, ticketTypes } from "../../../db/schema";
import {
  eventHasTicketType,
  getEventPage,
  listEvents,
  MAX_QUERY_LENGTH,
  nextHeadlineEvent,
  publicEventRef,
  sitemapEvents,
  upcomingEvents,
} from "./catalogue.server";

const database = freshDatabasePerFile();
const now = new Date("2027-05-01T12:00:00Z");
const DAY = 24 * 60 * 60 * 1000;
const daysFromNow = (days: number) => new Date(now.getTime() + days * DAY);
const site = { now, timeZone: "Europe/London" };

type NewEvent = typeof events.$inferInsert;
type NewTicket = Omit<typeof ticketTypes.$inferInsert, "eventId">;

let serial = 0;
async function addEvent(db: Db, values: Partial<NewEvent> & { title: string }, tickets: NewTicket[] = []) {
  serial += 1;
  const startsAt = values.startsAt ?? daysFromNow(serial);
  const [event] = await db
    .insert(events)
    .values({
      slug: `${values.title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${serial}`,
      type: "meet",
      status: "published",
      timeZone: "Europe/London",
      venue: "The Old Airfield",
      town: "Bicester",
      endsAt: new Date(startsAt.getTime() + 4 * 60 * 60 * 1000),
      ...values,
      startsAt,
    })
    .returning({ id: events.id, slug: events.slug });
  if (tickets.length > 0)
    await db.insert(ticketTypes).values(tickets.map((ticket) => ({ ...ticket, eventId: event!.id })));
  return event!;
}

/** The same database through a Drizzle client that counts the statements it sends. */
function countingDb() {
  const handle = database();
  const counter = { queries: 0 };
  const logger = { logQuery: () => void counter.queries++ };
  const db = (handle.engine === "pglite"
    ? drizzlePglite(handle.pglite!, { schema, logger })
    : drizzlePg(handle.pool!, { schema, logger })) as unknown as Db;
  return { db, counter };
}

describe("the events catalogue", () => {
  const ids: Record<string, { id: string; slug: string }> = {};

  beforeAll(async () => {
    const db = database().db;
    ids.coffee = await addEvent(
      db,
      {
        title: "Sunday Service Coffee and Cars",
        startsAt: daysFromNow(3),
        summary: "Breakfast meet for every kind of car.",
      },
      [{ name: "Entry", price: 500 }],
    );
    ids.silverstone = await addEvent(
      db,
      {
        title: "Silverstone Summer Festival",
        type: "show",
        startsAt: new Date("2027-06-12T08:00:00Z"),
        endsAt: new Date("2027-06-13T17:00:00Z"),
        venue: "Silverstone Circuit",
        town: "Silverstone",
        headline: true,
      },
      [
        { name: "Weekend pass", price: 4500, sortOrder: 2 },
        { name: "Saturday", price: 2500, sortOrder: 0 },
        { name: "Crew", price: 100, hidden: true, sortOrder: 1 },
      ],
    );
    ids.brands = await addEvent(db, { title: "Brands Hatch Track Day", type: "track_day", startsAt: daysFromNow(20) }, [
      { name: "Driver", price: 19900, capacity: 30, sold: 30 },
    ]);
    ids.cruise = await addEvent(
      db,
      // 23:30 UTC on 31 July is 00:30 on 1 August in London: an August event there.
      { title: "Midnight Cruise to the Coast", type: "cruise", startsAt: new Date("2027-07-31T23:30:00Z") },
      [{ name: "Car and driver", price: 1500, capacity: 100, sold: 95 }],
    );
    ids.autumn = await addEvent(db, {
      title: "Autumn Classics Show",
      type: "show",
      status: "cancelled",
      cancelReason: "The showground is closed for repairs.",
      startsAt: daysFromNow(40),
    });
    ids.japanese = await addEvent(db, {
      title: "Japanese Performance Day",
      type: "show",
      startsAt: daysFromNow(50),
      applicationsOpen: true,
      applicationsDeadline: daysFromNow(30),
    });
    ids.draft = await addEvent(db, { title: "Secret Silverstone Draft", status: "draft", startsAt: daysFromNow(4) });
    ids.pastMeet = await addEvent(db, { title: "Spring Meet", startsAt: daysFromNow(-30) }, [
      { name: "Entry", price: 500 },
    ]);
    ids.pastShow = await addEvent(db, { title: "Winter Show", type: "show", startsAt: daysFromNow(-90) });
    // Started yesterday, ends tomorrow: still upcoming until it finishes.
    ids.running = await addEvent(db, {
      title: "Long Weekend Rally",
      type: "cruise",
      startsAt: daysFromNow(-1),
      endsAt: daysFromNow(1),
    });
  });

  it("lists upcoming events soonest first, without drafts, keeping cancelled ones", async () => {
    const list = await listEvents(database().db, { ...site, when: "upcoming", page: 1 });
    expect(list.events.map((event) => event.title)).toEqual([
      "Long Weekend Rally",
      "Sunday Service Coffee and Cars",
      "Brands Hatch Track Day",
      "Autumn Classics Show",
      "Silverstone Summer Festival",
      "Japanese Performance Day",
      "Midnight Cruise to the Coast",
    ]);
    expect(list).toMatchObject({ total: 7, page: 1, pageCount: 1 });
    const autumn = list.events.find((event) => event.title === "Autumn Classics Show")!;
    expect(autumn.badges).toMatchObject({ cancelled: true, soldOut: false });
    expect(autumn.fromPrice).toBeNull();
  });

  it("lists past events latest first", async () => {
    const list = await listEvents(database().db, { ...site, when: "past", page: 1 });
    expect(list.events.map((event) => event.title)).toEqual(["Spring Meet", "Winter Show"]);
    expect(list.events[0]!.badges.past).toBe(true);
    expect(list.events[0]!.fromPrice).toBeNull();
    expect(list.months.map((month) => month.value)).toEqual(["2027-04", "2027-01"]);
  });

  it("puts prices and badges on the tiles", async () => {
    const list = await listEvents(database().db, { ...site, when: "upcoming", page: 1 });
    const tile = (title: string) => list.events.find((event) => event.title === title)!;
    // The hidden crew ticket is not a public price.
    expect(tile("Silverstone Summer Festival")).toMatchObject({
      fromPrice: 2500,
      day: "12",
      month: "Jun",
      dates: "Sat 12 – Sun 13 June 2027",
      badges: { soldOut: false, fewLeft: false },
    });
    expect(tile("Brands Hatch Track Day").badges).toMatchObject({ soldOut: true, fewLeft: false });
    expect(tile("Brands Hatch Track Day").fromPrice).toBe(19900);
    expect(tile("Midnight Cruise to the Coast").badges.fewLeft).toBe(true);
    expect(tile("Midnight Cruise to the Coast")).toMatchObject({ day: "1", month: "Aug" });
    expect(tile("Japanese Performance Day").badges.applicationsOpen).toBe(true);
    expect(tile("Japanese Performance Day").fromPrice).toBeNull();
  });

  it("filters by type and by month in the site's zone, with months that have events", async () => {
    const db = database().db;
    const shows = await listEvents(db, { ...site, when: "upcoming", type: "show", page: 1 });
    expect(shows.events.map((event) => event.title)).toEqual([
      "Autumn Classics Show",
      "Silverstone Summer Festival",
      "Japanese Performance Day",
    ]);
    expect(shows.months.map((month) => month.value)).toEqual(["2027-06"]);

    const all = await listEvents(db, { ...site, when: "upcoming", page: 1 });
    expect(all.months).toEqual([
      { value: "2027-04", label: "April 2027", count: 1 },
      { value: "2027-05", label: "May 2027", count: 2 },
      { value: "2027-06", label: "June 2027", count: 3 },
      { value: "2027-08", label: "August 2027", count: 1 },
    ]);
    const august = await listEvents(db, { ...site, when: "upcoming", month: "2027-08", page: 1 });
    expect(august.events.map((event) => event.title)).toEqual(["Midnight Cruise to the Coast"]);
    expect(august.total).toBe(1);
    const july = await listEvents(db, { ...site, when: "upcoming", month: "2027-07", page: 1 });
    expect(july).toMatchObject({ events: [], total: 0, page: 1, pageCount: 1 });
    // In UTC the cruise starts in July.
    const utc = await listEvents(db, { ...site, timeZone: "UTC", when: "upcoming", month: "2027-07", page: 1 });
    expect(utc.events.map((event) => event.title)).toEqual(["Midnight Cruise to the Coast"]);
  });

  it("searches titles, places and descriptions, matching a word still being typed", async () => {
    const db = database().db;
    const search = async (q: string) =>
      (await listEvents(db, { ...site, when: "upcoming", q, page: 1 })).events.map((event) => event.title);
    expect(await search("silver")).toEqual(["Silverstone Summer Festival"]);
    expect(await search("Silverstone")).toEqual(["Silverstone Summer Festival"]);
    expect(await search("summer festivals")).toEqual(["Silverstone Summer Festival"]);
    expect(await search("breakfast")).toEqual(["Sunday Service Coffee and Cars"]);
    expect(await search("bicester")).toContain("Brands Hatch Track Day");
    expect(await search('"track day" -brands')).toEqual([]);
    expect(await search("show OR cruise")).toEqual(["Autumn Classics Show", "Midnight Cruise to the Coast"]);
    // Odd input is searched for, never an error.
    for (const q of ["'", "a:*|!(", "&&&", "\\", "silver:* & !", "🏁", "x".repeat(5000), "the"]) {
      await expect(search(q)).resolves.toBeInstanceOf(Array);
    }
  });

  it("keeps the page inside the results and pages through them in order", async () => {
    const db = database().db;
    const first = await listEvents(db, { ...site, when: "upcoming", page: 1, perPage: 3 });
    expect(first).toMatchObject({ total: 7, page: 1, pageCount: 3 });
    const last = await listEvents(db, { ...site, when: "upcoming", page: 3, perPage: 3 });
    expect(last.events.map((event) => event.title)).toEqual(["Midnight Cruise to the Coast"]);
    expect((await listEvents(db, { ...site, when: "upcoming", page: 9999, perPage: 3 })).page).toBe(3);
    expect((await listEvents(db, { ...site, when: "upcoming", page: -4, perPage: 3 })).page).toBe(1);
    expect((await listEvents(db, { ...site, when: "upcoming", page: Number.NaN, perPage: 3 })).page).toBe(1);
    const seen = [];
    for (let page = 1; page <= 3; page++) {
      seen.push(...(await listEvents(db, { ...site, when: "upcoming", page, perPage: 3 })).events.map((e) => e.id));
    }
    expect(new Set(seen).size).toBe(7);
  });

  it("uses two queries for a page of tiles, however many events and ticket types it shows", async () => {
    const { db, counter } = countingDb();
    const list = await listEvents(db, { ...site, when: "upcoming", page: 1 });
    expect(list.events).toHaveLength(7);
    expect(counter.queries).toBe(2);
    counter.queries = 0;
    await upcomingEvents(db, { limit: 6, now });
    expect(counter.queries).toBe(1);
  });

  it("gives the home page the headline event and the next ones", async () => {
    const db = database().db;
    expect(await nextHeadlineEvent(db, now)).toMatchObject({
      slug: ids.silverstone!.slug,
      title: "Silverstone Summer Festival",
      dates: "Sat 12 – Sun 13 June 2027",
      town: "Silverstone",
    });
    // Once the headline event is over, the next published event leads.
    expect(await nextHeadlineEvent(db, new Date("2027-06-14T00:00:00Z"))).toMatchObject({
      title: "Japanese Performance Day",
    });
    const next = await upcomingEvents(db, { limit: 3, now, excludeId: ids.silverstone!.id });
    expect(next.map((event) => event.title)).toEqual([
      "Long Weekend Rally",
      "Sunday Service Coffee and Cars",
      "Brands Hatch Track Day",
    ]);
  });

  it("lists published events for the sitemap", async () => {
    const slugs = (await sitemapEvents(database().db)).map((event) => event.slug);
    expect(slugs).toContain(ids.silverstone!.slug);
    expect(slugs).not.toContain(ids.draft!.slug);
    expect(slugs).not.toContain(ids.autumn!.slug);
  });
});

describe("the event page", () => {
  it("is found by slug or id, never for drafts or unknown events", async () => {
    const db = database().db;
    const event = await addEvent(db, { title: "Found Meet" });
    const draft = await addEvent(db, { title: "Hidden Draft", status: "draft" });
    expect((await getEventPage(db, event.slug, now))?.event.id).toBe(event.id);
    expect((await getEventPage(db, event.id, now))?.event.slug).toBe(event.slug);
    expect((await getEventPage(db, event.id.toUpperCase(), now))?.event.slug).toBe(event.slug);
    expect(await getEventPage(db, draft.slug, now)).toBeNull();
    expect(await getEventPage(db, draft.id, now)).toBeNull();
    for (const missing of [
      "no-such-event",
      "00000000-0000-0000-0000-000000000000",
      "1234",
      "'; drop",
      "x".repeat(500),
    ]) {
      expect(await getEventPage(db, missing, now)).toBeNull();
    }
  });

  it("lists visible ticket types in order with their sales state", async () => {
    const db = database().db;
    const event = await addEvent(
      db,
      {
        title: "Ticket States Festival",
        type: "show",
        startsAt: new Date("2027-06-19T08:00:00Z"),
        endsAt: new Date("2027-06-20T17:00:00Z"),
        capacity: 500,
      },
      [
        { name: "Sunday", price: 2000, sortOrder: 2, days: ["2027-06-20"] },
        { name: "Saturday", price: 2000, sortOrder: 1, days: ["2027-06-19"], capacity: 50, sold: 47 },
        { name: "Weekend pass", price: 3500, sortOrder: 3, days: ["2027-06-20", "2027-06-19"] },
        { name: "Early bird", price: 1500, sortOrder: 0, salesEndAt: daysFromNow(-1) },
        { name: "VIP", price: 9900, sortOrder: 4, capacity: 10, sold: 10 },
        { name: "Late release", price: 3000, sortOrder: 5, salesStartAt: new Date("2027-05-10T09:00:00Z") },
        { name: "Marshal", price: 0, sortOrder: 6, hidden: true },
      ],
    );
    const page = await getEventPage(db, event.slug, now);
    expect(page).not.toBeNull();
    const tickets = page!.tickets;
    expect(tickets.map((ticket) => ticket.name)).toEqual([
      "Early bird",
      "Saturday",
      "Sunday",
      "Weekend pass",
      "VIP",
      "Late release",
    ]);
    const state = (name: string) => tickets.find((ticket) => ticket.name === name)!.state;
    expect(state("Early bird")).toEqual({ kind: "ended" });
    expect(state("Saturday")).toEqual({ kind: "on_sale", remaining: 3, fewLeft: true });
    expect(state("Sunday")).toEqual({ kind: "on_sale", remaining: 443, fewLeft: false });
    expect(state("VIP")).toEqual({ kind: "sold_out" });
    expect(state("Late release")).toEqual({
      kind: "not_yet",
      opensAt: "2027-05-10T09:00:00.000Z",
      opensLabel: "Mon 10 May 2027, 10:00 BST",
    });
    expect(tickets.find((ticket) => ticket.name === "Weekend pass")!.days).toEqual(["Sat 19 June", "Sun 20 June"]);
    expect(page!.sales).toMatchObject({ state: "on_sale", fromPrice: 2000 });
  });

  it("shows a cancelled event with its reason and nothing on sale", async () => {
    const db = database().db;
    const event = await addEvent(
      db,
      {
        title: "Rained Off Meet",
        status: "cancelled",
        cancelReason: "Flooded car park.",
        applicationsOpen: true,
      },
      [{ name: "Entry", price: 500 }],
    );
    const page = await getEventPage(db, event.slug, now);
    expect(page!.event).toMatchObject({ status: "cancelled", cancelReason: "Flooded car park." });
    expect(page!.sales.state).toBe("cancelled");
    expect(page!.tickets[0]!.state).toEqual({ kind: "cancelled" });
    expect(page!.applications).toBeNull();
  });

  it("renders the description and application criteria as safe HTML", async () => {
    const db = database().db;
    const event = await addEvent(db, {
      title: "Markdown Meet",
      description: "## Schedule\n\n**Gates** at 8.\n\n<script>alert(1)</script>",
      applicationsOpen: true,
      applicationsDeadline: new Date("2027-05-20T17:00:00Z"),
      applicationSpots: 40,
      applicationFee: 1000,
      applicationCriteria: "- Clean *modified* cars",
    });
    const page = await getEventPage(db, event.slug, now);
    expect(page!.event.descriptionHtml).toContain("<h2>Schedule</h2>");
    expect(page!.event.descriptionHtml).toContain("<strong>Gates</strong>");
    expect(page!.event.descriptionHtml).not.toContain("<script>");
    expect(page!.applications).toEqual({
      deadlineLabel: "Thu 20 May 2027, 18:00 BST",
      spots: 40,
      fee: 1000,
      criteriaHtml: expect.stringContaining("<em>modified</em>"),
    });
    // A deadline that has passed closes the panel.
    expect((await getEventPage(db, event.slug, new Date("2027-05-21T00:00:00Z")))!.applications).toBeNull();
  });

  it("shows dates across a clock change and in another zone as the people there read them", async () => {
    const db = database().db;
    // Clocks go back at 02:00 BST on 31 October 2027; the weekend runs 18:00 to 18:00 local.
    const halloween = await addEvent(
      db,
      {
        title: "Halloween Night Run",
        startsAt: new Date("2027-10-30T17:00:00Z"),
        endsAt: new Date("2027-10-31T18:00:00Z"),
      },
      [
        {
          name: "Two nights",
          price: 3000,
          days: ["2027-10-30", "2027-10-31"],
          salesStartAt: new Date("2027-10-01T08:00:00Z"),
        },
      ],
    );
    const page = await getEventPage(db, halloween.slug, now);
    expect(page!.event.dates).toMatchObject({
      dates: "Sat 30 – Sun 31 October 2027",
      times: "Starts 18:00 · ends 18:00",
      zone: "BST",
      multiDay: true,
    });
    expect(page!.event.startsLabel).toBe("Sat 30 Oct 2027, 18:00 BST");
    expect(page!.event.endsLabel).toBe("Sun 31 Oct 2027, 18:00 GMT");
    expect(page!.tickets[0]!.days).toEqual(["Sat 30 October", "Sun 31 October"]);
    expect(page!.sales.opensLabel).toBe("Fri 1 Oct 2027, 09:00 BST");

    // 18:00 in New York on 3 July is 23:00 in London: shown as New York reads it.
    const abroad = await addEvent(db, {
      title: "Fourth of July Cruise",
      timeZone: "America/New_York",
      startsAt: new Date("2027-07-03T22:00:00Z"),
      endsAt: new Date("2027-07-04T03:00:00Z"),
    });
    const away = await getEventPage(db, abroad.slug, now);
    expect(away!.event.dates).toMatchObject({ dates: "Sat 3 July 2027", times: "18:00 – 23:00", multiDay: false });
    expect(away!.event.dates.zone).toMatch(/GMT-4|EDT/);
    expect(away!.event.timeZone).toBe("America/New_York");
  });
});

it("refuses nothing it is given as a search and keeps at most the search limit", async () => {
  const list = await listEvents(database().db, {
    ...site,
    when: "upcoming",
    q: "silverstone ".repeat(MAX_QUERY_LENGTH),
    page: 1,
  });
  expect(list.events.map((event) => event.title)).toEqual(["Silverstone Summer Festival"]);
});

describe("places held by buyers who are paying", () => {
  /** An event of one ticket type, `held` of whose places a buyer holds while paying. */
  async function eventWithHeldPlaces(title: string, capacity: number, held: number) {
    const { db } = database();
    const { eventId, typeIds } = await createTestEvent(db, { title, types: [{ name: "Paddock pass", capacity }] });
    const [buyer] = await createBuyers(db, 1);
    const cartId = await fillCart(db, buyer!.id, [{ ticketTypeId: typeIds[0]!, quantity: held }]);
    expect((await startCheckout(db, checkoutFor(buyer!, cartId))).ok).toBe(true);
    return eventId;
  }

  it("count as taken on the event page until the hold runs out", async () => {
    const { db } = database();
    const eventId = await eventWithHeldPlaces("Held places meet", 10, 4);

    const during = await getEventPage(db, eventId, NOW);
    expect(during?.tickets[0]?.state).toMatchObject({ kind: "on_sale", remaining: 6 });
    // Fifteen minutes later the hold has lapsed, and its places are free again.
    const after = await getEventPage(db, eventId, new Date(NOW.getTime() + 16 * 60_000));
    expect(after?.tickets[0]?.state).toMatchObject({ kind: "on_sale", remaining: 10 });
  });

  it("make a fully held event's tile say Sold out while the holds last", async () => {
    const { db } = database();
    const eventId = await eventWithHeldPlaces("Fully held meet", 3, 3);

    const tileAt = async (at: Date) => {
      const list = await listEvents(db, {
        now: at,
        timeZone: "Europe/London",
        when: "upcoming",
        q: "Fully held",
        page: 1,
      });
      return list.events.find((event) => event.id === eventId);
    };
    expect((await tileAt(NOW))?.badges.soldOut).toBe(true);
    expect((await tileAt(new Date(NOW.getTime() + 16 * 60_000)))?.badges.soldOut).toBe(false);
  });
});

describe("the event a public page's form was posted to", () => {
  it("is found by id or slug unless it is a draft, and knows its own ticket types", async () => {
    const { db } = database();
    const open = await createTestEvent(db, { title: "Posted meet", types: [{ name: "Entry" }] });
    const draft = await createTestEvent(db, { title: "Unpublished meet", status: "draft", types: [{ name: "Entry" }] });
    const [row] = await db.select({ slug: events.slug }).from(events).where(eq(events.id, open.eventId));
    const ref = { id: open.eventId, slug: row!.slug };

    expect(await publicEventRef(db, open.eventId)).toEqual(ref);
    expect(await publicEventRef(db, ref.slug)).toEqual(ref);
    expect(await publicEventRef(db, draft.eventId)).toBeNull();
    expect(await publicEventRef(db, "")).toBeNull();
    expect(await publicEventRef(db, "x".repeat(201))).toBeNull();

    expect(await eventHasTicketType(db, open.eventId, open.typeIds[0]!)).toBe(true);
    expect(await eventHasTicketType(db, open.eventId, draft.typeIds[0]!)).toBe(false);
  });
});
