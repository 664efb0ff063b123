import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { CheckoutResult } from "~/features/commerce/checkout.server";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import { retriedTransactions } from "~/server/db/retry.server";
import { appServerPools } from "~/server/db/server-pools.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { holds, orderItems, orders, productVariants } from "../../../db/schema";
import { createTestProduct, DELIVERY, fillMerchCart, setShippingRates } from "./merch.test-support";
import { checkoutFor, createBuyers, NOW, paidInFull } from "./stock.test-support";

/**
 * The last units of one variant under real contention, as two app servers would see it: two
 * separate connection pools on one PostgreSQL database. PGlite runs one transaction at a time,
 * so this runs only when DATABASE_URL is set.
 */
describe.skipIf(!process.env.DATABASE_URL)(
  "merch checkout under contention (PostgreSQL only: set DATABASE_URL)",
  { timeout: 120_000 },
  () => {
    const database = freshDatabasePerFile();
    const servers = appServerPools(database, { count: 2, max: 15 });

    /** Each buyer checks out their cart of merch for delivery, the buyers spread over both servers. */
    const checkOutAll = (buyers: { id: string; email: string }[], carts: string[]) =>
      Promise.all(
        buyers.map((buyer, index) =>
          startCheckout(servers[index % 2]!, { ...checkoutFor(buyer, carts[index]!), shipping: DELIVERY }),
        ),
      );

    /** What is left on the shelf of a variant, and how many units paid orders hold. */
    async function shelf(variantId: string) {
      const { db } = database();
      const [variant] = await db
        .select({ stock: productVariants.stock })
        .from(productVariants)
        .where(eq(productVariants.id, variantId));
      const sold = await db
        .select({ quantity: orderItems.quantity })
        .from(orderItems)
        .innerJoin(orders, eq(orders.id, orderItems.orderId))
        .where(eq(orders.status, "paid"));
      return { stock: variant!.stock, sold: sold.reduce((sum, line) => sum + line.quantity, 0) };
    }

    it("200 buyers on two servers racing for the last 12 tees, some wanting two: never oversold, the rest told why, then exactly 12 sold", async () => {
      const { db: setup } = database();
      await setShippingRates(setup, { flatFee: 495, freeOver: null, countries: ["GB"] });
      const { variantIds } = await createTestProduct(setup, {
        title: "Last Tee",
        optionNames: ["Size"],
        variants: [{ options: ["XL"], price: 2500, stock: 12 }],
      });
      const variantId = variantIds[0]!;
      const buyers = await createBuyers(setup, 200);
      // One buyer in four wants two: demand is 250 units for 12.
      const quantityOf = (index: number) => (index % 4 === 0 ? 2 : 1);
      const carts = await Promise.all(
        buyers.map((buyer, index) => fillMerchCart(setup, buyer.id, [{ variantId, quantity: quantityOf(index) }])),
      );
      const retriesBefore = retriedTransactions();

      const results: CheckoutResult[] = await checkOutAll(buyers, carts);

      const accepted = results.flatMap((result, index) => (result.ok ? [{ result, index }] : []));
      const heldUnits = accepted.reduce((sum, { index }) => sum + quantityOf(index), 0);
      expect(heldUnits).toBeLessThanOrEqual(12);
      // Refused buyers are refused for the stock, each with a message naming the tee.
      for (const result of results) {
        if (result.ok) continue;
        expect(result.problems).toHaveLength(1);
        expect(result.problems[0]!.message).toMatch(/^(Only 1 of Last Tee \(XL\) left|Last Tee \(XL\) is sold out)$/);
      }
      // Units fill up exactly: only a two-unit buyer can be refused while a single one is left.
      expect(heldUnits).toBeGreaterThanOrEqual(11);

      // Settlement of every held order, again from both servers at once.
      const outcomes = await Promise.all(
        accepted.map(({ result }, index) => {
          if (!result.ok) throw new Error("unreachable");
          return settleOrder(servers[index % 2]!, paidInFull(result.order, new Date(NOW.getTime() + 60_000)));
        }),
      );
      expect(outcomes.every((outcome) => outcome.kind === "settled")).toBe(true);

      const rush = await shelf(variantId);
      expect(rush.stock).toBe(12 - rush.sold);
      expect(rush.stock).toBeGreaterThanOrEqual(0);
      expect(rush.sold).toBe(heldUnits);
      const active = await setup.select({ id: holds.id }).from(holds).where(eq(holds.status, "active"));
      expect(active).toEqual([]);
      expect(retriedTransactions() - retriesBefore).toBe(0);

      // A last buyer of one unit after the rush: refused unless a single unit was left over.
      const [late] = await createBuyers(setup, 1);
      const lateCart = await fillMerchCart(setup, late!.id, [{ variantId, quantity: 1 }]);
      const lateResult = await startCheckout(servers[0]!, {
        ...checkoutFor(late!, lateCart, new Date(NOW.getTime() + 120_000)),
        shipping: DELIVERY,
      });
      expect(lateResult.ok).toBe(rush.stock === 1);
      if (lateResult.ok) {
        await settleOrder(servers[1]!, paidInFull(lateResult.order, new Date(NOW.getTime() + 180_000)));
      }
      // In the end exactly the 12 on the shelf are sold, and the shelf is empty.
      expect(await shelf(variantId)).toEqual({ stock: 0, sold: 12 });
    });

    it("sells exactly the last N when everyone wants one: stock ends at 0", async () => {
      const { db: setup } = database();
      const { variantIds } = await createTestProduct(setup, {
        title: "Sticker pack",
        variants: [{ price: 500, stock: 25 }],
      });
      const variantId = variantIds[0]!;
      const buyers = await createBuyers(setup, 150);
      const carts = await Promise.all(
        buyers.map((buyer) => fillMerchCart(setup, buyer.id, [{ variantId, quantity: 1 }])),
      );
      const results = await checkOutAll(buyers, carts);
      const accepted = results.filter((result) => result.ok);
      expect(accepted).toHaveLength(25);
      for (const result of results) {
        if (!result.ok) expect(result.problems.map((problem) => problem.message)).toEqual(["Sticker pack is sold out"]);
      }
      await Promise.all(
        accepted.map((result, index) =>
          result.ok
            ? settleOrder(servers[index % 2]!, paidInFull(result.order, new Date(NOW.getTime() + 60_000)))
            : null,
        ),
      );
      expect((await shelf(variantId)).stock).toBe(0);
    });
  },
);
