import { describe, expect, it } from "vitest";
import { createTestEvent, NOW } from "~/features/checkout/test-stock";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { listEventsForAdmin } from "./queries.server";

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
