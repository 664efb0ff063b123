import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { paymentEvents } from "../../../db/schema";
import { builtOnce, oncePerDatabase } from "./built-once.server";
import { freshDatabasePerFile } from "./test-database";

describe("statements built once", () => {
  const database = freshDatabasePerFile();

  it("builds the SQL on the first call only and runs it with each call's values, in a transaction too", async () => {
    const { db } = database();
    let builds = 0;
    const record = builtOnce<{ eventId: string; at: Date }, { event_id: string; received_at: unknown }>((first) => {
      builds++;
      const at = sql.placeholder("at");
      return sql`${first
        .insert(paymentEvents)
        .values({ provider: "stripe", eventId: sql.placeholder("eventId"), type: "t", receivedAt: at })
        .onConflictDoUpdate({
          target: [paymentEvents.provider, paymentEvents.eventId],
          set: { receivedAt: sql`${at}` },
        })
        .returning({ eventId: paymentEvents.eventId, receivedAt: paymentEvents.receivedAt })
        .getSQL()}`;
    });
    const first = new Date("2026-11-27T10:00:00Z");
    const second = new Date("2026-11-27T11:00:00Z");

    expect((await record(db, { eventId: "evt_once_a", at: first })).rows).toMatchObject([{ event_id: "evt_once_a" }]);
    // The value that went through a column's mapping (values()) and the one that did not (set) alike.
    await record(db, { eventId: "evt_once_a", at: second });
    await db.transaction(async (tx) => {
      await record(tx, { eventId: "evt_once_b", at: first });
    });
    expect(builds).toBe(1);

    const stored = await db
      .select({ eventId: paymentEvents.eventId, receivedAt: paymentEvents.receivedAt })
      .from(paymentEvents)
      .where(eq(paymentEvents.type, "t"))
      .orderBy(paymentEvents.eventId);
    expect(stored).toEqual([
      { eventId: "evt_once_a", receivedAt: second },
      { eventId: "evt_once_b", receivedAt: first },
    ]);
  });

  it("refuses a call that leaves a value out, instead of sending the statement without it", async () => {
    const { db } = database();
    const read = builtOnce<{ eventId: string }, { id: string }>((first) =>
      first
        .select({ id: paymentEvents.eventId })
        .from(paymentEvents)
        .where(eq(paymentEvents.eventId, sql.placeholder("eventId")))
        .getSQL(),
    );
    await expect(read(db, {} as { eventId: string })).rejects.toThrow(/eventId/);
  });

  it("makes a prepared query once per database, and once for each transaction", async () => {
    const { db } = database();
    await db.insert(paymentEvents).values({ provider: "stripe", eventId: "evt_per_db", type: "per database" });
    let made = 0;
    const read = oncePerDatabase((on) => {
      made++;
      return on
        .select({ type: paymentEvents.type })
        .from(paymentEvents)
        .where(eq(paymentEvents.eventId, sql.placeholder("eventId")))
        .prepare("built_once_test_read");
    });
    expect(await read(db).execute({ eventId: "evt_per_db" })).toEqual([{ type: "per database" }]);
    expect(await read(db).execute({ eventId: "evt_missing" })).toEqual([]);
    await db.transaction(async (tx) => {
      expect(await read(tx).execute({ eventId: "evt_per_db" })).toEqual([{ type: "per database" }]);
    });
    expect(made).toBe(2);
  });
});
