import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findCart } from "~/features/cart/cart.server";
import { orderState, soldOf } from "~/features/checkout/payments.test-support";
import {
  addTicketLines,
  checkoutFor,
  createBuyers,
  createTestEvent,
  fillCart,
  NOW,
  paidInFull,
} from "~/features/checkout/stock.test-support";
import { expireHolds } from "~/features/commerce/holds.server";
import { spendableCredit } from "~/features/credit/credit.server";
import { giveCredit } from "~/features/credit/credit.test-support";
import { refundOrder, settleOrder, startCheckout } from "~/features/selling/selling.server";
import { BRAND } from "~/features/transfers/transfers.test-support";
import type { Db } from "~/server/db/client.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { auditLog, bookingMoves, orderItems, orders, ticketHandBacks, tickets } from "../../../db/schema";
import { type MoveInput, moveBooking } from "./moves.server";

const database = freshDatabasePerFile();
const hours = (n: number) => new Date(NOW.getTime() + n * 3_600_000);

/**
 * A booking of two £45 Saturday passes, paid, and a second date of the same meet with Sunday
 * passes at `sundayPrice` (the move's target), `sundayCapacity` places.
 */
async function booking(db: Db, options: { sundayPrice?: number; sundayCapacity?: number; capacity?: number } = {}) {
  const saturday = await createTestEvent(db, {
    title: "Spring meet",
    capacity: options.capacity ?? null,
    types: [
      { name: "Saturday pass", price: 4500, capacity: 50 },
      { name: "Sunday pass", price: options.sundayPrice ?? 4500, capacity: options.sundayCapacity ?? 50 },
    ],
  });
  const later = await createTestEvent(db, {
    title: "Spring meet, new date",
    startsAt: new Date("2027-07-10T09:00:00Z"),
    endsAt: new Date("2027-07-10T17:00:00Z"),
    types: [{ name: "Day pass", price: options.sundayPrice ?? 4500, capacity: options.sundayCapacity ?? 50 }],
  });
  const [buyer] = await createBuyers(db, 1);
  const cartId = await fillCart(db, buyer!.id, [{ ticketTypeId: saturday.typeIds[0]!, quantity: 2 }]);
  const started = await startCheckout(db, checkoutFor(buyer!, cartId));
  if (!started.ok) throw new Error(JSON.stringify(started.problems));
  expect((await settleOrder(db, paidInFull(started.order))).kind).toBe("settled");
  const [line] = await db
    .select({ id: orderItems.id })
    .from(orderItems)
    .where(eq(orderItems.orderId, started.order.id));
  return {
    buyer: buyer!,
    orderId: started.order.id,
    orderItemId: line!.id,
    saturdayId: saturday.typeIds[0]!,
    sundayId: saturday.typeIds[1]!,
    newDateId: later.typeIds[0]!,
  };
}

async function admin(db: Db) {
  const [staff] = await createBuyers(db, 1);
  return staff!.id;
}

function move(base: Awaited<ReturnType<typeof booking>>, actorId: string, over: Partial<MoveInput> = {}): MoveInput {
  return {
    orderId: base.orderId,
    orderItemId: base.orderItemId,
    quantity: 2,
    toTicketTypeId: base.newDateId,
    backTo: "money",
    extra: "charge",
    reason: "The meet moved to July",
    actorId,
    now: hours(1),
    currency: "GBP",
    provider: "test",
    ...over,
  };
}

async function ticketsOf(db: Db, orderId: string) {
  return db
    .select({ id: tickets.id, status: tickets.status, ticketTypeId: tickets.ticketTypeId })
    .from(tickets)
    .where(eq(tickets.orderId, orderId));
}

describe("moving a booking to another date at the same price", () => {
  it("voids the old tickets, issues new ones on a paid order, and leaves no credit or money owed", async () => {
    const { db } = database();
    const base = await booking(db);
    const actor = await admin(db);
    const moved = await moveBooking(db, move(base, actor), BRAND);
    if (!moved.ok) throw new Error(moved.message);

    expect(moved).toMatchObject({ movedValue: 9000, newValue: 9000, waived: 0, back: { amount: 0, credit: 0 } });
    expect(moved.newOrder).toMatchObject({ paid: true, toPay: 0 });
    expect((await ticketsOf(db, base.orderId)).map((t) => t.status)).toEqual(["refunded", "refunded"]);
    const issued = await ticketsOf(db, moved.newOrder.id);
    expect(issued).toHaveLength(2);
    expect(issued.every((t) => t.status === "valid" && t.ticketTypeId === base.newDateId)).toBe(true);
    expect(await soldOf(db, base.saturdayId)).toBe(0);
    expect(await soldOf(db, base.newDateId)).toBe(2);

    // The value went through the credit ledger and was spent at once: nothing is left over, and
    // no money moved to or from the card.
    expect(await spendableCredit(db, { userId: base.buyer.id, now: hours(2) })).toBe(0);
    expect((await orderState(db, base.orderId)).ledger.filter((row) => row.kind === "refund")).toEqual([]);
    const [newOrder] = await db
      .select({ status: orders.status, credit: orders.credit, total: orders.total })
      .from(orders)
      .where(eq(orders.id, moved.newOrder.id));
    expect(newOrder).toEqual({ status: "paid", credit: 9000, total: 0 });

    const [row] = await db.select().from(bookingMoves).where(eq(bookingMoves.id, moved.moveId));
    expect(row).toMatchObject({ fromOrderId: base.orderId, toOrderId: moved.newOrder.id, quantity: 2 });
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, "booking.move"));
    expect(audits).toHaveLength(1);
    expect(moved.email.subject).toBe("Your booking has moved to Spring meet, new date — Day pass");
    expect(moved.email.text).toContain("We have moved 2 tickets of yours from Spring meet — Saturday pass");
    expect(moved.email.text).toContain("Your old tickets no longer admit");
  });

  it("moves some of the tickets only, keeping the rest valid", async () => {
    const { db } = database();
    const base = await booking(db);
    const moved = await moveBooking(
      db,
      move(base, await admin(db), { quantity: 1, toTicketTypeId: base.sundayId }),
      BRAND,
    );
    expect(moved.ok).toBe(true);
    expect((await ticketsOf(db, base.orderId)).map((t) => t.status).sort()).toEqual(["refunded", "valid"]);
    expect(await soldOf(db, base.saturdayId)).toBe(1);
    expect(await soldOf(db, base.sundayId)).toBe(1);
  });

  it("counts the moved tickets' places as free, so a full event can swap one day for another", async () => {
    const { db } = database();
    const base = await booking(db, { capacity: 2 });
    const moved = await moveBooking(db, move(base, await admin(db), { toTicketTypeId: base.sundayId }), BRAND);
    expect(moved.ok).toBe(true);
    expect(await soldOf(db, base.sundayId)).toBe(2);
  });
});

describe("the difference in price", () => {
  it("goes back to the card when the new tickets cost less and staff chose the card", async () => {
    const { db } = database();
    const base = await booking(db, { sundayPrice: 3000 });
    const moved = await moveBooking(db, move(base, await admin(db)), BRAND);
    if (!moved.ok) throw new Error(moved.message);
    expect(moved).toMatchObject({ movedValue: 9000, newValue: 6000, back: { amount: 3000, credit: 0 } });
    const refunds = (await orderState(db, base.orderId)).ledger.filter((row) => row.kind === "refund");
    expect(refunds).toEqual([expect.objectContaining({ status: "pending", amount: 3000 })]);
    expect(await spendableCredit(db, { userId: base.buyer.id, now: hours(2) })).toBe(0);
    expect(moved.email.text).toContain("£30.00 is on its way back to your card");
  });

  it("goes to account credit when staff chose credit", async () => {
    const { db } = database();
    const base = await booking(db, { sundayPrice: 3000 });
    const moved = await moveBooking(db, move(base, await admin(db), { backTo: "credit" }), BRAND);
    if (!moved.ok) throw new Error(moved.message);
    expect(moved.back).toMatchObject({ amount: 3000, credit: 3000, refundId: null });
    expect(await spendableCredit(db, { userId: base.buyer.id, now: hours(2) })).toBe(3000);
    expect(moved.email.text).toContain("£30.00 is in your account credit");
  });

  it("is taken off the new tickets when staff waive the extra", async () => {
    const { db } = database();
    const base = await booking(db, { sundayPrice: 6000 });
    const moved = await moveBooking(db, move(base, await admin(db), { extra: "waive" }), BRAND);
    if (!moved.ok) throw new Error(moved.message);
    expect(moved).toMatchObject({ movedValue: 9000, newValue: 12000, waived: 3000 });
    expect(moved.newOrder.paid).toBe(true);
    const [line] = await db
      .select({ discount: orderItems.discount })
      .from(orderItems)
      .where(eq(orderItems.orderId, moved.newOrder.id));
    expect(line!.discount).toBe(3000);
    expect(moved.email.text).toContain("They cost £30.00 more, which we have waived.");
  });

  it("is paid by the buyer's other account credit first", async () => {
    const { db } = database();
    const base = await booking(db, { sundayPrice: 6000 });
    await giveCredit(db, { userId: base.buyer.id, amount: 5000, expiresAt: null, now: NOW });
    const moved = await moveBooking(db, move(base, await admin(db)), BRAND);
    if (!moved.ok) throw new Error(moved.message);
    expect(moved.newOrder).toMatchObject({ paid: true, toPay: 0 });
    expect(await spendableCredit(db, { userId: base.buyer.id, now: hours(2) })).toBe(2000);
  });

  it("waits for the buyer's payment when they owe it, with the new places held and their next checkout leaving it alone", async () => {
    const { db } = database();
    const base = await booking(db, { sundayPrice: 6000 });
    const moved = await moveBooking(db, move(base, await admin(db)), BRAND);
    if (!moved.ok) throw new Error(moved.message);
    expect(moved.newOrder).toMatchObject({ paid: false, toPay: 3000, payBy: hours(25) });
    expect(moved.email.text).toContain("They cost £30.00 more.");
    expect(moved.email.text).toContain(`/transactions/${moved.newOrder.id}`);
    expect(await ticketsOf(db, moved.newOrder.id)).toEqual([]);

    // The buyer shops for something else meanwhile: the move's order is not replaced.
    const other = await createTestEvent(db, { types: [{ name: "Paddock" }] });
    const cartId = (await findCart(db, { userId: base.buyer.id }))!;
    await addTicketLines(db, cartId, [{ ticketTypeId: other.typeIds[0]!, quantity: 1 }]);
    expect((await startCheckout(db, checkoutFor(base.buyer, cartId, hours(2)))).ok).toBe(true);
    expect((await orderState(db, moved.newOrder.id)).status).toBe("pending");

    expect(
      (await settleOrder(db, paidInFull({ id: moved.newOrder.id, total: moved.newOrder.toPay }, hours(3)))).kind,
    ).toBe("settled");
    expect(await ticketsOf(db, moved.newOrder.id)).toHaveLength(2);
  });

  it("leaves the old tickets' value in account credit when the buyer never pays", async () => {
    const { db } = database();
    const base = await booking(db, { sundayPrice: 6000 });
    const moved = await moveBooking(db, move(base, await admin(db)), BRAND);
    if (!moved.ok) throw new Error(moved.message);
    expect(await spendableCredit(db, { userId: base.buyer.id, now: hours(2) })).toBe(0);
    await expireHolds(db, hours(26));
    expect((await orderState(db, moved.newOrder.id)).status).toBe("expired");
    expect(await spendableCredit(db, { userId: base.buyer.id, now: hours(27) })).toBe(9000);
    expect(await soldOf(db, base.newDateId)).toBe(0);
  });

  it("comes back as what each part was paid with when the new tickets are refunded later", async () => {
    const { db } = database();
    const base = await booking(db, { sundayPrice: 6000 });
    const moved = await moveBooking(db, move(base, await admin(db)), BRAND);
    if (!moved.ok) throw new Error(moved.message);
    await settleOrder(db, paidInFull({ id: moved.newOrder.id, total: 3000 }, hours(3)));
    const refunded = await refundOrder(db, {
      orderId: moved.newOrder.id,
      actorId: null,
      reason: "Cannot come",
      now: hours(4),
    });
    expect(refunded).toMatchObject({ ok: true, amount: 12000, credit: 9000 });
  });
});

describe("moves that cannot be made", () => {
  it("refuse with a message and change nothing", async () => {
    const { db } = database();
    const base = await booking(db, { sundayCapacity: 1 });
    const actor = await admin(db);
    const cases: [Partial<MoveInput>, string][] = [
      [{ toTicketTypeId: base.saturdayId }, "Choose other tickets than the ones booked."],
      [{ quantity: 3 }, "Only 2 of these tickets can move (the rest are used, refunded or passed on)."],
      [{ toTicketTypeId: base.sundayId }, "Only 1 Sunday pass ticket is left for Spring meet"],
      [{ orderItemId: "00000000-0000-4000-8000-000000000000" }, "Only tickets of this order can be moved."],
      [{ toTicketTypeId: "00000000-0000-4000-8000-000000000000" }, "Those tickets could not be found."],
    ];
    for (const [over, message] of cases) {
      const refused = await moveBooking(db, move(base, actor, over), BRAND);
      expect(refused).toEqual({ ok: false, message: expect.stringContaining(message) });
    }
    expect((await ticketsOf(db, base.orderId)).map((t) => t.status)).toEqual(["valid", "valid"]);
    expect(await db.select().from(bookingMoves).where(eq(bookingMoves.fromOrderId, base.orderId))).toEqual([]);
    expect(await soldOf(db, base.saturdayId)).toBe(2);
  });

  it("leaves a ticket that is back on sale where it is", async () => {
    const { db } = database();
    const base = await booking(db);
    const [first] = await ticketsOf(db, base.orderId);
    await db.insert(ticketHandBacks).values({
      ticketId: first!.id,
      ticketTypeId: base.saturdayId,
      eventId: (await db.select({ id: tickets.eventId }).from(tickets).where(eq(tickets.id, first!.id)))[0]!.id,
      userId: base.buyer.id,
      fee: 0,
      createdAt: NOW,
    });
    const refused = await moveBooking(db, move(base, await admin(db)), BRAND);
    expect(refused).toEqual({ ok: false, message: expect.stringContaining("Only 1 of these tickets can move") });
    const moved = await moveBooking(db, move(base, await admin(db), { quantity: 1 }), BRAND);
    expect(moved.ok).toBe(true);
    const [still] = await db
      .select({ status: tickets.status })
      .from(tickets)
      .where(and(eq(tickets.id, first!.id)));
    expect(still!.status).toBe("valid");
  });
});
