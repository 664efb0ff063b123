import { describe, expect, it } from "vitest";
import { checkoutFor, createBuyers, createTestEvent, fillCart, NOW } from "~/features/checkout/stock.test-support";
import { startCheckout } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import { appServerPools } from "~/server/db/server-pools.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { orders } from "../../../db/schema";
import { creditStatement, spendCredit } from "./credit.server";
import { giveCredit, ledgerOf } from "./credit.test-support";
import { balanceOf } from "./credit-rules";

/**
 * Spending one member's credit from two app servers at once: two connection pools on one
 * PostgreSQL database. PGlite runs one transaction at a time, so this runs only when DATABASE_URL
 * is set.
 */
describe.skipIf(!process.env.DATABASE_URL)(
  "account credit under contention (PostgreSQL only: set DATABASE_URL)",
  { timeout: 180_000 },
  () => {
    const database = freshDatabasePerFile();
    const servers = appServerPools(database, { count: 2, max: 10 });

    it("40 spends of £3 at once on two servers, against £10 of credit, spend exactly £10", async () => {
      const { db: setup } = database();
      const [member] = await createBuyers(setup, 1);
      const userId = member!.id;
      await giveCredit(setup, { userId, amount: 600, expiresAt: null, now: NOW });
      await giveCredit(setup, { userId, amount: 400, expiresAt: new Date(NOW.getTime() + 86_400_000), now: NOW });
      const orderIds = (
        await setup
          .insert(orders)
          .values(
            Array.from({ length: 40 }, () => ({
              userId,
              email: member!.email,
              status: "pending" as const,
              currency: "GBP",
              subtotal: 300,
              total: 300,
              provider: "test" as const,
            })),
          )
          .returning({ id: orders.id })
      ).map((order) => order.id);

      const spend = (server: Db, orderId: string) =>
        server.transaction((tx) => spendCredit(tx, { userId, orderId, upTo: 300, currency: "GBP", now: NOW }));
      const spent = await Promise.all(orderIds.map((orderId, index) => spend(servers[index % 2]!, orderId)));

      expect(spent.reduce((sum, amount) => sum + amount, 0)).toBe(1000);
      expect(spent.filter((amount) => amount === 300)).toHaveLength(3);
      expect(spent.filter((amount) => amount === 100)).toHaveLength(1);
      const ledger = await ledgerOf(setup, userId);
      expect(balanceOf(ledger.map((line, index) => ({ ...line, id: String(index), createdAt: NOW })))).toBe(0);
      expect(await creditStatement(setup, { userId, now: NOW })).toMatchObject({ available: 0, balance: 0 });
    });

    it("two checkouts of one member at once never spend the same credit twice", async () => {
      const { db: setup } = database();
      const [member] = await createBuyers(setup, 1);
      const { typeIds } = await createTestEvent(setup, { types: [{ name: "Adult", price: 2500 }] });
      await giveCredit(setup, { userId: member!.id, amount: 2000, expiresAt: null, now: NOW });
      const cartId = await fillCart(setup, member!.id, [{ ticketTypeId: typeIds[0]!, quantity: 1 }]);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          startCheckout(servers[index % 2]!, { ...checkoutFor(member!, cartId), idempotencyKey: `race-${index}` }),
        ),
      );
      expect(results.every((result) => result.ok)).toBe(true);
      // Each newer checkout replaced the one before it and gave its credit back: one order is
      // left pending, with the credit spent once.
      const statement = await creditStatement(setup, { userId: member!.id, now: NOW });
      expect(statement).toMatchObject({ available: 0, balance: 0 });
      const pending = results.filter((result) => result.ok && result.order.status === "pending");
      expect(pending.length).toBeGreaterThan(0);
      const ledger = await ledgerOf(setup, member!.id);
      const spent = ledger.filter((line) => line.kind === "spend").reduce((sum, line) => sum - line.amount, 0);
      const returned = ledger
        .filter((line) => line.kind === "spend_returned")
        .reduce((sum, line) => sum + line.amount, 0);
      expect(spent - returned).toBe(2000);
    });
  },
);
