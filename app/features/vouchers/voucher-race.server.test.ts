import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findCart } from "~/features/cart/cart.server";
import { checkoutFor, createBuyers, NOW, paidInFull } from "~/features/checkout/stock.test-support";
import { addMembershipToCart } from "~/features/membership/cart-membership.server";
import { readTierPlaces } from "~/features/membership/tier-places.server";
import { createTestTier } from "~/features/membership/tiers.test-support";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import { appServerPools } from "~/server/db/server-pools.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { carts } from "../../../db/schema";
import { readVoucherUses } from "./voucher-uses.server";
import { createTestVoucher } from "./vouchers.test-support";

/**
 * The last uses of a code and the last places on a capped tier under real contention, as two app
 * servers would see them: two connection pools on one PostgreSQL database. PGlite runs one
 * transaction at a time, so this runs only when DATABASE_URL is set.
 */
describe.skipIf(!process.env.DATABASE_URL)(
  "joining with a code under contention (PostgreSQL only: set DATABASE_URL)",
  { timeout: 180_000 },
  () => {
    const database = freshDatabasePerFile();
    const servers = appServerPools(database, { count: 2, max: 15 });

    it("200 members on two servers race for a code of 50 uses and a tier of 100: exactly 50 uses and 100 members", async () => {
      const { db: setup } = database();
      const tier = await createTestTier(setup, { name: "Founders", price: 3000, capacity: 100 });
      const voucher = await createTestVoucher(setup, { code: "FIRST50", maxUses: 50, tierIds: [tier.id] });
      const buyers = await createBuyers(setup, 200);
      const cartIds: string[] = [];
      for (const buyer of buyers) {
        const added = await addMembershipToCart(setup, { userId: buyer.id, tierId: tier.id, people: [], now: NOW });
        if (!added.ok) throw new Error(added.problem.message);
        const cartId = (await findCart(setup, { userId: buyer.id }))!;
        await setup.update(carts).set({ voucherId: voucher.id }).where(eq(carts.id, cartId));
        cartIds.push(cartId);
      }

      // Each buyer pays with the code; told it is used up, they take it out and pay full price.
      const messages = new Set<string>();
      async function join(server: Db, index: number) {
        const buyer = buyers[index]!;
        const cartId = cartIds[index]!;
        const first = await startCheckout(server, checkoutFor(buyer, cartId));
        if (first.ok) return { order: first.order, withCode: true };
        for (const problem of first.problems) messages.add(problem.message);
        if (!first.problems.some((problem) => problem.code === "voucher")) return null;
        await server.update(carts).set({ voucherId: null }).where(eq(carts.id, cartId));
        const again = await startCheckout(server, checkoutFor(buyer, cartId));
        if (!again.ok) for (const problem of again.problems) messages.add(problem.message);
        return again.ok ? { order: again.order, withCode: false } : null;
      }
      const joined = (await Promise.all(buyers.map((_, index) => join(servers[index % 2]!, index)))).filter(
        (outcome) => outcome !== null,
      );
      expect(joined).toHaveLength(100);
      expect(joined.filter((outcome) => outcome.withCode)).toHaveLength(50);
      expect(joined.filter((outcome) => outcome.withCode).every((outcome) => outcome.order.total === 2700)).toBe(true);
      expect([...messages].sort()).toEqual([
        "Founders is full: every place has been taken",
        "The code FIRST50 has been used up. Remove the code to pay without it.",
      ]);

      const paidAt = new Date(NOW.getTime() + 60_000);
      const outcomes = await Promise.all(
        joined.map((outcome, index) => settleOrder(servers[index % 2]!, paidInFull(outcome.order, paidAt))),
      );
      expect(outcomes.every((outcome) => outcome.kind === "settled")).toBe(true);
      const later = new Date(NOW.getTime() + 120_000);
      expect(await readVoucherUses(setup, voucher.id, { now: later })).toEqual({ all: 50, member: 0 });
      const places = (await readTierPlaces(setup, [tier.id], later, { lock: false })).tiers.get(tier.id);
      expect(places).toMatchObject({ members: 100, held: 0 });
    });
  },
);
