import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { paymentEvents } from "../../../db/schema";
import { freshDatabasePerFile } from "./test-database";

/** PostgreSQL's own list of the statements prepared on one connection of the pool. */
async function preparedOn(client: { query: (text: string) => Promise<{ rows: unknown[] }> }) {
  const { rows } = await client.query("select name, statement from pg_prepared_statements order by name");
  return rows as { name: string; statement: string }[];
}

describe.skipIf(!process.env.DATABASE_URL)("prepared statements (PostgreSQL only: set DATABASE_URL)", () => {
  const database = freshDatabasePerFile();

  it("prepares each statement with parameters once per connection, and plans each call with its own values", async () => {
    const { pool, db } = database();
    const client = await pool!.connect();
    try {
      expect((await client.query("show plan_cache_mode")).rows).toEqual([{ plan_cache_mode: "force_custom_plan" }]);
      const before = await preparedOn(client);
      for (const n of [1, 2, 3]) {
        expect((await client.query("select $1::int * 2 as twice", [n])).rows).toEqual([{ twice: n * 2 }]);
      }
      const added = (await preparedOn(client)).filter((row) => !before.some((old) => old.name === row.name));
      expect(added).toEqual([{ name: expect.stringMatching(/^pitlane_/), statement: "select $1::int * 2 as twice" }]);
      // No parameters: sent as before, unprepared, so several commands in one text still work.
      await client.query("select 1; select 2");
      expect(await preparedOn(client)).toHaveLength(before.length + 1);
    } finally {
      client.release();
    }
    // Drizzle's queries go the same way, with their results read as before.
    await db.insert(paymentEvents).values({ provider: "stripe", eventId: "evt_prepared", type: "t" });
    const read = () =>
      db
        .select({ type: paymentEvents.type, receivedAt: paymentEvents.receivedAt })
        .from(paymentEvents)
        .where(eq(paymentEvents.eventId, "evt_prepared"));
    for (let i = 0; i < 3; i++) expect(await read()).toEqual([{ type: "t", receivedAt: expect.any(Date) }]);
    expect(await db.execute(sql`select ${"x"}::text as value`)).toMatchObject({ rows: [{ value: "x" }] });
  });

  it("re-plans a prepared statement after a migration widens the table it reads", async () => {
    const { pool } = database();
    const client = await pool!.connect();
    try {
      await client.query("create table widening (id int primary key, name text)");
      await client.query("insert into widening values (1, 'one')");
      const select = "select id, name from widening where id = $1";
      expect((await client.query(select, [1])).rows).toEqual([{ id: 1, name: "one" }]);
      await client.query("alter table widening add column note text");
      await client.query("create index on widening (name)");
      expect((await client.query(select, [1])).rows).toEqual([{ id: 1, name: "one" }]);
    } finally {
      client.release();
    }
  });
});
