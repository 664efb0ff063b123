import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findCart } from "~/features/cart/cart.server";
import {
  checkoutFor,
  createBuyers,
  createTestEvent,
  fillCart,
  NOW,
  paidInFull,
} from "~/features/checkout/stock.test-support";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import { readTicketStock } from "~/features/tickets/ticket-stock.server";
import type { Db } from "~/server/db/client.server";
import { appServerPools } from "~/server/db/server-pools.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { seededRandom as seeded } from "~/server/seeded-random";
import { orders, vouchers, waitingListEntries } from "../../../db/schema";
import { claimOffer } from "./waiting-lists.server";
import { joinInOrder, runListsAt } from "./waiting-lists.test-support";

const HOUR = 3_600_000;

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

    for (const seed of [1, 2, 3]) {
      it(`offers running out while others are bought and the public tries to buy never oversell (seed ${seed})`, async () => {
        const random = seeded(seed);
        const { db: setup } = database();
        const capacity = 10;
        const { eventId, typeIds } = await createTestEvent(setup, {
          types: [{ name: "Paddock", capacity, maxPerOrder: 4 }],
        });
        const typeId = typeIds[0]!;
        const waiting = await createBuyers(setup, 30);
        for (const member of waiting) {
          await joinInOrder(setup, typeId, [member], { quantity: 1 + Math.floor(random() * 2) });
        }
        const public_ = await createBuyers(setup, 40);
        const server = () => servers[Math.floor(random() * 2)]!;

        async function buyOffer(db: Db, member: { id: string; email: string }, entryId: string, now: Date) {
          const claimed = await claimOffer(db, { userId: member.id, entryId, now });
          if (!claimed.ok) return;
          const cartId = (await findCart(db, { userId: member.id }))!;
          const started = await startCheckout(db, checkoutFor(member, cartId, now));
          if (started.ok) await settleOrder(db, paidInFull(started.order, now));
        }
        async function buyInPublic(db: Db, buyer: { id: string; email: string }, now: Date) {
          const cartId = await fillCart(db, buyer.id, [{ ticketTypeId: typeId, quantity: 1 }]);
          const started = await startCheckout(db, checkoutFor(buyer, cartId, now));
          if (started.ok) await settleOrder(db, paidInFull(started.order, now));
        }

        let now = NOW;
        for (let round = 0; round < 12; round++) {
          await Promise.all([runListsAt(server(), now), runListsAt(server(), now)]);
          const offered = await setup
            .select({ id: waitingListEntries.id, userId: waitingListEntries.userId })
            .from(waitingListEntries)
            .where(and(eq(waitingListEntries.ticketTypeId, typeId), eq(waitingListEntries.status, "offered")));
          // Some take their offer, some let it run out; a public buyer tries alongside them.
          const moves: Promise<void>[] = [];
          for (const offer of offered) {
            if (random() < 0.5) {
              const member = waiting.find((candidate) => candidate.id === offer.userId)!;
              moves.push(buyOffer(server(), member, offer.id, new Date(now.getTime() + random() * 20 * HOUR)));
            }
          }
          moves.push(buyInPublic(server(), public_[round]!, new Date(now.getTime() + random() * 20 * HOUR)));
          await Promise.all(moves);

          now = new Date(now.getTime() + (1 + random() * 30) * HOUR);
          // Settles the offers bought or run out, and offers again: what is held then is live.
          await runListsAt(server(), now);
          const stock = await readTicketStock(setup, [eventId], now, { lock: false });
          const sold = stock.types.get(typeId)!.sold;
          const [kept] = await setup
            .select({ places: sql<number>`coalesce(sum(${waitingListEntries.quantity}), 0)::int`.mapWith(Number) })
            .from(waitingListEntries)
            .where(
              and(
                eq(waitingListEntries.ticketTypeId, typeId),
                eq(waitingListEntries.status, "offered"),
                gt(waitingListEntries.offerEndsAt, now),
              ),
            );
          expect(sold).toBeLessThanOrEqual(capacity);
          expect(sold + kept!.places).toBeLessThanOrEqual(capacity);
        }
        // While anyone is still waiting, every place that came back went to the line: the public got none.
        const stillWaiting = await setup
          .select({ id: waitingListEntries.id })
          .from(waitingListEntries)
          .where(and(eq(waitingListEntries.ticketTypeId, typeId), eq(waitingListEntries.status, "waiting")));
        const publicOrders = await setup
          .select({ id: orders.id })
          .from(orders)
          .where(
            and(
              inArray(
                orders.userId,
                public_.map((buyer) => buyer.id),
              ),
              eq(orders.status, "paid"),
            ),
          );
        if (stillWaiting.length > 0) expect(publicOrders).toHaveLength(0);
        const stock = await readTicketStock(setup, [eventId], now, { lock: false });
        expect(stock.types.get(typeId)!.sold).toBeGreaterThan(0);
      });
    }
  },
);
