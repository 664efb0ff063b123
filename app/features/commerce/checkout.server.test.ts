import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutFor, createBuyers, createTestEvent, fillCart, NOW } from "~/features/checkout/stock.test-support";
import { MAX_ORDER_TOTAL, SUPERSEDED_REASON } from "~/features/commerce/checkout.server";
import { expireHolds, HOLD_EXPIRED_REASON } from "~/features/commerce/holds.server";
import { formatOrderNumber, parseOrderNumber } from "~/features/commerce/order-number";
import { cancelOrder } from "~/features/orders/cancel.server";
import { startCheckout } from "~/features/selling/selling.server";
import { availabilityByTicketType } from "~/features/tickets/ticket-stock.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { cartItems, holds, orderHistory, orderItems, orders, ticketTypes } from "../../../db/schema";

const database = freshDatabasePerFile();
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

async function buyer() {
  const [one] = await createBuyers(database().db, 1);
  return one!;
}

describe("startCheckout", () => {
  it("holds the cart's tickets for 15 minutes in a pending order with the catalogue's prices", async () => {
    const { db } = database();
    const { typeIds, title } = await createTestEvent(db, {
      types: [
        { name: "Adult", price: 1500 },
        { name: "Child", price: 500 },
      ],
    });
    const member = await buyer();
    const cartId = await fillCart(db, member.id, [
      { ticketTypeId: typeIds[0]!, quantity: 2 },
      { ticketTypeId: typeIds[1]!, quantity: 1 },
    ]);

    const result = await startCheckout(db, checkoutFor(member, cartId));
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.order).toMatchObject({ total: 3500, currency: "GBP", status: "pending", holdExpiresAt: minutes(15) });
    expect(formatOrderNumber(result.order.number)).toMatch(/^PL-\d{6}$/);

    const lines = await db
      .select({ description: orderItems.description, unitPrice: orderItems.unitPrice, quantity: orderItems.quantity })
      .from(orderItems)
      .where(eq(orderItems.orderId, result.order.id))
      .orderBy(orderItems.unitPrice);
    expect(lines).toEqual([
      { description: `${title} — Child`, unitPrice: 500, quantity: 1 },
      { description: `${title} — Adult`, unitPrice: 1500, quantity: 2 },
    ]);
    const held = await availabilityByTicketType(db, typeIds, NOW);
    expect(held.get(typeIds[0]!)).toEqual({ sold: 0, held: 2 });
    expect(held.get(typeIds[1]!)).toEqual({ sold: 0, held: 1 });
    // Expired holds count for nothing, whether or not the expiry job has run.
    expect((await availabilityByTicketType(db, typeIds, minutes(15))).get(typeIds[0]!)).toEqual({ sold: 0, held: 0 });

    const history = await db
      .select({ from: orderHistory.fromStatus, to: orderHistory.toStatus })
      .from(orderHistory)
      .where(eq(orderHistory.orderId, result.order.id));
    expect(history).toEqual([{ from: null, to: "pending" }]);
    // The cart stays until the order is paid, so a cancelled payment leads back to it.
    expect(await db.select().from(cartItems).where(eq(cartItems.cartId, cartId))).toHaveLength(2);
  });

  it("takes the price at checkout, not a later one, and never from the cart", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult", price: 1500 }] });
    const member = await buyer();
    const cartId = await fillCart(db, member.id, [{ ticketTypeId: typeIds[0]!, quantity: 1 }]);
    const result = await startCheckout(db, checkoutFor(member, cartId));
    if (!result.ok) throw new Error("checkout refused");
    await db.update(ticketTypes).set({ price: 9900 }).where(eq(ticketTypes.id, typeIds[0]!));
    const [line] = await db
      .select({ unitPrice: orderItems.unitPrice })
      .from(orderItems)
      .where(eq(orderItems.orderId, result.order.id));
    const [order] = await db.select({ total: orders.total }).from(orders).where(eq(orders.id, result.order.id));
    expect(line!.unitPrice).toBe(1500);
    expect(order!.total).toBe(1500);
  });

  it("refuses a shortfall and names the item, leaving nothing behind", async () => {
    const { db } = database();
    const { typeIds, title } = await createTestEvent(db, {
      title: "Brands Night",
      types: [{ name: "Weekend pass", capacity: 5, days: [] }],
    });
    const [first, second] = await createBuyers(db, 2);
    const firstCart = await fillCart(db, first!.id, [{ ticketTypeId: typeIds[0]!, quantity: 2 }]);
    expect((await startCheckout(db, checkoutFor(first!, firstCart))).ok).toBe(true);

    const secondCart = await fillCart(db, second!.id, [{ ticketTypeId: typeIds[0]!, quantity: 4 }]);
    const refused = await startCheckout(db, checkoutFor(second!, secondCart));
    expect(refused).toEqual({
      ok: false,
      problems: [
        {
          code: "not_enough",
          ticketTypeId: typeIds[0],
          line: typeIds[0],
          remaining: 3,
          message: `Only 3 Weekend pass tickets are left for ${title}`,
        },
      ],
    });
    expect(await db.select().from(orders).where(eq(orders.userId, second!.id))).toHaveLength(0);
  });

  it("counts the event's own capacity across its ticket types", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, {
      title: "Small Meet",
      capacity: 3,
      types: [
        { name: "Adult", capacity: null },
        { name: "Child", capacity: null },
      ],
    });
    const member = await buyer();
    const cartId = await fillCart(db, member.id, [
      { ticketTypeId: typeIds[0]!, quantity: 2 },
      { ticketTypeId: typeIds[1]!, quantity: 2 },
    ]);
    const refused = await startCheckout(db, checkoutFor(member, cartId));
    expect(refused).toMatchObject({
      ok: false,
      problems: [
        { code: "not_enough", ticketTypeId: typeIds[1], message: "Only 1 Child ticket is left for Small Meet" },
      ],
    });
  });

  it("refuses tampered quantities and more than the per-order maximum", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult", maxPerOrder: 4, capacity: null }] });
    const member = await buyer();
    const cartId = await fillCart(db, member.id, [{ ticketTypeId: typeIds[0]!, quantity: 5 }]);
    expect(await startCheckout(db, checkoutFor(member, cartId))).toMatchObject({
      ok: false,
      problems: [{ code: "max_per_order", message: "You can buy up to 4 Adult tickets in one order" }],
    });
    // The database itself refuses lines of 0, negative or absurd quantities.
    for (const quantity of [0, -1, 1_000_000_000]) {
      await expect(db.update(cartItems).set({ quantity }).where(eq(cartItems.cartId, cartId))).rejects.toThrow();
    }
  });

  it("needs a name for every multi-day pass", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, {
      types: [{ name: "Weekend pass", days: ["2027-06-12", "2027-06-13"] }],
    });
    const [one, two] = await createBuyers(db, 2);
    const blankCart = await fillCart(db, one!.id, [
      { ticketTypeId: typeIds[0]!, quantity: 2, attendeeNames: ["Sam Driver", "  "] },
    ]);
    expect(await startCheckout(db, checkoutFor(one!, blankCart))).toMatchObject({
      ok: false,
      problems: [{ code: "attendee_names", message: "Enter the name of the person each Weekend pass ticket is for" }],
    });

    const namedCart = await fillCart(db, two!.id, [
      { ticketTypeId: typeIds[0]!, quantity: 2, attendeeNames: [" Sam  Driver ", "Alex Racer"] },
    ]);
    const result = await startCheckout(db, checkoutFor(two!, namedCart));
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const [line] = await db
      .select({ names: orderItems.attendeeNames })
      .from(orderItems)
      .where(eq(orderItems.orderId, result.order.id));
    expect(line!.names).toEqual(["Sam Driver", "Alex Racer"]);
  });

  it("refuses tickets outside their sales window, hidden, or for a cancelled or draft event", async () => {
    const { db } = database();
    const later = await createTestEvent(db, {
      title: "Later Meet",
      types: [{ name: "Early bird", salesStartAt: new Date("2027-05-02T08:00:00Z") }],
    });
    const ended = await createTestEvent(db, {
      title: "Ended Meet",
      types: [{ name: "Adult", salesEndAt: new Date("2027-04-30T08:00:00Z") }],
    });
    const hidden = await createTestEvent(db, { title: "Quiet Meet", types: [{ name: "Crew", hidden: true }] });
    const cancelled = await createTestEvent(db, { title: "Off Meet", status: "cancelled", types: [{ name: "Adult" }] });
    const draft = await createTestEvent(db, { title: "Draft Meet", status: "draft", types: [{ name: "Adult" }] });
    const member = await buyer();
    const cartId = await fillCart(
      db,
      member.id,
      [later, ended, hidden, cancelled, draft].map((event) => ({ ticketTypeId: event.typeIds[0]!, quantity: 1 })),
    );
    const result = await startCheckout(db, checkoutFor(member, cartId));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map(({ code, message }) => ({ code, message }))).toEqual([
      { code: "not_yet", message: "Early bird tickets for Later Meet go on sale on Sun 2 May 2027, 09:00 BST" },
      { code: "ended", message: "Sales of Adult tickets for Ended Meet have ended" },
      { code: "not_on_sale", message: "Crew tickets for Quiet Meet are not on sale" },
      { code: "cancelled", message: "Off Meet has been cancelled" },
      { code: "not_on_sale", message: "Adult tickets for Draft Meet are not on sale" },
    ]);
  });

  it("refuses another member's cart, an empty cart and an order too large to pay", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, { types: [{ name: "VIP", price: 10_000_000, capacity: null }] });
    const [owner, other] = await createBuyers(db, 2);
    const cartId = await fillCart(db, owner!.id, [{ ticketTypeId: typeIds[0]!, quantity: 10 }]);
    expect(await startCheckout(db, checkoutFor(other!, cartId))).toMatchObject({
      ok: false,
      problems: [{ code: "cart_not_found" }],
    });
    const emptyCart = await fillCart(db, other!.id, []);
    expect(await startCheckout(db, checkoutFor(other!, emptyCart))).toMatchObject({
      ok: false,
      problems: [{ code: "empty_cart", message: "Your cart is empty" }],
    });
    expect(10 * 10_000_000).toBeGreaterThan(MAX_ORDER_TOTAL);
    expect(await startCheckout(db, checkoutFor(owner!, cartId))).toMatchObject({
      ok: false,
      problems: [{ code: "total_too_large" }],
    });
  });

  it("answers a repeated Pay form with the first order", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult" }] });
    const member = await buyer();
    const cartId = await fillCart(db, member.id, [{ ticketTypeId: typeIds[0]!, quantity: 2 }]);
    const input = { ...checkoutFor(member, cartId), idempotencyKey: "pay-form-1" };
    const [first, second] = await Promise.all([startCheckout(db, input), startCheckout(db, input)]);
    if (!first.ok || !second.ok) throw new Error("checkout refused");
    expect(second.order.id).toBe(first.order.id);
    expect([first.reused, second.reused].sort()).toEqual([false, true]);
    expect((await availabilityByTicketType(db, typeIds, NOW)).get(typeIds[0]!)!.held).toBe(2);
  });

  it("replaces the member's earlier unpaid order, so their own hold never blocks them", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult", capacity: 3 }] });
    const member = await buyer();
    const cartId = await fillCart(db, member.id, [{ ticketTypeId: typeIds[0]!, quantity: 2 }]);
    const first = await startCheckout(db, checkoutFor(member, cartId));
    if (!first.ok) throw new Error("checkout refused");
    // Still held: 1 left for others, but the member's own order does not count against them.
    const others = await availabilityByTicketType(db, typeIds, NOW);
    const theirs = await availabilityByTicketType(db, typeIds, NOW, { exceptUserId: member.id });
    expect(others.get(typeIds[0]!)!.held).toBe(2);
    expect(theirs.get(typeIds[0]!)!.held).toBe(0);

    await db.update(cartItems).set({ quantity: 3 }).where(eq(cartItems.cartId, cartId));
    const second = await startCheckout(db, checkoutFor(member, cartId, minutes(1)));
    if (!second.ok) throw new Error(JSON.stringify(second.problems));
    const [old] = await db
      .select({ status: orders.status, reason: orders.failureReason })
      .from(orders)
      .where(eq(orders.id, first.order.id));
    expect(old).toEqual({ status: "cancelled", reason: SUPERSEDED_REASON });
    expect((await availabilityByTicketType(db, typeIds, minutes(1))).get(typeIds[0]!)!.held).toBe(3);
  });
});

describe("expireHolds", () => {
  it("frees the places of unpaid orders once their hold has run out, and records why", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult", capacity: 2 }] });
    const [late, waiting] = await createBuyers(db, 2);
    const lateCart = await fillCart(db, late!.id, [{ ticketTypeId: typeIds[0]!, quantity: 2 }]);
    const held = await startCheckout(db, checkoutFor(late!, lateCart));
    if (!held.ok) throw new Error("checkout refused");

    const waitingCart = await fillCart(db, waiting!.id, [{ ticketTypeId: typeIds[0]!, quantity: 2 }]);
    expect(await startCheckout(db, checkoutFor(waiting!, waitingCart, minutes(14)))).toMatchObject({
      ok: false,
      problems: [{ code: "sold_out" }],
    });
    expect(await expireHolds(db, minutes(14))).toEqual({ expired: 0 });

    // Past the hold the places are free at once, before the job has run...
    expect((await startCheckout(db, checkoutFor(waiting!, waitingCart, minutes(15)))).ok).toBe(true);
    // ...and the job then says what happened to the first order (and to earlier tests' orders).
    expect((await expireHolds(db, minutes(16))).expired).toBeGreaterThanOrEqual(1);
    const [order] = await db
      .select({ status: orders.status, reason: orders.failureReason })
      .from(orders)
      .where(eq(orders.id, held.order.id));
    expect(order).toEqual({ status: "expired", reason: HOLD_EXPIRED_REASON });
    const states = await db.select({ status: holds.status }).from(holds).where(eq(holds.orderId, held.order.id));
    expect(states).toEqual([{ status: "released" }]);
    const history = await db
      .select({ from: orderHistory.fromStatus, to: orderHistory.toStatus })
      .from(orderHistory)
      .where(eq(orderHistory.orderId, held.order.id))
      .orderBy(orderHistory.createdAt);
    expect(history).toEqual([
      { from: null, to: "pending" },
      { from: "pending", to: "expired" },
    ]);
  });

  it("works through more orders than one batch", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult", capacity: null }] });
    const buyers = await createBuyers(db, 5);
    for (const member of buyers) {
      const cartId = await fillCart(db, member.id, [{ ticketTypeId: typeIds[0]!, quantity: 1 }]);
      expect((await startCheckout(db, checkoutFor(member, cartId))).ok).toBe(true);
    }
    expect((await expireHolds(db, minutes(60), { batchSize: 2 })).expired).toBeGreaterThanOrEqual(5);
    expect(await db.select().from(orders).where(eq(orders.status, "pending"))).toHaveLength(0);
    expect((await availabilityByTicketType(db, typeIds, NOW)).get(typeIds[0]!)!.held).toBe(0);
  });
});

describe("cancelOrder", () => {
  it("gives the places back and records the reason, once, and only for the buyer's own order", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult", capacity: 2 }] });
    const [member, stranger] = await createBuyers(db, 2);
    const cartId = await fillCart(db, member!.id, [{ ticketTypeId: typeIds[0]!, quantity: 2 }]);
    const result = await startCheckout(db, checkoutFor(member!, cartId));
    if (!result.ok) throw new Error("checkout refused");
    const input = { orderId: result.order.id, reason: "Payment declined", now: minutes(2) };

    expect(await cancelOrder(db, { ...input, userId: stranger!.id })).toEqual({ kind: "not_found" });
    expect(await cancelOrder(db, { ...input, userId: member!.id })).toEqual({ kind: "cancelled" });
    expect(await cancelOrder(db, { ...input, userId: member!.id })).toEqual({
      kind: "not_pending",
      status: "cancelled",
    });
    expect((await availabilityByTicketType(db, typeIds, minutes(2))).get(typeIds[0]!)!.held).toBe(0);
    const [order] = await db
      .select({ reason: orders.failureReason })
      .from(orders)
      .where(eq(orders.id, result.order.id));
    expect(order!.reason).toBe("Payment declined");
  });
});

describe("order numbers", () => {
  it("read back what they print", () => {
    expect(formatOrderNumber(123)).toBe("PL-000123");
    expect(formatOrderNumber(1234567)).toBe("PL-1234567");
    expect(parseOrderNumber("PL-000123")).toBe(123);
    expect(parseOrderNumber("pl 123")).toBe(123);
    expect(parseOrderNumber("123")).toBe(123);
    expect(parseOrderNumber("PL-0")).toBeNull();
    expect(parseOrderNumber("AB-123")).toBeNull();
  });
});
