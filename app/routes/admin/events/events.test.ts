import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "~/features/content/markdown.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { storageFor } from "~/server/storage/storage.server";
import { type FormFields, fieldErrors, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { attemptLimits, auditLog, events, ticketTypes } from "../../../../db/schema";
import * as coverRoute from "./cover";
import * as detailsRoute from "./details";
import * as eventRoute from "./event";
import * as listRoute from "./list";
import * as newRoute from "./new";
import * as ticketsRoute from "./tickets";

// The organizer's event pages called as React Router calls them, with hostile input: every bad
// submission answers 400 with field messages and stores nothing.
const database = freshDatabasePerFile();
const site = routeTestSite(database, {
  name: "admin-events",
  roles: ["organizer", "member"],
  runtime: (env) => ({ storage: storageFor(env) }),
});
const { accounts } = site;

type Who = "organizer" | "member" | null;

const post = (path: string, body: FormFields, params: Record<string, string> = {}, who: Who = "organizer") =>
  site.args(who, { path, body, params });
const get = (path: string, params: Record<string, string> = {}, who: Who = "organizer") =>
  site.args(who, { path, params });

const goodEvent = {
  title: "Summer Sunday Meet",
  type: "meet",
  timeZone: "Europe/London",
  startsAt: "2027-06-12T09:00",
  endsAt: "2027-06-13T16:00",
  venue: "Brooklands Museum",
  town: "Weybridge",
};

async function eventCount() {
  const [row] = await database().db.select({ count: count() }).from(events);
  return row?.count ?? 0;
}

async function createOne(fields: FormFields = {}) {
  const answer = (await newRoute.action(post("/admin/events/new", { ...goodEvent, ...fields }))) as Response;
  expect(answer.status).toBe(302);
  const id = answer.headers.get("Location")!.split("/").at(-1)!;
  return id;
}

describe("who may use the event pages", () => {
  it("sends visitors to sign in and gives members the 403 page, reading and writing", async () => {
    const eventId = await createOne({ title: "Guarded Event" });
    const routes = [
      { module: listRoute, path: "/admin/events", params: {} as Record<string, string> },
      { module: newRoute, path: "/admin/events/new", params: {} as Record<string, string> },
      { module: eventRoute, path: `/admin/events/${eventId}`, params: { eventId } },
      { module: detailsRoute, path: `/admin/events/${eventId}`, params: { eventId } },
      { module: coverRoute, path: `/admin/events/${eventId}/cover`, params: { eventId } },
      { module: ticketsRoute, path: `/admin/events/${eventId}/tickets`, params: { eventId } },
    ];
    for (const { module, path: pathname, params } of routes) {
      expect(await statusOf(() => module.loader(get(pathname, params, "member"))), pathname).toBe(403);
      expect(await statusOf(() => module.loader(get(pathname, params, null))), pathname).toMatch(
        /^302 \/login\?redirectTo=/,
      );
      if ("action" in module) {
        const fields = { intent: "publish", noTickets: "on", ...goodEvent };
        expect(await statusOf(() => module.action(post(pathname, fields, params, "member"))), pathname).toBe(403);
      }
    }
    const [event] = await database().db.select({ status: events.status }).from(events).where(eq(events.id, eventId));
    expect(event?.status).toBe("draft");
  });

  it("answers 404 for an address that is not an event id, or an event that does not exist", async () => {
    for (const eventId of ["not-a-uuid", "1' or '1'='1", "00000000-0000-4000-8000-000000000000"]) {
      expect(await statusOf(() => eventRoute.loader(get(`/admin/events/${eventId}`, { eventId })))).toBe(404);
      expect(await statusOf(() => detailsRoute.loader(get(`/admin/events/${eventId}`, { eventId })))).toBe(404);
      expect(await statusOf(() => ticketsRoute.loader(get(`/admin/events/${eventId}/tickets`, { eventId })))).toBe(404);
      expect(await statusOf(() => coverRoute.loader(get(`/admin/events/${eventId}/cover`, { eventId })))).toBe(404);
      const publish = post(`/admin/events/${eventId}`, { intent: "publish", noTickets: "on" }, { eventId });
      expect(await statusOf(() => detailsRoute.action(publish))).toBe(404);
    }
  });
});

describe("creating and editing an event", () => {
  it("creates a draft and goes to its page, with the change in the audit log", async () => {
    const id = await createOne({ title: "Created Through The Form" });
    const [row] = await database().db.select().from(events).where(eq(events.id, id));
    expect(row).toMatchObject({ title: "Created Through The Form", status: "draft", createdBy: accounts.organizer.id });
    const [audit] = await database().db.select().from(auditLog).where(eq(auditLog.subjectId, id));
    expect(audit?.action).toBe("event.create");
  });

  it("answers bad dates, sizes and markup with field messages and stores nothing", async () => {
    const before = await eventCount();
    const huge = "x".repeat(5 * 1024 * 1024);
    const cases: [FormFields, Record<string, string>][] = [
      [{ endsAt: "2027-06-11T09:00" }, { endsAt: "The end must be after the start" }],
      [{ startsAt: "2027-02-31T09:00" }, { startsAt: "Enter a real date and time like 2027-06-12 09:30" }],
      [{ startsAt: "tomorrow" }, { startsAt: "Enter a date and time like 2027-06-12 09:30" }],
      [
        { startsAt: "2027-03-28T01:15", endsAt: "2027-03-28T09:00" },
        { startsAt: expect.stringContaining("the clocks go forward") as unknown as string },
      ],
      [{ title: huge }, { title: "Use at most 120 characters" }],
      [{ description: huge }, { description: "Use at most 20,000 characters" }],
      [{ title: "<script>alert('x')</script>" }, { title: "Leave out < and >" }],
      [{ capacity: "-5" }, { capacity: "Enter at least 1" }],
      [{ capacity: "99999999999" }, { capacity: "Enter at most 100,000" }],
      [{ applicationFee: "1e9" }, { applicationFee: "Enter an amount like 12.50 in £ (0 for free)" }],
      [{ timeZone: "Not/AZone" }, { timeZone: "Choose a time zone from the list" }],
      [{ type: "drag_race" }, { type: "Choose the kind of event" }],
      [{ slug: "new" }, { slug: "This word is used by the site's own pages: choose another" }],
    ];
    for (const [fields, expected] of cases) {
      const answer = await newRoute.action(post("/admin/events/new", { ...goodEvent, ...fields }));
      expect(fieldErrors(answer), JSON.stringify(fields).slice(0, 80)).toEqual(expected);
    }
    expect(await eventCount()).toBe(before);
  });

  it("keeps script tags in the description as text that renders escaped", async () => {
    const id = await createOne({ title: "Markup Test", description: "<script>alert(1)</script>\n\n**Bring snacks**" });
    const [row] = await database().db.select({ description: events.description }).from(events).where(eq(events.id, id));
    expect(row?.description).toBe("<script>alert(1)</script>\n\n**Bring snacks**");
    const html = renderMarkdown(row!.description);
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
  });

  it("saves changes and refuses a body that is not a form", async () => {
    const eventId = await createOne({ title: "Edited Event" });
    const saved = (await detailsRoute.action(
      post(
        `/admin/events/${eventId}`,
        { intent: "save", ...goodEvent, title: "Edited Event", slug: "edited", capacity: "250" },
        { eventId },
      ),
    )) as Response;
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`/admin/events/${eventId}`);
    const [row] = await database()
      .db.select({ slug: events.slug, capacity: events.capacity })
      .from(events)
      .where(eq(events.id, eventId));
    expect(row).toEqual({ slug: "edited", capacity: 250 });

    const url = new URL(`http://localhost/admin/events/${eventId}`);
    const broken = new Request(url, {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=nothing" },
      body: "garbage",
    });
    const args = {
      request: broken,
      url,
      params: { eventId },
      context: site.contextFor("organizer"),
      unstable_pattern: "",
    };
    expect(await statusOf(() => detailsRoute.action(args as never))).toBe(400);

    const unknown = await detailsRoute.action(post(`/admin/events/${eventId}`, { intent: "explode" }, { eventId }));
    expect(await statusOf(() => unknown)).toBe(400);
  });

  it("publishes only with tickets or the organizer's word, and cancels only with a reason", async () => {
    const eventId = await createOne({ title: "Status Event" });
    const at = `/admin/events/${eventId}`;
    expect(fieldErrors(await detailsRoute.action(post(at, { intent: "publish" }, { eventId })))).toEqual({
      noTickets: "Add a ticket type first, or confirm that this event needs no tickets (free to turn up).",
    });
    expect(
      await statusOf(() => detailsRoute.action(post(at, { intent: "publish", noTickets: "on" }, { eventId }))),
    ).toBe(`302 ${at}`);
    expect(fieldErrors(await detailsRoute.action(post(at, { intent: "cancel", reason: "   " }, { eventId })))).toEqual({
      reason: "Say why the event is cancelled: ticket holders will read it",
    });
    const cancelled = (await detailsRoute.action(
      post(at, { intent: "cancel", reason: "Storm warning" }, { eventId }),
    )) as Response;
    expect(cancelled.status).toBe(302);
    const [row] = await database()
      .db.select({ status: events.status, reason: events.cancelReason })
      .from(events)
      .where(eq(events.id, eventId));
    expect(row).toEqual({ status: "cancelled", reason: "Storm warning" });
  });
});

describe("ticket types", () => {
  it("adds a ticket type, and refuses bad prices, capacities and days with field messages", async () => {
    const eventId = await createOne({ title: "Ticketed Event" });
    const at = `/admin/events/${eventId}/tickets`;
    const cases: [FormFields, Record<string, string>][] = [
      [{ price: "-10" }, { price: "Enter an amount like 12.50 in £ (0 for free)" }],
      [{ price: "100000000" }, { price: "Enter at most £100,000.00" }],
      [{ price: "" }, { price: "Enter the price (0 for free)" }],
      [{ capacity: "0" }, { capacity: "Enter at least 1" }],
      [{ capacity: "100001" }, { capacity: "Enter at most 100,000" }],
      [{ capacity: "lots" }, { capacity: "Enter the number of tickets as a whole number" }],
      [{ maxPerOrder: "500" }, { maxPerOrder: "Enter at most 50" }],
      [{ days: ["2027-06-12", "2031-01-01"] }, { days: "Choose days of the event" }],
      [{ name: "x".repeat(5 * 1024 * 1024) }, { name: "Use at most 80 characters" }],
      [{ salesEndAt: "2027-07-01T10:00" }, { salesEndAt: "Sales must close by the time the event ends" }],
    ];
    for (const [fields, expected] of cases) {
      const answer = await ticketsRoute.action(
        post(at, { intent: "create", name: "Day ticket", price: "10", ...fields }, { eventId }),
      );
      expect(fieldErrors(answer), JSON.stringify(fields).slice(0, 80)).toEqual(expected);
    }
    const none = await database()
      .db.select({ id: ticketTypes.id })
      .from(ticketTypes)
      .where(eq(ticketTypes.eventId, eventId));
    expect(none).toEqual([]);

    const added = (await ticketsRoute.action(
      post(at, { intent: "create", name: "Weekend pass", price: "£30", capacity: "200" }, { eventId }),
    )) as Response;
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe(at);
    const [type] = await database().db.select().from(ticketTypes).where(eq(ticketTypes.eventId, eventId));
    expect(type).toMatchObject({
      name: "Weekend pass",
      price: 3000,
      capacity: 200,
      days: ["2027-06-12", "2027-06-13"],
    });

    // Sold tickets hold the capacity up, and keep the type from being deleted.
    await database().db.update(ticketTypes).set({ sold: 150 }).where(eq(ticketTypes.id, type!.id));
    const lower = await ticketsRoute.action(
      post(
        at,
        { intent: "update", ticketTypeId: type!.id, name: "Weekend pass", price: "30", capacity: "100" },
        { eventId },
      ),
    );
    expect(fieldErrors(lower)).toEqual({
      capacity: "150 of these tickets are already sold, so there must be at least 150.",
    });
    const deleted = await ticketsRoute.action(post(at, { intent: "delete", ticketTypeId: type!.id }, { eventId }));
    expect(fieldErrors(deleted)).toEqual({
      "": "150 “Weekend pass” tickets are sold, so it cannot be deleted. Hide it to stop selling it.",
    });
    expect(
      await statusOf(() => ticketsRoute.action(post(at, { intent: "delete", ticketTypeId: "nope" }, { eventId }))),
    ).toBe(404);
  });
});

describe("the cover", () => {
  it("takes ten uploads in ten minutes from an organizer, then answers 429 before reading the image", async () => {
    const eventId = await createOne({ title: "Busy Cover Event" });
    await database()
      .db.insert(attemptLimits)
      .values({
        key: `image-upload:${accounts.organizer.id}`,
        count: 10,
        windowEndsAt: new Date(Date.now() + 5 * 60_000),
      });
    const photo = await sharp({ create: { width: 1280, height: 720, channels: 3, background: "#333" } })
      .jpeg()
      .toBuffer();
    const file = new File([new Uint8Array(photo)], "photo.jpg", { type: "image/jpeg" });
    const at = `/admin/events/${eventId}/cover`;
    const fields = { intent: "upload", cover: file, coverAlt: "A car" };
    expect(await statusOf(() => coverRoute.action(post(at, fields, { eventId })))).toBe(429);
    await database()
      .db.delete(attemptLimits)
      .where(eq(attemptLimits.key, `image-upload:${accounts.organizer.id}`));
    expect(await statusOf(() => coverRoute.action(post(at, fields, { eventId })))).toBe(`302 ${at}`);
  });

  it("refuses a file that is not an image, and a 14000 × 14000 PNG, and stores nothing", async () => {
    const eventId = await createOne({ title: "Cover Event" });
    const at = `/admin/events/${eventId}/cover`;
    const text = new File(["<svg onload=alert(1)>"], "cover.jpg", { type: "image/jpeg" });
    expect(
      fieldErrors(await coverRoute.action(post(at, { intent: "upload", cover: text, coverAlt: "Cars" }, { eventId }))),
    ).toEqual({ cover: "Choose a JPEG, PNG, WebP or HEIC image." });

    // Small on disk, enormous once decoded: refused from its header, before decoding.
    const huge = await sharp({ create: { width: 14_000, height: 14_000, channels: 3, background: "#ff7a1a" } })
      .png({ compressionLevel: 9, adaptiveFiltering: false })
      .toBuffer();
    expect(huge.byteLength).toBeLessThan(2 * 1024 * 1024);
    const png = new File([new Uint8Array(huge)], "huge.png", { type: "image/png" });
    expect(
      fieldErrors(await coverRoute.action(post(at, { intent: "upload", cover: png, coverAlt: "Cars" }, { eventId }))),
    ).toEqual({
      cover: "This image is too large (14000 × 14000 pixels). Choose one of at most 10000 × 10000 pixels.",
    });

    const photo = await sharp({ create: { width: 1280, height: 720, channels: 3, background: "#333" } })
      .jpeg()
      .toBuffer();
    const good = new File([new Uint8Array(photo)], "photo.jpg", { type: "image/jpeg" });
    expect(fieldErrors(await coverRoute.action(post(at, { intent: "upload", cover: good }, { eventId })))).toEqual({
      coverAlt: "Describe the image for people who cannot see it",
    });

    const [row] = await database()
      .db.select({ coverHash: events.coverHash })
      .from(events)
      .where(eq(events.id, eventId));
    expect(row?.coverHash).toBeNull();

    const saved = (await coverRoute.action(
      post(at, { intent: "upload", cover: good, coverAlt: "A grey test card" }, { eventId }),
    )) as Response;
    expect(saved.status).toBe(302);
    const [after] = await database()
      .db.select({ coverHash: events.coverHash })
      .from(events)
      .where(eq(events.id, eventId));
    expect(after?.coverHash).toMatch(/^[0-9a-f]{32}$/);
  }, 30_000);
});
