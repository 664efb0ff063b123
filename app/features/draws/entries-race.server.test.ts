import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutFor, paidInFull } from "~/features/checkout/stock.test-support";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import { appServerPools } from "~/server/db/server-pools.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { drawEntries, draws } from "../../../db/schema";
import { createEntrants, createTestDraw, DRAW_NOW, fillEntryCart, postalEntry } from "./draws.test-support";
import { enterGiveaway } from "./enter.server";

/**
 * Entry caps under real contention: PGlite runs one transaction at a time, so these run on
 * PostgreSQL only (DATABASE_URL set), with two connection pools standing for two app servers.
 */
describe.skipIf(!process.env.DATABASE_URL)(
  "entries under contention (PostgreSQL only: set DATABASE_URL)",
  { timeout: 180_000 },
  () => {
    const database = freshDatabasePerFile();
    const servers = appServerPools(database, { count: 2, max: 20 });

    const at = (seconds: number) => new Date(DRAW_NOW.getTime() + seconds * 1000);

    it("300 members racing for the last 50 entries on two servers: exactly 50 allocated, numbers unique, caps held", async () => {
      const { db } = database();
      const draw = await createTestDraw(db, { totalEntries: 250, maxPerMember: 3 });
      // 200 entries already gone, so 50 are left.
      const earlier = await createEntrants(db, 100);
      for (const member of earlier) {
        const cartId = await fillEntryCart(db, member.id, [
          { drawId: draw.id, entriesPerUnit: 1, quantity: 2, answer: 1 },
        ]);
        const result = await startCheckout(db, checkoutFor(member, cartId, at(1)));
        if (!result.ok) throw new Error(JSON.stringify(result.problems));
        await settleOrder(db, paidInFull(result.order, at(2)));
      }
      const racers = await createEntrants(db, 300);
      // Each wants 3 entries (their limit) and pays at once; one in three also sends a postal entry
      // that staff record meanwhile, which counts against the same limit and the same pool.
      const carts = await Promise.all(
        racers.map((member) =>
          fillEntryCart(db, member.id, [{ drawId: draw.id, entriesPerUnit: 1, quantity: 3, answer: 1 }]),
        ),
      );
      const outcomes = await Promise.all(
        racers.map(async (member, index) => {
          const server = servers[index % 2]!;
          if (index % 3 === 0) {
            await postalEntry(server, {
              drawId: draw.id,
              name: "Postal entrant",
              userId: member.id,
              actorId: earlier[0]!.id,
              at: at(3),
            });
          }
          const result = await startCheckout(server, checkoutFor(member, carts[index]!, at(3)));
          if (!result.ok) return { held: 0, settled: 0 };
          const settled = await settleOrder(servers[(index + 1) % 2]!, paidInFull(result.order, at(4)));
          return { held: 3, settled: settled.kind === "settled" ? (settled.issued.entry ?? 0) : 0 };
        }),
      );

      const entries = await db
        .select({ number: drawEntries.number, userId: drawEntries.userId })
        .from(drawEntries)
        .where(eq(drawEntries.drawId, draw.id));
      const [row] = await db.select().from(draws).where(eq(draws.id, draw.id));
      expect(entries).toHaveLength(250);
      expect(row!.allocated).toBe(250);
      expect(row!.status).toBe("closed");
      expect(new Set(entries.map((entry) => entry.number)).size).toBe(250);
      expect(entries.every((entry) => entry.number >= 1 && entry.number <= 250)).toBe(true);
      const perMember = new Map<string, number>();
      for (const entry of entries) perMember.set(entry.userId!, (perMember.get(entry.userId!) ?? 0) + 1);
      expect(Math.max(...perMember.values())).toBeLessThanOrEqual(3);
      const paid = outcomes.reduce((sum, outcome) => sum + outcome.settled, 0);
      const postal = (await db.execute(
        sql`select count(*)::int as n from draw_entries where draw_id = ${draw.id} and source = 'postal'`,
      )) as unknown as { rows: { n: number }[] };
      expect(paid + Number(postal.rows[0]!.n)).toBe(50);
    });

    it("a member entering a giveaway from two servers at once gets one entry", async () => {
      const { db } = database();
      const draw = await createTestDraw(db, { kind: "giveaway", price: 0, bundles: [], maxPerMember: 1 });
      const [member] = await createEntrants(db, 1);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          enterGiveaway(servers[index % 2]!, {
            drawId: draw.id,
            userId: member!.id,
            answer: 1,
            confirmedAdult: true,
            now: at(1),
          }),
        ),
      );
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      expect(await db.select().from(drawEntries).where(eq(drawEntries.drawId, draw.id))).toHaveLength(1);
    });
  },
);
