import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createBuyers, createTestEvent, NOW } from "~/features/checkout/stock.test-support";
import { appServerPools } from "~/server/db/server-pools.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { vouchers, waitingListEntries } from "../../../db/schema";
import { joinInOrder, runListsAt } from "./waiting-lists.test-support";

/**
 * The offer sweep under real contention, as two app servers would run it: two connection pools on
 * one PostgreSQL database. PGlite runs one transaction at a time, so this runs only when
 * DATABASE_URL is set.
 */
describe.skipIf(!process.env.DATABASE_URL)(
  "offering places under contention (PostgreSQL only: set DATABASE_URL)",
  { timeout: 180_000 },
  () => {
    const database = freshDatabasePerFile();
    const servers = appServerPools(database, { count: 2, max: 10 });

    it("100 places free with 300 waiting, swept by two servers at once: exactly 100 offers, in line order, no one twice", async () => {
      const { db: setup } = database();
      const { typeIds } = await createTestEvent(setup, {
        types: [{ name: "Paddock", capacity: 100, maxPerOrder: 4 }],
      });
      const typeId = typeIds[0]!;
      const members = await createBuyers(setup, 300);
      const line = await joinInOrder(setup, typeId, members);

      const runs = await Promise.all(Array.from({ length: 6 }, (_, index) => runListsAt(servers[index % 2]!, NOW)));
      expect(runs.reduce((sum, run) => sum + run.offered, 0)).toBe(100);
      expect(runs.reduce((sum, run) => sum + run.outbox.length, 0)).toBe(100);

      const entries = await setup
        .select({
          id: waitingListEntries.id,
          status: waitingListEntries.status,
          voucherId: waitingListEntries.offerVoucherId,
        })
        .from(waitingListEntries)
        .where(eq(waitingListEntries.ticketTypeId, typeId))
        .orderBy(asc(waitingListEntries.sortKey));
      expect(entries.map((entry) => entry.id)).toEqual(line.map((entry) => entry.id));
      expect(entries.slice(0, 100).every((entry) => entry.status === "offered")).toBe(true);
      expect(entries.slice(100).every((entry) => entry.status === "waiting")).toBe(true);
      const codes = entries.flatMap((entry) => (entry.voucherId ? [entry.voucherId] : []));
      expect(new Set(codes).size).toBe(100);
      const made = await setup.select({ id: vouchers.id }).from(vouchers);
      expect(made).toHaveLength(100);
    });
  },
);
