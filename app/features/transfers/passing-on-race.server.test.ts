import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutFor, createBuyers, fillCart, NOW, paidInFull } from "~/features/checkout/stock.test-support";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import { appServerPools } from "~/server/db/server-pools.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { orders, ticketHandBacks, tickets, ticketTypes, transactions } from "../../../db/schema";
import { handBackTicket, settleHandBacks, withdrawHandBack } from "./hand-backs.server";
import { acceptTransfer, sendTransfer } from "./transfers.server";
import { BRAND, soldOutWithHolder, tokenOf } from "./transfers.test-support";

const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

/**
 * Passing tickets on under real contention, as two app servers would: two connection pools on
 * one PostgreSQL database. PGlite runs one transaction at a time, so this runs only when
 * DATABASE_URL is set.
 */
describe.skipIf(!process.env.DATABASE_URL)(
  "passing tickets on under contention (PostgreSQL only: set DATABASE_URL)",
  { timeout: 120_000 },
  () => {
    const database = freshDatabasePerFile();
    const servers = appServerPools(database, { count: 2, max: 10 });

    it("ten people accepting one transfer link at once on two servers: one ticket moves, once", async () => {
      const { db: setup } = database();
      const { holder, tickets: held } = await soldOutWithHolder(setup, 1);
      const sent = await sendTransfer(setup, {
        userId: holder.id,
        ticketId: held[0]!.id,
        toName: "Sam",
        toEmail: "sam@example.test",
        now: NOW,
        brand: BRAND,
      });
      if (!sent.ok) throw new Error(sent.message);
      const token = tokenOf(sent.email);
      const takers = await createBuyers(setup, 10);
      const outcomes = await Promise.all(
        takers.map((taker, index) =>
          acceptTransfer(servers[index % 2]!, { token, userId: taker.id, now: at(1), brand: BRAND }),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
      const issued = await setup
        .select({ userId: tickets.userId, status: tickets.status })
        .from(tickets)
        .where(
          eq(tickets.orderId, (await setup.select().from(tickets).where(eq(tickets.id, held[0]!.id)))[0]!.orderId),
        );
      expect(issued.map((ticket) => ticket.status).sort()).toEqual(["transferred", "valid"]);
    });

    it("one place handed back, 20 buyers on two servers and the hand-back run on both: one sale, one refund, never over capacity", async () => {
      const { db: setup } = database();
      const { typeId, holder, orderId, tickets: held } = await soldOutWithHolder(setup, 3);
      await setup.update(ticketTypes).set({ maxPerOrder: 1 }).where(eq(ticketTypes.id, typeId));
      expect(await handBackTicket(setup, { userId: holder.id, ticketId: held[0]!.id, now: NOW })).toEqual({ ok: true });
      const buyers = await createBuyers(setup, 20);
      const carts = await Promise.all(
        buyers.map((buyer) => fillCart(setup, buyer.id, [{ ticketTypeId: typeId, quantity: 1 }])),
      );

      const attempts = await Promise.all([
        ...buyers.map(async (buyer, index) => {
          const db = servers[index % 2]!;
          const started = await startCheckout(db, checkoutFor(buyer, carts[index]!, at(1)));
          if (!started.ok) return "refused";
          const settled = await settleOrder(db, paidInFull(started.order, at(1)));
          await settleHandBacks(db, at(1));
          return settled.kind;
        }),
        // The holder changing their mind at the same moment.
        withdrawHandBack(servers[1]!, { userId: holder.id, ticketId: held[0]!.id, now: at(1) }).then((outcome) =>
          outcome.ok ? "withdrawn" : "kept on sale",
        ),
        settleHandBacks(servers[0]!, at(1)).then(() => "swept"),
      ]);
      await settleHandBacks(setup, at(2));

      const [type] = await setup.select({ sold: ticketTypes.sold }).from(ticketTypes).where(eq(ticketTypes.id, typeId));
      const admitting = await setup
        .select({ id: tickets.id })
        .from(tickets)
        .where(and(eq(tickets.ticketTypeId, typeId), inArray(tickets.status, ["valid", "checked_in"])));
      const [listing] = await setup.select().from(ticketHandBacks).where(eq(ticketHandBacks.ticketId, held[0]!.id));
      const refunds = await setup
        .select({ amount: transactions.amount })
        .from(transactions)
        .where(and(eq(transactions.orderId, orderId), eq(transactions.kind, "refund")));
      const paid = await setup
        .select({ id: orders.id })
        .from(orders)
        .where(
          and(
            inArray(
              orders.userId,
              buyers.map((buyer) => buyer.id),
            ),
            eq(orders.status, "paid"),
          ),
        );

      // Never more tickets admitting than places, and the counter agrees with the tickets.
      expect(admitting).toHaveLength(3);
      expect(type!.sold).toBe(3);
      if (attempts.includes("withdrawn")) {
        // The holder took it back before anyone held the place: nobody bought, nothing refunded.
        expect(paid).toHaveLength(0);
        expect(listing!.status).toBe("withdrawn");
        expect(refunds).toHaveLength(0);
      } else {
        expect(paid).toHaveLength(1);
        expect(listing!.status).toBe("sold");
        expect(refunds).toEqual([{ amount: 4500 }]);
      }
    });
  },
);
