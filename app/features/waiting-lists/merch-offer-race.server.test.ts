import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findCart } from "~/features/cart/cart.server";
import { DELIVERY, fillMerchCart, setShippingRates } from "~/features/checkout/merch.test-support";
import { checkoutFor, createBuyers, NOW, paidInFull } from "~/features/checkout/stock.test-support";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import { createTestProduct } from "~/features/shop/products.test-support";
import type { Db } from "~/server/db/client.server";
import { appServerPools } from "~/server/db/server-pools.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { seededRandom as seeded } from "~/server/seeded-random";
import { orderItems, orders, productVariants, waitingListEntries } from "../../../db/schema";
import { claimOffer } from "./waiting-lists.server";
import { runListsAt } from "./waiting-lists.test-support";

const HOUR = 3_600_000;

/** Writes these members onto a variant's line in this order, each waiting for `quantity` units. */
async function lineUp(db: Db, variantId: string, members: readonly { id: string }[], quantity = () => 1) {
  return db
    .insert(waitingListEntries)
    .values(members.map((member, index) => ({ variantId, userId: member.id, quantity: quantity(), sortKey: index })))
    .returning({ id: waitingListEntries.id });
}

/**
 * The merch offer sweep under real contention, as two app servers would run it: two connection
 * pools on one PostgreSQL database. PGlite runs one transaction at a time, so this runs only when
 * DATABASE_URL is set.
 */
describe.skipIf(!process.env.DATABASE_URL)(
  "offering merch units under contention (PostgreSQL only: set DATABASE_URL)",
  { timeout: 180_000 },
  () => {
    const database = freshDatabasePerFile();
    const servers = appServerPools(database, { count: 2, max: 10 });

    it("30 units on the shelf with 90 waiting, swept by two servers at once: exactly 30 offers, in line order", async () => {
      const { db: setup } = database();
      const tee = await createTestProduct(setup, { variants: [{ options: ["M"], stock: 30 }] });
      const variantId = tee.variantIds[0]!;
      const line = await lineUp(setup, variantId, await createBuyers(setup, 90));

      const runs = await Promise.all(Array.from({ length: 6 }, (_, index) => runListsAt(servers[index % 2]!, NOW)));
      expect(runs.reduce((sum, run) => sum + run.offered, 0)).toBe(30);
      expect(runs.reduce((sum, run) => sum + run.outbox.length, 0)).toBe(30);
      const entries = await setup
        .select({ id: waitingListEntries.id, status: waitingListEntries.status })
        .from(waitingListEntries)
        .where(eq(waitingListEntries.variantId, variantId))
        .orderBy(asc(waitingListEntries.sortKey));
      expect(entries.map((entry) => entry.id)).toEqual(line.map((entry) => entry.id));
      expect(entries.slice(0, 30).every((entry) => entry.status === "offered")).toBe(true);
      expect(entries.slice(30).every((entry) => entry.status === "waiting")).toBe(true);
    });

    for (const seed of [1, 2]) {
      it(`offers running out while others are bought, restocks and public buyers never sell past the shelf (seed ${seed})`, async () => {
        const random = seeded(seed);
        const { db: setup } = database();
        await setShippingRates(setup, { flatFee: 0, freeOver: null, countries: ["GB"] });
        const tee = await createTestProduct(setup, { variants: [{ options: ["M"], stock: 6, maxPerOrder: 4 }] });
        const variantId = tee.variantIds[0]!;
        const waiting = await createBuyers(setup, 24);
        await lineUp(setup, variantId, waiting, () => 1 + Math.floor(random() * 2));
        const public_ = await createBuyers(setup, 12);
        const server = () => servers[Math.floor(random() * 2)]!;
        let delivered = 6;

        async function buyOffer(db: Db, member: { id: string; email: string }, entryId: string, now: Date) {
          const claimed = await claimOffer(db, { userId: member.id, entryId, now });
          if (!claimed.ok) return;
          const cartId = (await findCart(db, { userId: member.id }))!;
          const started = await startCheckout(db, { ...checkoutFor(member, cartId, now), shipping: DELIVERY });
          if (started.ok) await settleOrder(db, paidInFull(started.order, now));
        }
        async function buyInPublic(db: Db, buyer: { id: string; email: string }, now: Date) {
          const cartId = await fillMerchCart(db, buyer.id, [{ variantId, quantity: 1 }]);
          const started = await startCheckout(db, { ...checkoutFor(buyer, cartId, now), shipping: DELIVERY });
          if (started.ok) await settleOrder(db, paidInFull(started.order, now));
        }

        let now = NOW;
        for (let round = 0; round < 12; round++) {
          await Promise.all([runListsAt(server(), now), runListsAt(server(), now)]);
          const offered = await setup
            .select({ id: waitingListEntries.id, userId: waitingListEntries.userId })
            .from(waitingListEntries)
            .where(and(eq(waitingListEntries.variantId, variantId), eq(waitingListEntries.status, "offered")));
          const moves: Promise<unknown>[] = [];
          for (const offer of offered) {
            if (random() < 0.5) {
              const member = waiting.find((candidate) => candidate.id === offer.userId)!;
              moves.push(buyOffer(server(), member, offer.id, new Date(now.getTime() + random() * 20 * HOUR)));
            }
          }
          moves.push(buyInPublic(server(), public_[round]!, new Date(now.getTime() + random() * 20 * HOUR)));
          // Now and then a delivery lands while all this goes on.
          if (random() < 0.3) {
            delivered += 1;
            moves.push(
              server()
                .update(productVariants)
                .set({ stock: sql`${productVariants.stock} + 1` })
                .where(eq(productVariants.id, variantId)),
            );
          }
          await Promise.all(moves);

          now = new Date(now.getTime() + (1 + random() * 30) * HOUR);
          await runListsAt(server(), now);
          const [shelf] = await setup
            .select({ stock: productVariants.stock })
            .from(productVariants)
            .where(eq(productVariants.id, variantId));
          const [sold] = await setup
            .select({ units: sql<number>`coalesce(sum(${orderItems.quantity}), 0)::int`.mapWith(Number) })
            .from(orderItems)
            .innerJoin(orders, eq(orders.id, orderItems.orderId))
            .where(and(eq(orderItems.variantId, variantId), eq(orders.status, "paid")));
          const [kept] = await setup
            .select({ units: sql<number>`coalesce(sum(${waitingListEntries.quantity}), 0)::int`.mapWith(Number) })
            .from(waitingListEntries)
            .where(
              and(
                eq(waitingListEntries.variantId, variantId),
                eq(waitingListEntries.status, "offered"),
                gt(waitingListEntries.offerEndsAt, now),
              ),
            );
          // What was sold came off the shelf, and no offer holds more than is left on it.
          expect(sold!.units).toBeLessThanOrEqual(delivered);
          expect(shelf!.stock).toBe(delivered - sold!.units);
          expect(kept!.units).toBeLessThanOrEqual(shelf!.stock);
        }
        // While anyone still waits, every unit went to the line: the public bought none.
        const stillWaiting = await setup
          .select({ id: waitingListEntries.id })
          .from(waitingListEntries)
          .where(and(eq(waitingListEntries.variantId, variantId), eq(waitingListEntries.status, "waiting")));
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
        // And the line did buy: offers were taken up, not only left to run out.
        const bought = await setup
          .select({ id: waitingListEntries.id })
          .from(waitingListEntries)
          .where(and(eq(waitingListEntries.variantId, variantId), eq(waitingListEntries.status, "bought")));
        expect(bought.length).toBeGreaterThan(0);
      });
    }
  },
);
