import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckoutResult } from "~/features/commerce/checkout.server";
import { expireHolds } from "~/features/commerce/holds.server";
import { cancelOrder } from "~/features/orders/cancel.server";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import { availabilityByTicketType } from "~/features/tickets/ticket-stock.server";
import type { Db } from "~/server/db/client.server";
import { retriedTransactions } from "~/server/db/retry.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import * as schema from "../../../db/schema";
import { cartItems, carts, holds, orders, tickets, ticketTypes } from "../../../db/schema";
import { checkoutFor, createBuyers, createTestEvent, NOW, paidInFull } from "./stock.test-support";

/**
 * Capacity under real contention. PGlite runs one transaction at a time, so only PostgreSQL can show
 * a race: these tests run when DATABASE_URL is set and are skipped otherwise. Every checkout for
 * one event queues on the event's row: on a busy 2-core machine the 500 take 4–12 s, so these
 * tests get more time than the default.
 */
describe.skipIf(!process.env.DATABASE_URL)(
  "checkout under contention (PostgreSQL only: set DATABASE_URL)",
  { timeout: 120_000 },
  () => {
    const database = freshDatabasePerFile();
    let pool: pg.Pool;
    let db: Db;
    const closed: Promise<void>[] = [];
    const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

    beforeAll(() => {
      // As many connections as a few app servers would bring; waiting for one is part of the race.
      pool = new pg.Pool({ connectionString: database().url, max: 40, connectionTimeoutMillis: 120_000 });
      pool.on("connect", (client) => closed.push(new Promise((resolve) => client.once("end", () => resolve()))));
      db = drizzle(pool, { schema }) as unknown as Db;
    });
    // The pool's end resolves before its sockets close; the database is dropped only after they have.
    afterAll(async () => {
      await pool?.end();
      await Promise.all(closed);
    });

    async function cartsFor(
      buyers: { id: string }[],
      lines: (index: number) => { ticketTypeId: string; quantity: number }[],
    ) {
      const { db: setup } = database();
      const made = await setup
        .insert(carts)
        .values(buyers.map((buyer) => ({ userId: buyer.id })))
        .returning({ id: carts.id, userId: carts.userId });
      const cartOf = new Map(made.map((cart) => [cart.userId!, cart.id]));
      await setup
        .insert(cartItems)
        .values(
          buyers.flatMap((buyer, index) =>
            lines(index).map((line) => ({ cartId: cartOf.get(buyer.id)!, kind: "ticket" as const, ...line })),
          ),
        );
      return cartOf;
    }

    async function heldAndSold(typeIds: string[], now: Date) {
      const counts = await availabilityByTicketType(database().db, typeIds, now);
      return typeIds.map((id) => counts.get(id)!);
    }

    it("500 buyers racing for the last 100 places: exactly 100 held, none oversold, the rest told why", async () => {
      const { typeIds, title } = await createTestEvent(database().db, {
        title: "Last Hundred",
        types: [{ name: "Paddock pass", capacity: 100 }],
      });
      const typeId = typeIds[0]!;
      const buyers = await createBuyers(database().db, 500);
      // One buyer in three wants two tickets: demand is 667 places for 100.
      const quantityOf = (index: number) => (index % 3 === 0 ? 2 : 1);
      const cartOf = await cartsFor(buyers, (index) => [{ ticketTypeId: typeId, quantity: quantityOf(index) }]);
      const retriesBefore = retriedTransactions();

      const started = performance.now();
      const settled = await Promise.allSettled(
        buyers.map((buyer) => startCheckout(db, checkoutFor(buyer, cartOf.get(buyer.id)!))),
      );
      const checkoutMs = performance.now() - started;

      const failures = settled.filter((result) => result.status === "rejected");
      expect(failures.map((failure) => String((failure as PromiseRejectedResult).reason))).toEqual([]);
      const results = settled.map((result) => (result as PromiseFulfilledResult<CheckoutResult>).value);
      const accepted = results.flatMap((result, index) => (result.ok ? [{ index, order: result.order }] : []));
      const refused = results.flatMap((result) => (result.ok ? [] : [result]));

      const heldPlaces = accepted.reduce((sum, { index }) => sum + quantityOf(index), 0);
      expect(heldPlaces).toBe(100);
      expect(await heldAndSold([typeId], NOW)).toEqual([{ sold: 0, held: 100 }]);
      expect(accepted.length + refused.length).toBe(500);
      for (const result of refused) {
        expect(result.problems).toHaveLength(1);
        const [problem] = result.problems;
        expect(problem!.ticketTypeId).toBe(typeId);
        expect(problem!.code === "sold_out" || problem!.code === "not_enough").toBe(true);
        expect(problem!.message).toMatch(
          problem!.code === "sold_out"
            ? `Paddock pass tickets for ${title} are sold out`
            : `Only 1 Paddock pass ticket is left for ${title}`,
        );
      }
      // Prevented, not retried: the fixed lock order leaves PostgreSQL no deadlock to break.
      expect(retriedTransactions() - retriesBefore).toBe(0);

      // Everyone who holds places pays at once: 100 sold, 100 tickets, the CHECK never tripped.
      const paying = performance.now();
      const outcomes = await Promise.all(accepted.map(({ order }) => settleOrder(db, paidInFull(order, minutes(5)))));
      const settleMs = performance.now() - paying;
      expect(outcomes.every((outcome) => outcome.kind === "settled")).toBe(true);
      expect(await heldAndSold([typeId], minutes(5))).toEqual([{ sold: 100, held: 0 }]);
      const [{ count }] = (await database()
        .db.select({ count: sql<number>`count(*)::int` })
        .from(tickets)
        .where(eq(tickets.ticketTypeId, typeId))) as [{ count: number }];
      expect(count).toBe(100);
      console.info(
        `500 buyers / 100 places: checkout ${Math.round(checkoutMs)} ms (${accepted.length} orders, ${refused.length} refused), ` +
          `${accepted.length} settlements ${Math.round(settleMs)} ms, pool of 40`,
      );
    });

    it("shares an event's own capacity across two ticket types under contention", async () => {
      const { typeIds } = await createTestEvent(database().db, {
        title: "Shared Yard",
        capacity: 60,
        types: [
          { name: "Driver", capacity: 50 },
          { name: "Passenger", capacity: 50 },
        ],
      });
      const [driver, passenger] = typeIds as [string, string];
      const buyers = await createBuyers(database().db, 200);
      // A third want a driver ticket, a third a passenger ticket, a third one of each.
      const linesOf = (index: number) =>
        index % 3 === 0
          ? [{ ticketTypeId: driver, quantity: 1 }]
          : index % 3 === 1
            ? [{ ticketTypeId: passenger, quantity: 1 }]
            : [
                { ticketTypeId: driver, quantity: 1 },
                { ticketTypeId: passenger, quantity: 1 },
              ];
      const cartOf = await cartsFor(buyers, linesOf);
      const retriesBefore = retriedTransactions();

      const results = await Promise.all(
        buyers.map((buyer) => startCheckout(db, checkoutFor(buyer, cartOf.get(buyer.id)!))),
      );
      const [drivers, passengers] = await heldAndSold(typeIds, NOW);
      expect(drivers!.held + passengers!.held).toBe(60);
      expect(drivers!.held).toBeLessThanOrEqual(50);
      expect(passengers!.held).toBeLessThanOrEqual(50);
      const placesInOrders = results.reduce(
        (sum, result, index) => sum + (result.ok ? linesOf(index).reduce((n, line) => n + line.quantity, 0) : 0),
        0,
      );
      expect(placesInOrders).toBe(60);
      for (const result of results) {
        if (!result.ok) expect(result.problems[0]!.message).toMatch(/(Driver|Passenger) tickets? (for|is|are)/);
      }
      expect(retriedTransactions() - retriesBefore).toBe(0);
    });

    it("keeps capacity while checkouts, payments, cancellations, replacements and expiry all run at once", async () => {
      const { typeIds } = await createTestEvent(database().db, {
        title: "Busy Night",
        types: [{ name: "Entry", capacity: 50 }],
      });
      const typeId = typeIds[0]!;
      const buyers = await createBuyers(database().db, 300);
      const cartOf = await cartsFor(buyers, () => [{ ticketTypeId: typeId, quantity: 1 }]);
      const retriesBefore = retriedTransactions();
      const checkout = (buyer: { id: string; email: string }, now: Date) =>
        startCheckout(db, checkoutFor(buyer, cartOf.get(buyer.id)!, now));
      const pay = (orderId: string, now: Date) =>
        settleOrder(db, { orderId, provider: "test", paymentReference: `pay_${orderId}`, amount: 1500, now });

      const first = await Promise.all(buyers.slice(0, 100).map((buyer) => checkout(buyer, NOW)));
      const holders = first.flatMap((result, index) =>
        result.ok ? [{ buyer: buyers[index]!, order: result.order }] : [],
      );
      expect(holders).toHaveLength(50);

      // Five minutes on: 25 pay (each payment reported twice), 10 cancel, 10 start checkout again,
      // 200 newcomers try their luck and the expiry job runs, all at the same time.
      const at5 = minutes(5);
      await Promise.all([
        ...holders.slice(0, 25).flatMap(({ order }) => [pay(order.id, at5), pay(order.id, at5)]),
        ...holders
          .slice(25, 35)
          .map(({ order }) => cancelOrder(db, { orderId: order.id, reason: "Changed my mind", now: at5 })),
        ...holders.slice(35, 45).map(({ buyer }) => checkout(buyer, at5)),
        ...buyers.slice(100).map((buyer) => checkout(buyer, at5)),
        expireHolds(db, at5),
      ]);
      let [counts] = await heldAndSold([typeId], at5);
      expect(counts!.sold).toBe(25);
      expect(counts!.sold + counts!.held).toBeLessThanOrEqual(50);

      // Twenty-five minutes on every hold has run out: every unpaid order's payment arrives late,
      // while the expiry job runs and 50 more buyers check out.
      const at25 = minutes(25);
      const unpaid = await database()
        .db.select({ id: orders.id })
        .from(orders)
        .innerJoin(holds, eq(holds.orderId, orders.id))
        .where(and(eq(holds.ticketTypeId, typeId), inArray(orders.status, ["pending", "expired"])));
      const late = await Promise.all([
        ...unpaid.map(({ id }) => pay(id, at25)),
        expireHolds(db, at25),
        ...buyers.slice(250).map((buyer) => checkout(buyer, at25)),
      ]);
      [counts] = await heldAndSold([typeId], at25);
      expect(counts!.sold + counts!.held).toBeLessThanOrEqual(50);
      const [stored] = await database()
        .db.select({ sold: ticketTypes.sold })
        .from(ticketTypes)
        .where(eq(ticketTypes.id, typeId));
      const issued = await database()
        .db.select({ id: tickets.id })
        .from(tickets)
        .where(eq(tickets.ticketTypeId, typeId));
      expect(issued).toHaveLength(stored!.sold);
      const lateOutcomes = late.slice(0, unpaid.length) as Awaited<ReturnType<typeof settleOrder>>[];
      expect(lateOutcomes.every((outcome) => ["settled", "refund_required"].includes(outcome.kind))).toBe(true);
      // No live hold outlasts its order's payment.
      const stray = await database()
        .db.select({ id: holds.id })
        .from(holds)
        .innerJoin(orders, eq(orders.id, holds.orderId))
        .where(
          and(
            eq(holds.status, "active"),
            gt(holds.expiresAt, at25),
            inArray(orders.status, ["paid", "cancelled", "expired"]),
          ),
        );
      expect(stray).toHaveLength(0);
      expect(retriedTransactions() - retriesBefore).toBe(0);
    });
  },
);
