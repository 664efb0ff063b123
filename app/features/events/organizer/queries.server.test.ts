import { describe, expect, it } from "vitest";
import { createTestEvent, NOW } from "~/features/checkout/stock.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { getEventCancellation, getEventTimes, listEventsForAdmin } from "./queries.server";

const database = freshDatabasePerFile();

describe("listEventsForAdmin", () => {
  it("finds % and _ in the search as those characters, never as wildcards", async () => {
    const { db } = database();
    const underscore = await createTestEvent(db, { title: "Cars_and_Coffee", types: [{ name: "Entry" }] });
    await createTestEvent(db, { title: "Cars and Coffee", types: [{ name: "Entry" }] });
    const percent = await createTestEvent(db, { title: "100% Petrol Night", types: [{ name: "Entry" }] });
    const find = async (q: string) =>
      (await listEventsForAdmin(db, { show: "upcoming", q, page: 1, now: NOW })).events.map((event) => event.id);
    expect(await find("s_a")).toEqual([underscore.eventId]);
    expect(await find("_")).toEqual([underscore.eventId]);
    expect(await find("100%")).toEqual([percent.eventId]);
    expect(await find("%")).toEqual([percent.eventId]);
  });
});

describe("what the organizer's forms read of an event", () => {
  it("gives its times and its cancellation, and null for an event that does not exist", async () => {
    const { db } = database();
    const { eventId } = await createTestEvent(db, {
      title: "Called off",
      status: "cancelled",
      types: [{ name: "Entry" }],
    });
    expect(await getEventTimes(db, eventId)).toEqual({
      startsAt: new Date("2027-06-12T09:00:00Z"),
      endsAt: new Date("2027-06-13T17:00:00Z"),
      timeZone: "Europe/London",
    });
    expect(await getEventCancellation(db, eventId)).toEqual({
      status: "cancelled",
      title: "Called off",
      cancelReason: null,
    });
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect(await getEventTimes(db, unknown)).toBeNull();
    expect(await getEventCancellation(db, unknown)).toBeNull();
  });
});
