import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  checkoutFor,
  createBuyers,
  createTestEvent,
  fillCart,
  NOW,
  paidInFull,
} from "~/features/checkout/stock.test-support";
import { spendableCredit } from "~/features/credit/credit.server";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import { BRAND } from "~/features/transfers/transfers.test-support";
import type { Db } from "~/server/db/client.server";
import { appServerPools } from "~/server/db/server-pools.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { bookingMoves, orderItems, tickets, ticketTypes } from "../../../db/schema";
import { type MoveInput, moveBooking } from "./moves.server";

const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

/** Paid bookings of `quantity` tickets each, by `count` buyers, of one £40 type. */
async function bookings(db: Db, typeId: string, count: number, quantity: number) {
  const buyers = await createBuyers(db, count);
  const made = [];
  for (const buyer of buyers) {
    const cartId = await fillCart(db, buyer.id, [{ ticketTypeId: typeId, quantity }]);
    const started = await startCheckout(db, checkoutFor(buyer, cartId));
    if (!started.ok) throw new Error(JSON.stringify(started.problems));
    expect((await settleOrder(db, paidInFull(started.order))).kind).toBe("settled");
    const [line] = await db
      .select({ id: orderItems.id })
      .from(orderItems)
      .where(eq(orderItems.orderId, started.order.id));
    made.push({ buyer, orderId: started.order.id, orderItemId: line!.id });
  }
  return made;
}

function moveOf(booking: { orderId: string; orderItemId: string }, toTicketTypeId: string, actorId: string): MoveInput {
  return {
    ...booking,
    quantity: 2,
    toTicketTypeId,
    backTo: "money",
    extra: "charge",
    reason: "New date",
    actorId,
    now: at(5),
    currency: "GBP",
    provider: "test",
  };
}

/**
 * Moves under real contention, as two app servers would: two connection pools on one PostgreSQL
 * database. PGlite runs one transaction at a time, so this runs only when DATABASE_URL is set.
 */
describe.skipIf(!process.env.DATABASE_URL)(
  "moving bookings under contention (PostgreSQL only: set DATABASE_URL)",
  { timeout: 120_000 },
  () => {
    const database = freshDatabasePerFile();
    const servers = appServerPools(database, { count: 2, max: 10 });

    it("the same booking moved by eight admins at once on two servers: it moves once, its value carried once", async () => {
      const { db: setup } = database();
      const { typeIds } = await createTestEvent(setup, {
        types: [
          { name: "Saturday", price: 4000 },
          { name: "Sunday", price: 4000 },
        ],
      });
      const [booking] = await bookings(setup, typeIds[0]!, 1, 2);
      const admins = await createBuyers(setup, 8);
      const outcomes = await Promise.all(
        admins.map((admin, index) => moveBooking(servers[index % 2]!, moveOf(booking!, typeIds[1]!, admin.id), BRAND)),
      );
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
      for (const outcome of outcomes.filter((each) => !each.ok)) {
        expect(outcome).toEqual({
          ok: false,
          message: "None of these tickets can move: they are used, refunded, passed on or back on sale.",
        });
      }
      const moves = await setup.select().from(bookingMoves).where(eq(bookingMoves.fromOrderId, booking!.orderId));
      expect(moves).toHaveLength(1);
      const [sunday] = await setup
        .select({ sold: ticketTypes.sold })
        .from(ticketTypes)
        .where(eq(ticketTypes.id, typeIds[1]!));
      expect(sunday!.sold).toBe(2);
      expect(await spendableCredit(setup, { userId: booking!.buyer.id, now: at(10) })).toBe(0);
    });

    it("twelve bookings moving into six places while twelve buyers try for them on two servers: never over capacity", async () => {
      const { db: setup } = database();
      const { typeIds } = await createTestEvent(setup, {
        types: [
          { name: "Saturday", price: 4000, capacity: 100 },
          { name: "Sunday", price: 4000, capacity: 6 },
        ],
      });
      const booked = await bookings(setup, typeIds[0]!, 12, 2);
      const admins = await createBuyers(setup, 1);
      const buyers = await createBuyers(setup, 12);
      const carts = await Promise.all(
        buyers.map((buyer) => fillCart(setup, buyer.id, [{ ticketTypeId: typeIds[1]!, quantity: 1 }])),
      );
      const moving = booked.map((booking, index) =>
        moveBooking(servers[index % 2]!, moveOf(booking, typeIds[1]!, admins[0]!.id), BRAND),
      );
      const buying = buyers.map(async (buyer, index) => {
        const started = await startCheckout(servers[(index + 1) % 2]!, checkoutFor(buyer, carts[index]!, at(5)));
        if (!started.ok) return false;
        const settled = await settleOrder(servers[index % 2]!, paidInFull(started.order, at(6)));
        return settled.kind === "settled";
      });
      const [moved, bought] = await Promise.all([Promise.all(moving), Promise.all(buying)]);
      const movedCount = moved.filter((outcome) => outcome.ok).length;
      const boughtCount = bought.filter(Boolean).length;
      expect(movedCount * 2 + boughtCount).toBeLessThanOrEqual(6);
      expect(movedCount + boughtCount).toBeGreaterThan(0);

      const [sunday] = await setup
        .select({ sold: ticketTypes.sold })
        .from(ticketTypes)
        .where(eq(ticketTypes.id, typeIds[1]!));
      expect(sunday!.sold).toBe(movedCount * 2 + boughtCount);
      const valid = await setup
        .select({ id: tickets.id })
        .from(tickets)
        .where(inArray(tickets.ticketTypeId, [typeIds[1]!]));
      expect(valid).toHaveLength(sunday!.sold);
      // Every refused move left its booking whole: two valid Saturday tickets each.
      const saturday = await setup
        .select({ sold: ticketTypes.sold })
        .from(ticketTypes)
        .where(eq(ticketTypes.id, typeIds[0]!));
      expect(saturday[0]!.sold).toBe(24 - movedCount * 2);
    });
  },
);
