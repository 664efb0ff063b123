import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { partners, sitePages } from "../db/schema";
import { pagesShowing } from "./app-metrics.server";
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

  it("come from exactly the tables the page cache knows the pages of", async () => {
    const rows = await queryRows<{ table: string }>(
      database,
      "select distinct c.relname as table from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname = 'page_changed' order by 1",
    );
    const announced = rows.map((row) => row.table);
    expect(announced.length).toBeGreaterThan(10);
    for (const table of announced) expect(pagesShowing(table), table).not.toEqual([]);
    expect(pagesShowing("sessions")).toEqual([]);
    expect(pagesShowing(null)).toEqual(["*"]);
  });
});
