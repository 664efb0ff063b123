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

  it("prepares each statement with parameters once per connection", async () => {
    const { pool, db } = database();
    const client = await pool!.connect();
    try {
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

  it("keeps one plan for a statement run again and again, and plans with the values where they matter", async () => {
    const { pool } = database();
    const client = await pool!.connect();
    const plans = async (statement: string) => {
      const { rows } = await client.query<{ generic: string; custom: string }>(
        "select generic_plans as generic, custom_plans as custom from pg_prepared_statements where statement = $1",
        [statement],
      );
      return { generic: Number(rows[0]!.generic), custom: Number(rows[0]!.custom) };
    };
    try {
      expect((await client.query("show plan_cache_mode")).rows).toEqual([{ plan_cache_mode: "auto" }]);
      // A lookup by key: after its first five calls, planned once for every value.
      await client.query("create table kept (id int primary key, state text not null)");
      await client.query(
        "insert into kept select n, case when n = 1 then 'open' else 'done' end from generate_series(1, 20000) n",
      );
      await client.query("create index kept_open on kept (id) where state = 'open'");
      await client.query("analyze kept");
      const byId = "select state from kept where id = $1";
      for (let n = 1; n <= 10; n++) await client.query(byId, [n]);
      expect(await plans(byId)).toEqual({ generic: 5, custom: 5 });
      // A rare value that a partial index covers: a plan for any value could not use the index,
      // and would cost far more, so each call keeps being planned with its own value.
      const byState = "select id from kept where state = $1";
      for (let n = 1; n <= 10; n++) expect((await client.query(byState, ["open"])).rows).toEqual([{ id: 1 }]);
      expect(await plans(byState)).toEqual({ generic: 0, custom: 10 });
      const prepared = (await preparedOn(client)).find((row) => row.statement === byState)!;
      const explained = await client.query(`explain execute ${prepared.name}('open')`);
      expect(JSON.stringify(explained.rows)).toContain("kept_open");
    } finally {
      await client.query("drop table if exists kept");
      client.release();
    }
  });
});
