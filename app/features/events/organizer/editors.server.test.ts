import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { insertAccount } from "~/features/accounts/staff.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { localStorage } from "~/server/storage/storage.server";
import { auditLog, events, ticketTypes } from "../../../../db/schema";
import {
  cancelEvent,
  createEvent,
  duplicateEvent,
  publishEvent,
  removeEventCover,
  setEventCover,
  slugify,
  unpublishEvent,
  updateEvent,
} from "./event-editor.server";
import { eventFormSchema, ticketTypeSchema } from "./schemas";
import { createTicketType, deleteTicketType, setTicketTypeHidden, updateTicketType } from "./ticket-type-editor.server";

const database = freshDatabasePerFile();
let actorId: string;

beforeAll(async () => {
  const organizer = await insertAccount(database().db, {
    email: "organizer@club.example",
    name: "Olive Organizer",
    role: "organizer",
    passwordHash: "x",
  });
  actorId = organizer.id;
});

const NOW = new Date("2027-01-10T12:00:00Z");

/** An event as the form sends it, through the form's own schema. */
function eventInput(overrides: Record<string, unknown> = {}) {
  return eventFormSchema({ currency: "GBP", now: NOW }).parse({
    title: "Summer Sunday Meet",
    type: "meet",
    timeZone: "Europe/London",
    startsAt: "2027-06-12T09:00",
    endsAt: "2027-06-13T17:00",
    venue: "Brooklands Museum",
    town: "Weybridge",
    ...overrides,
  });
}

async function newEvent(overrides: Record<string, unknown> = {}) {
  const created = await createEvent(database().db, { actorId, event: eventInput(overrides) });
  if (!created.ok) throw new Error(created.message);
  return created;
}

const ticketContext = {
  currency: "GBP",
  timeZone: "Europe/London",
  startsAt: new Date("2027-06-12T08:00:00Z"),
  endsAt: new Date("2027-06-13T16:00:00Z"),
};

function ticketInput(overrides: Record<string, unknown> = {}) {
  return ticketTypeSchema(ticketContext).parse({ name: "Day ticket", price: "12.50", ...overrides });
}

async function newTicketType(eventId: string, overrides: Record<string, unknown> = {}) {
  const created = await createTicketType(database().db, { actorId, eventId, ticketType: ticketInput(overrides) });
  if (!created.ok) throw new Error(created.message);
  return created;
}

async function auditFor(subjectId: string) {
  return database()
    .db.select({ action: auditLog.action, actorId: auditLog.actorId, details: auditLog.details })
    .from(auditLog)
    .where(eq(auditLog.subjectId, subjectId))
    .orderBy(asc(auditLog.createdAt));
}

async function eventRow(id: string) {
  const [row] = await database().db.select().from(events).where(eq(events.id, id));
  return row!;
}

describe("slugify", () => {
  it("makes lowercase ASCII words joined by hyphens, within 80 characters", () => {
    expect(slugify("Cars & Coffee: Brooklands!")).toBe("cars-and-coffee-brooklands");
    expect(slugify("  Rétro Rallye — Nürburgring 2027 ")).toBe("retro-rallye-nurburgring-2027");
    expect(slugify("Mike's V8 Night")).toBe("mikes-v8-night");
    expect(slugify("🚗🚗🚗")).toBe("event");
    const long = slugify(`${"a".repeat(50)} ${"b".repeat(50)}`);
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long.endsWith("-")).toBe(false);
  });
});

describe("createEvent", () => {
  it("creates a draft at an address made from its title, and records who did it", async () => {
    const created = await newEvent({ title: "Night Run to the Coast" });
    expect(created.slug).toBe("night-run-to-the-coast");
    const row = await eventRow(created.id);
    expect(row).toMatchObject({ status: "draft", createdBy: actorId, venue: "Brooklands Museum" });
    expect(row.startsAt.toISOString()).toBe("2027-06-12T08:00:00.000Z");
    expect(await auditFor(created.id)).toEqual([
      {
        action: "event.create",
        actorId,
        details: {
          title: "Night Run to the Coast",
          slug: "night-run-to-the-coast",
          type: "meet",
          startsAt: "2027-06-12T08:00:00.000Z",
          endsAt: "2027-06-13T16:00:00.000Z",
          timeZone: "Europe/London",
        },
      },
    ]);
  });

  it("numbers addresses that are taken, and never uses a word the site's pages need", async () => {
    const first = await newEvent({ title: "Track Day Tuesday" });
    const second = await newEvent({ title: "Track day tuesday!" });
    expect([first.slug, second.slug]).toEqual(["track-day-tuesday", "track-day-tuesday-2"]);
    expect((await newEvent({ title: "New" })).slug).toBe("new-2");
  });

  it("refuses an address the organizer typed when another event has it, suggesting a free one", async () => {
    await newEvent({ title: "Autumn Show", slug: "autumn-show" });
    const again = await createEvent(database().db, {
      actorId,
      event: eventInput({ title: "Another", slug: "autumn-show" }),
    });
    expect(again).toEqual({
      ok: false,
      field: "slug",
      message: "Another event already uses this address. Try “autumn-show-2”.",
    });
  });

  it("gives every one of many simultaneous events with the same title its own address", async () => {
    const title = "Simultaneous Cruise";
    const results = await Promise.all(
      Array.from({ length: 12 }, () => createEvent(database().db, { actorId, event: eventInput({ title }) })),
    );
    const slugs = results.map((result) => (result.ok ? result.slug : result.message)).sort();
    expect(new Set(slugs).size).toBe(12);
    expect(slugs).toContain("simultaneous-cruise");
    for (const slug of slugs) expect(slug).toMatch(/^simultaneous-cruise(-\d+)?$/);
  });
});

describe("updateEvent", () => {
  it("records which fields changed, with old and new values for the key ones only", async () => {
    const { id } = await newEvent({ title: "Spring Meet", description: "First draft" });
    const updated = await updateEvent(database().db, {
      actorId,
      eventId: id,
      event: eventInput({ title: "Spring Meet 2027", slug: "spring-meet", description: "A much longer description" }),
    });
    expect(updated).toMatchObject({ ok: true, slug: "spring-meet", ticketDaysMoved: 0 });
    const [, update] = await auditFor(id);
    expect(update).toEqual({
      action: "event.update",
      actorId,
      details: {
        changed: ["title", "description"],
        title: { from: "Spring Meet", to: "Spring Meet 2027" },
      },
    });

    // Saving the same values again changes and records nothing.
    const again = await updateEvent(database().db, {
      actorId,
      eventId: id,
      event: eventInput({ title: "Spring Meet 2027", slug: "spring-meet", description: "A much longer description" }),
    });
    expect(again).toMatchObject({ ok: true, changed: [] });
    expect(await auditFor(id)).toHaveLength(2);
  });

  it("does not let the capacity fall below the tickets already sold", async () => {
    const { id } = await newEvent({ title: "Capacity Check" });
    const type = await newTicketType(id);
    await database().db.update(ticketTypes).set({ sold: 40 }).where(eq(ticketTypes.id, type.id));
    const lower = await updateEvent(database().db, {
      actorId,
      eventId: id,
      event: eventInput({ title: "Capacity Check", slug: "capacity-check", capacity: 39 }),
    });
    expect(lower).toEqual({
      ok: false,
      field: "capacity",
      message: "40 tickets are already sold, so the capacity cannot be lower than 40.",
    });
    const exact = await updateEvent(database().db, {
      actorId,
      eventId: id,
      event: eventInput({ title: "Capacity Check", slug: "capacity-check", capacity: 40 }),
    });
    expect(exact.ok).toBe(true);
    expect((await eventRow(id)).capacity).toBe(40);
  });

  it("moves ticket days with the event's dates", async () => {
    const { id } = await newEvent({ title: "Weekend Festival" });
    const sunday = await newTicketType(id, { name: "Sunday", days: ["2027-06-13"] });
    const pass = await newTicketType(id, { name: "Weekend pass" });
    const moved = await updateEvent(database().db, {
      actorId,
      eventId: id,
      event: eventInput({
        title: "Weekend Festival",
        slug: "weekend-festival",
        startsAt: "2027-07-10T09:00",
        endsAt: "2027-07-11T17:00",
      }),
    });
    expect(moved).toMatchObject({ ok: true, ticketDaysMoved: 2 });
    const days = await database()
      .db.select({ id: ticketTypes.id, days: ticketTypes.days })
      .from(ticketTypes)
      .where(eq(ticketTypes.eventId, id));
    expect(days.find((row) => row.id === sunday.id)?.days).toEqual(["2027-07-11"]);
    expect(days.find((row) => row.id === pass.id)?.days).toEqual(["2027-07-10", "2027-07-11"]);
  });

  it("refuses an address another event has", async () => {
    await newEvent({ title: "Taken Address" });
    const { id } = await newEvent({ title: "Wants Address" });
    const clash = await updateEvent(database().db, {
      actorId,
      eventId: id,
      event: eventInput({ title: "Wants Address", slug: "taken-address" }),
    });
    expect(clash).toMatchObject({ ok: false, field: "slug" });
  });
});

describe("duplicateEvent", () => {
  it("copies the event as a draft with its ticket types, nothing sold, dates kept", async () => {
    const { id } = await newEvent({ title: "Classic Car Show", type: "show", capacity: 500 });
    const day = await newTicketType(id, { name: "Saturday", days: ["2027-06-12"], capacity: 200 });
    await newTicketType(id, { name: "Weekend pass", price: "30" });
    await database().db.update(ticketTypes).set({ sold: 25 }).where(eq(ticketTypes.id, day.id));
    await publishEvent(database().db, { actorId, eventId: id, noTickets: false });

    const copy = await duplicateEvent(database().db, { actorId, eventId: id });
    if (!copy.ok) throw new Error(copy.message);
    expect(copy.slug).toBe("classic-car-show-copy");
    const row = await eventRow(copy.id);
    expect(row).toMatchObject({ title: "Classic Car Show (copy)", status: "draft", capacity: 500, type: "show" });
    expect(row.publishedAt).toBeNull();
    expect(row.startsAt).toEqual((await eventRow(id)).startsAt);
    const types = await database()
      .db.select({ name: ticketTypes.name, sold: ticketTypes.sold, days: ticketTypes.days, price: ticketTypes.price })
      .from(ticketTypes)
      .where(eq(ticketTypes.eventId, copy.id))
      .orderBy(asc(ticketTypes.createdAt));
    expect(types).toEqual([
      { name: "Saturday", sold: 0, days: ["2027-06-12"], price: 1250 },
      { name: "Weekend pass", sold: 0, days: ["2027-06-12", "2027-06-13"], price: 3000 },
    ]);
    expect(await auditFor(copy.id)).toEqual([
      {
        action: "event.duplicate",
        actorId,
        details: { from: id, fromSlug: "classic-car-show", slug: "classic-car-show-copy", ticketTypes: 2 },
      },
    ]);
    const second = await duplicateEvent(database().db, { actorId, eventId: id });
    expect(second.ok && second.slug).toBe("classic-car-show-copy-2");
  });
});

describe("publishing and cancelling", () => {
  it("publishes only with a visible ticket type, or the organizer's word that no tickets are needed", async () => {
    const { id } = await newEvent({ title: "Publish Rules" });
    const none = await publishEvent(database().db, { actorId, eventId: id, noTickets: false });
    expect(none).toMatchObject({ ok: false, field: "noTickets" });

    const hidden = await newTicketType(id, { hidden: true });
    expect(await publishEvent(database().db, { actorId, eventId: id, noTickets: false })).toMatchObject({
      ok: false,
      field: "noTickets",
    });
    await setTicketTypeHidden(database().db, { actorId, eventId: id, ticketTypeId: hidden.id, hidden: false });
    expect(await publishEvent(database().db, { actorId, eventId: id, noTickets: false })).toEqual({ ok: true });
    expect((await eventRow(id)).status).toBe("published");
    expect(await publishEvent(database().db, { actorId, eventId: id, noTickets: false })).toMatchObject({ ok: false });

    const free = await newEvent({ title: "Free Turn-up Meet" });
    expect(await publishEvent(database().db, { actorId, eventId: free.id, noTickets: true })).toEqual({ ok: true });
    expect((await auditFor(free.id)).at(-1)).toMatchObject({
      action: "event.publish",
      details: { ticketTypes: 0, noTickets: true, firstTime: true },
    });
  });

  it("takes an event back to draft only while nothing is sold", async () => {
    const { id } = await newEvent({ title: "Unpublish Rules" });
    const type = await newTicketType(id);
    await publishEvent(database().db, { actorId, eventId: id, noTickets: false });
    await database().db.update(ticketTypes).set({ sold: 1 }).where(eq(ticketTypes.id, type.id));
    expect(await unpublishEvent(database().db, { actorId, eventId: id })).toMatchObject({
      ok: false,
      message: "1 ticket is already sold, so this event cannot go back to draft. Cancel it instead.",
    });
    await database().db.update(ticketTypes).set({ sold: 0 }).where(eq(ticketTypes.id, type.id));
    expect(await unpublishEvent(database().db, { actorId, eventId: id })).toEqual({ ok: true });
    expect((await eventRow(id)).status).toBe("draft");
    expect((await auditFor(id)).map((entry) => entry.action)).toEqual([
      "event.create",
      "event.publish",
      "event.unpublish",
    ]);
  });

  it("cancels with a reason, says how many tickets were sold, and freezes the event", async () => {
    const { id } = await newEvent({ title: "Rained Off", headline: true });
    const type = await newTicketType(id);
    await database().db.update(ticketTypes).set({ sold: 7 }).where(eq(ticketTypes.id, type.id));
    const cancelled = await cancelEvent(database().db, { actorId, eventId: id, reason: "Flooded car park" });
    expect(cancelled).toEqual({ ok: true, ticketsSold: 7 });
    const row = await eventRow(id);
    expect(row).toMatchObject({ status: "cancelled", cancelReason: "Flooded car park", headline: false });
    expect(row.cancelledAt).toBeInstanceOf(Date);
    expect((await auditFor(id)).at(-1)).toEqual({
      action: "event.cancel",
      actorId,
      details: { from: "draft", reason: "Flooded car park", ticketsSold: 7 },
    });

    const edit = await updateEvent(database().db, { actorId, eventId: id, event: eventInput({ title: "Back on" }) });
    expect(edit).toMatchObject({ ok: false, field: "" });
    expect(await newTicketTypeResult(id)).toMatchObject({ ok: false });
    expect(await cancelEvent(database().db, { actorId, eventId: id, reason: "Again" })).toMatchObject({ ok: false });
    expect(await publishEvent(database().db, { actorId, eventId: id, noTickets: true })).toMatchObject({ ok: false });
  });

  it("answers not found for an event that does not exist", async () => {
    const eventId = "00000000-0000-4000-8000-000000000000";
    expect(await publishEvent(database().db, { actorId, eventId, noTickets: true })).toMatchObject({ notFound: true });
    expect(await duplicateEvent(database().db, { actorId, eventId })).toMatchObject({ notFound: true });
  });
});

function newTicketTypeResult(eventId: string) {
  return createTicketType(database().db, { actorId, eventId, ticketType: ticketInput() });
}

describe("ticket types", () => {
  it("stores the price in pence, the chosen days, and every day when none is chosen", async () => {
    const { id } = await newEvent({ title: "Ticket Basics" });
    const saturday = await newTicketType(id, { name: "Saturday", price: "£15", days: ["2027-06-12"] });
    const pass = await newTicketType(id, { name: "Weekend pass", price: "25.5", capacity: 100, maxPerOrder: 4 });
    const rows = await database()
      .db.select()
      .from(ticketTypes)
      .where(eq(ticketTypes.eventId, id))
      .orderBy(asc(ticketTypes.createdAt));
    expect(
      rows.map(({ id, name, price, days, capacity, maxPerOrder }) => ({
        id,
        name,
        price,
        days,
        capacity,
        maxPerOrder,
      })),
    ).toEqual([
      { id: saturday.id, name: "Saturday", price: 1500, days: ["2027-06-12"], capacity: null, maxPerOrder: 10 },
      {
        id: pass.id,
        name: "Weekend pass",
        price: 2550,
        days: ["2027-06-12", "2027-06-13"],
        capacity: 100,
        maxPerOrder: 4,
      },
    ]);
    expect((await auditFor(pass.id))[0]).toEqual({
      action: "ticket_type.create",
      actorId,
      details: { eventId: id, name: "Weekend pass", price: 2550, capacity: 100, days: ["2027-06-12", "2027-06-13"] },
    });
  });

  it("keeps a ticket type's capacity at or above what it has sold, and records changes", async () => {
    const { id } = await newEvent({ title: "Ticket Capacity" });
    const type = await newTicketType(id, { capacity: 50 });
    await database().db.update(ticketTypes).set({ sold: 30 }).where(eq(ticketTypes.id, type.id));
    const update = (overrides: Record<string, unknown>) =>
      updateTicketType(database().db, {
        actorId,
        eventId: id,
        ticketTypeId: type.id,
        ticketType: ticketInput(overrides),
      });
    expect(await update({ capacity: 29 })).toEqual({
      ok: false,
      field: "capacity",
      message: "30 of these tickets are already sold, so there must be at least 30.",
    });
    expect(await update({ capacity: 30, price: "14", description: "Now with coffee" })).toEqual({
      ok: true,
      changed: ["description", "price", "capacity"],
    });
    expect((await auditFor(type.id)).at(-1)).toEqual({
      action: "ticket_type.update",
      actorId,
      details: {
        eventId: id,
        name: "Day ticket",
        changed: ["description", "price", "capacity"],
        price: { from: 1250, to: 1400 },
        capacity: { from: 50, to: 30 },
      },
    });
  });

  it("deletes only a ticket type nobody bought; one with sales can be hidden", async () => {
    const { id } = await newEvent({ title: "Ticket Deletion" });
    const unsold = await newTicketType(id, { name: "Unsold" });
    const sold = await newTicketType(id, { name: "Popular" });
    await database().db.update(ticketTypes).set({ sold: 2 }).where(eq(ticketTypes.id, sold.id));

    expect(await deleteTicketType(database().db, { actorId, eventId: id, ticketTypeId: sold.id })).toEqual({
      ok: false,
      field: "",
      message: "2 “Popular” tickets are sold, so it cannot be deleted. Hide it to stop selling it.",
    });
    expect(await deleteTicketType(database().db, { actorId, eventId: id, ticketTypeId: unsold.id })).toEqual({
      ok: true,
      name: "Unsold",
    });
    expect(
      await setTicketTypeHidden(database().db, { actorId, eventId: id, ticketTypeId: sold.id, hidden: true }),
    ).toEqual({ ok: true, name: "Popular" });
    const left = await database()
      .db.select({ name: ticketTypes.name, hidden: ticketTypes.hidden })
      .from(ticketTypes)
      .where(eq(ticketTypes.eventId, id));
    expect(left).toEqual([{ name: "Popular", hidden: true }]);
    expect((await auditFor(unsold.id)).map((entry) => entry.action)).toEqual([
      "ticket_type.create",
      "ticket_type.delete",
    ]);
  });

  it("does not touch a ticket type through another event's address", async () => {
    const one = await newEvent({ title: "Event One" });
    const two = await newEvent({ title: "Event Two" });
    const type = await newTicketType(one.id);
    expect(await deleteTicketType(database().db, { actorId, eventId: two.id, ticketTypeId: type.id })).toMatchObject({
      notFound: true,
    });
    const [still] = await database()
      .db.select({ id: ticketTypes.id })
      .from(ticketTypes)
      .where(and(eq(ticketTypes.id, type.id), eq(ticketTypes.eventId, one.id)));
    expect(still).toBeDefined();
  });
});

describe("covers", () => {
  const storage = localStorage(mkdtempSync(path.join(tmpdir(), "pitlane-covers-")));

  it("stores a cover with its description, and refuses files that are not usable photos", async () => {
    const { id } = await newEvent({ title: "Cover Event" });
    const photo = await sharp({ create: { width: 1280, height: 720, channels: 3, background: "#c2410c" } })
      .jpeg()
      .toBuffer();
    const text = new TextEncoder().encode("<script>alert(1)</script>");

    expect(await setEventCover(database().db, storage, { actorId, eventId: id, image: text, alt: "x" })).toEqual({
      ok: false,
      field: "cover",
      message: "Choose a JPEG, PNG, WebP or HEIC image.",
    });
    expect(await setEventCover(database().db, storage, { actorId, eventId: id, image: null, alt: "x" })).toEqual({
      ok: false,
      field: "cover",
      message: "Choose an image",
    });
    const added = await setEventCover(database().db, storage, {
      actorId,
      eventId: id,
      image: new Uint8Array(photo),
      alt: "Orange cars lined up",
    });
    expect(added).toEqual({ ok: true, action: "added" });
    const row = await eventRow(id);
    expect(row.coverHash).toMatch(/^[0-9a-f]{32}$/);
    expect(row.coverAlt).toBe("Orange cars lined up");
    expect(await storage.get(`events/${row.coverHash}-480.webp`)).not.toBeNull();

    expect(
      await setEventCover(database().db, storage, { actorId, eventId: id, image: null, alt: "Cars at dusk" }),
    ).toEqual({ ok: true, action: "described" });
    expect(await removeEventCover(database().db, { actorId, eventId: id })).toEqual({ ok: true });
    expect(await eventRow(id)).toMatchObject({ coverHash: null, coverAlt: "" });
    expect(
      (await auditFor(id)).filter((entry) => entry.action === "event.cover").map((entry) => entry.details.action),
    ).toEqual(["added", "described", "removed"]);
  });
});
