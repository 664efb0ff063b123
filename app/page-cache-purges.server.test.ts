import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { partners, sitePages, ticketTypes } from "../db/schema";
import { createTestEvent } from "./features/checkout/stock.test-support";
import { pagesShowing } from "./page-cache-purges.server";
import { createTestDatabase, queryRows, type TestDatabase } from "./server/db/test-database";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.cleanup());

/** Collects the notices on page_changes until `count` have arrived (or a second has passed). */
async function notices(run: () => Promise<unknown>, count: number) {
  const received: (string | null)[] = [];
  let done = () => {};
  const enough = new Promise<void>((resolve) => {
    done = resolve;
  });
  const stop = await database.listen("page_changes", (payload) => {
    received.push(payload);
    if (received.length >= count) done();
  });
  try {
    await run();
    await Promise.race([enough, new Promise((resolve) => setTimeout(resolve, 1000))]);
  } finally {
    await stop();
  }
  return received;
}

describe("page change notices", () => {
  it("announce a change to a table public pages show, once per transaction, when it commits", async () => {
    const received = await notices(async () => {
      await database.db.transaction(async (tx) => {
        await tx.insert(sitePages).values({ slug: "about", title: "About", body: "We race." });
        await tx.insert(sitePages).values({ slug: "rules", title: "Rules", body: "Be kind." });
      });
      await database.db.insert(partners).values({ name: "Grip Tyres", url: "https://grip.example" });
    }, 2);
    expect(received).toEqual(["site_pages", "partners"]);
  });

  it("say nothing for a change that is rolled back", async () => {
    const received = await notices(async () => {
      await database.db
        .transaction(async (tx) => {
          await tx.insert(sitePages).values({ slug: "gone", title: "Gone", body: "x" });
          throw new Error("changed my mind");
        })
        .catch(() => {});
    }, 1);
    expect(received).toEqual([]);
  });

  it("are left to the order's own notice when a sale or refund changes only a ticket type's sold count", async () => {
    const event = await createTestEvent(database.db, {
      title: "Notice day",
      startsAt: new Date("2027-06-12T09:00:00Z"),
      endsAt: new Date("2027-06-12T17:00:00Z"),
      types: [{ name: "Paddock", price: 2500, capacity: 100 }],
    });
    const typeId = event.typeIds[0]!;
    const soldOnly = await notices(
      () =>
        database.db
          .update(ticketTypes)
          .set({ sold: sql`${ticketTypes.sold} + 2`, updatedAt: new Date() })
          .where(eq(ticketTypes.id, typeId)),
      1,
    );
    expect(soldOnly).toEqual([]);
    // An organizer's change to the type is announced, whatever else changes with it.
    const edited = await notices(
      () =>
        database.db
          .update(ticketTypes)
          .set({ price: 3000, sold: sql`${ticketTypes.sold} + 1` })
          .where(eq(ticketTypes.id, typeId)),
      1,
    );
    expect(edited).toEqual(["ticket_types"]);
    const added = await notices(
      () => database.db.insert(ticketTypes).values({ eventId: event.eventId, name: "Pit lane walk", price: 500 }),
      1,
    );
    expect(added).toEqual(["ticket_types"]);
  });

  it("come from exactly the tables the page cache knows the pages of", async () => {
    const rows = await queryRows<{ table: string }>(
      database,
      "select distinct c.relname as table from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname like 'page_changed%' order by 1",
    );
    const announced = rows.map((row) => row.table);
    expect(announced.length).toBeGreaterThan(10);
    for (const table of announced) expect(pagesShowing(table), table).not.toEqual([]);
    expect(pagesShowing("sessions")).toEqual([]);
    expect(pagesShowing(null)).toEqual(["*"]);
  });
});
