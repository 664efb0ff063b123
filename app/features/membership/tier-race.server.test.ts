import { describe, expect, it } from "vitest";
import { findCart } from "~/features/cart/cart.server";
import { checkoutFor, createBuyers, NOW, paidInFull } from "~/features/checkout/stock.test-support";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import { appServerPools } from "~/server/db/server-pools.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { addMembershipToCart } from "./cart-membership.server";
import { readTierPlaces } from "./tier-places.server";
import { createTestTier } from "./tiers.test-support";

/**
 * The last places on a capped tier under real contention, as two app servers would see it: two
 * separate connection pools on one PostgreSQL database. PGlite runs one transaction at a time,
 * so this runs only when DATABASE_URL is set.
 */
describe.skipIf(!process.env.DATABASE_URL)(
  "joining a capped tier under contention (PostgreSQL only: set DATABASE_URL)",
  { timeout: 120_000 },
  () => {
    const database = freshDatabasePerFile();
    const servers = appServerPools(database, { count: 2, max: 15 });

    it("200 members on two servers racing for a tier of 100: exactly 100 hold it, none over, the rest told why", async () => {
      const { db: setup } = database();
      const tier = await createTestTier(setup, { name: "Founders", capacity: 100 });
      const buyers = await createBuyers(setup, 200);
      const carts: string[] = [];
      for (const buyer of buyers) {
        const added = await addMembershipToCart(setup, { userId: buyer.id, tierId: tier.id, people: [], now: NOW });
        if (!added.ok) throw new Error(added.problem.message);
        carts.push((await findCart(setup, { userId: buyer.id }))!);
      }

      const results = await Promise.all(
        buyers.map((buyer, index) => startCheckout(servers[index % 2]!, checkoutFor(buyer, carts[index]!))),
      );
      const accepted = results.filter((result) => result.ok);
      expect(accepted).toHaveLength(100);
      for (const result of results) {
        if (!result.ok) {
          expect(result.problems.map((problem) => problem.message)).toEqual([
            "Founders is full: every place has been taken",
          ]);
        }
      }

      const outcomes = await Promise.all(
        accepted.map((result, index) => {
          if (!result.ok) throw new Error("unreachable");
          return settleOrder(servers[index % 2]!, paidInFull(result.order, new Date(NOW.getTime() + 60_000)));
        }),
      );
      expect(outcomes.every((outcome) => outcome.kind === "settled")).toBe(true);
      const later = new Date(NOW.getTime() + 120_000);
      const places = (await readTierPlaces(setup, [tier.id], later, { lock: false })).tiers.get(tier.id);
      expect(places).toMatchObject({ members: 100, held: 0 });

      // One more, after the rush: refused, and the tier stays at its cap.
      const [late] = await createBuyers(setup, 1);
      const refused = await addMembershipToCart(setup, { userId: late!.id, tierId: tier.id, people: [], now: later });
      expect(refused).toMatchObject({ ok: false, problem: { code: "full" } });
    });
  },
);
