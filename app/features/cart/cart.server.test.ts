import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutFor, createBuyers, createTestEvent, fillCart, NOW } from "~/features/checkout/stock.test-support";
import { startCheckout } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { carts } from "../../../db/schema";
import {
  cartLines,
  deleteAbandonedVisitorCarts,
  findCart,
  getOrCreateCart,
  hashVisitorToken,
  mergeVisitorCartIntoMember,
  newVisitorToken,
  removeCartItem,
  setCartItem,
} from "./cart.server";

const database = freshDatabasePerFile();

describe("carts", () => {
  it("gives a member or a visitor one cart, found again later, storing only the token's hash", async () => {
    const { db } = database();
    const [member] = await createBuyers(db, 1);
    expect(await findCart(db, { userId: member!.id })).toBeNull();
    const memberCart = await getOrCreateCart(db, { userId: member!.id });
    expect(await getOrCreateCart(db, { userId: member!.id })).toBe(memberCart);

    const token = newVisitorToken();
    expect(token).toMatch(/^[\w-]{43}$/);
    const [first, second] = await Promise.all([
      getOrCreateCart(db, { visitorToken: token }),
      getOrCreateCart(db, { visitorToken: token }),
    ]);
    expect(first).toBe(second);
    expect(await findCart(db, { visitorToken: token })).toBe(first);
    const [row] = await db.select({ hash: carts.visitorTokenHash }).from(carts).where(eq(carts.id, first));
    expect(row!.hash).toBe(hashVisitorToken(token));
    expect(row!.hash).not.toContain(token);
  });

  it("deletes visitor carts nobody has touched for 30 days, never members' carts", async () => {
    const { db } = database();
    const [member] = await createBuyers(db, 1);
    const old = new Date(NOW.getTime() - 31 * 24 * 60 * 60 * 1000);
    const [stale] = await db.insert(carts).values({ visitorTokenHash: "stale", updatedAt: old }).returning();
    const [memberCart] = await db.insert(carts).values({ userId: member!.id, updatedAt: old }).returning();
    expect(await deleteAbandonedVisitorCarts(db, NOW)).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(carts).where(eq(carts.id, stale!.id))).toHaveLength(0);
    expect(await db.select().from(carts).where(eq(carts.id, memberCart!.id))).toHaveLength(1);
  });
});

describe("setCartItem", () => {
  it("adds, changes and removes a line, with today's price and the event's name", async () => {
    const { db } = database();
    const { typeIds, title, eventId } = await createTestEvent(db, { types: [{ name: "Adult", price: 1800 }] });
    const cartId = await getOrCreateCart(db, { visitorToken: newVisitorToken() });
    expect(await setCartItem(db, { cartId, ticketTypeId: typeIds[0]!, quantity: 2, now: NOW })).toEqual({
      ok: true,
      quantity: 2,
    });
    expect(await setCartItem(db, { cartId, ticketTypeId: typeIds[0]!, quantity: 3, now: NOW })).toMatchObject({
      ok: true,
    });
    expect(await cartLines(db, cartId)).toEqual([
      {
        kind: "ticket",
        ticketTypeId: typeIds[0],
        eventId,
        eventTitle: title,
        eventSlug: expect.any(String),
        name: "Adult",
        unitPrice: 1800,
        quantity: 3,
        attendeeNames: [],
        multiDay: false,
      },
    ]);
    await removeCartItem(db, { cartId, ticketTypeId: typeIds[0]!, now: NOW });
    expect(await cartLines(db, cartId)).toEqual([]);
  });

  it("refuses tampered quantities, more than the per-order maximum and more than is left", async () => {
    const { db } = database();
    const { typeIds, title } = await createTestEvent(db, {
      title: "Tiny Meet",
      types: [{ name: "Weekend pass", capacity: 3, maxPerOrder: 5 }],
    });
    const ticketTypeId = typeIds[0]!;
    const cartId = await getOrCreateCart(db, { visitorToken: newVisitorToken() });
    for (const quantity of [0, -1, 1.5, Number.NaN, 1e9, "2" as unknown as number]) {
      expect(await setCartItem(db, { cartId, ticketTypeId, quantity, now: NOW })).toMatchObject({
        ok: false,
        problem: { code: "quantity" },
      });
    }
    expect(await setCartItem(db, { cartId, ticketTypeId, quantity: 6, now: NOW })).toMatchObject({
      ok: false,
      problem: { code: "max_per_order", message: "You can buy up to 5 Weekend pass tickets in one order" },
    });
    expect(await setCartItem(db, { cartId, ticketTypeId, quantity: 4, now: NOW })).toEqual({
      ok: false,
      problem: {
        code: "not_enough",
        ticketTypeId,
        remaining: 3,
        message: `Only 3 Weekend pass tickets are left for ${title}`,
      },
    });
    expect(
      await setCartItem(db, { cartId, ticketTypeId: "00000000-0000-4000-8000-000000000000", quantity: 1, now: NOW }),
    ).toMatchObject({ ok: false, problem: { code: "not_found" } });
    expect(await cartLines(db, cartId)).toEqual([]);
  });

  it("counts other buyers' holds, but not the member's own unpaid order", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult", capacity: 4 }] });
    const ticketTypeId = typeIds[0]!;
    const [member, other] = await createBuyers(db, 2);
    const cartId = await fillCart(db, member!.id, [{ ticketTypeId, quantity: 3 }]);
    expect((await startCheckout(db, checkoutFor(member!, cartId))).ok).toBe(true);

    const otherCart = await getOrCreateCart(db, { userId: other!.id });
    expect(
      await setCartItem(db, { cartId: otherCart, ticketTypeId, quantity: 2, now: NOW, userId: other!.id }),
    ).toMatchObject({
      ok: false,
      problem: { code: "not_enough", remaining: 1 },
    });
    expect(await setCartItem(db, { cartId, ticketTypeId, quantity: 4, now: NOW, userId: member!.id })).toMatchObject({
      ok: true,
    });
  });

  it("keeps a name per multi-day pass, blank until filled in, and refuses over-long names", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, {
      types: [{ name: "Weekend pass", days: ["2027-06-12", "2027-06-13"] }],
    });
    const ticketTypeId = typeIds[0]!;
    const cartId = await getOrCreateCart(db, { visitorToken: newVisitorToken() });
    await setCartItem(db, { cartId, ticketTypeId, quantity: 3, attendeeNames: ["  Sam   Driver "], now: NOW });
    expect((await cartLines(db, cartId))[0]).toMatchObject({
      multiDay: true,
      attendeeNames: ["Sam Driver", "", ""],
    });
    // Fewer tickets keep the first names.
    await setCartItem(db, {
      cartId,
      ticketTypeId,
      quantity: 1,
      attendeeNames: ["Sam Driver", "Alex Racer", "Jo Pit"],
      now: NOW,
    });
    expect((await cartLines(db, cartId))[0]!.attendeeNames).toEqual(["Sam Driver"]);
    expect(
      await setCartItem(db, { cartId, ticketTypeId, quantity: 1, attendeeNames: ["x".repeat(81)], now: NOW }),
    ).toMatchObject({ ok: false, problem: { code: "attendee_names" } });
  });
});

describe("mergeVisitorCartIntoMember", () => {
  it("adds the visitor's lines to the member's, capped at the per-order maximum and at what is left", async () => {
    const { db } = database();
    const { typeIds, title } = await createTestEvent(db, {
      title: "Merge Meet",
      types: [
        { name: "Adult", maxPerOrder: 4, capacity: null },
        { name: "Pit walk", capacity: 3 },
        { name: "Child", capacity: null },
        { name: "Sold", capacity: 1 },
      ],
    });
    const [adult, pitWalk, child, sold] = typeIds as [string, string, string, string];
    const [member, rival] = await createBuyers(db, 2);
    // The only "Sold" place goes to someone else after the visitor put it in their cart.
    const token = newVisitorToken();
    const visitorCart = await getOrCreateCart(db, { visitorToken: token });
    for (const [ticketTypeId, quantity] of [
      [adult, 3],
      [pitWalk, 2],
      [child, 1],
      [sold, 1],
    ] as const) {
      expect((await setCartItem(db, { cartId: visitorCart, ticketTypeId, quantity, now: NOW })).ok).toBe(true);
    }
    const rivalCart = await fillCart(db, rival!.id, [{ ticketTypeId: sold, quantity: 1 }]);
    expect((await startCheckout(db, checkoutFor(rival!, rivalCart))).ok).toBe(true);

    const memberCart = await getOrCreateCart(db, { userId: member!.id });
    await setCartItem(db, { cartId: memberCart, ticketTypeId: adult, quantity: 2, now: NOW });
    await setCartItem(db, { cartId: memberCart, ticketTypeId: pitWalk, quantity: 2, now: NOW });

    const merged = await mergeVisitorCartIntoMember(db, { visitorToken: token, userId: member!.id, now: NOW });
    expect(merged.cartId).toBe(memberCart);
    expect(merged.adjustments).toEqual([
      { ticketTypeId: adult, message: "You can buy up to 4 Adult tickets in one order" },
      { ticketTypeId: pitWalk, message: `Only 3 Pit walk tickets are left for ${title}` },
      { ticketTypeId: sold, message: `Sold tickets for ${title} are sold out` },
    ]);
    const lines = await cartLines(db, memberCart);
    expect(Object.fromEntries(lines.map((line) => [line.name, line.quantity]))).toEqual({
      Adult: 4,
      "Pit walk": 3,
      Child: 1,
    });
    expect(await findCart(db, { visitorToken: token })).toBeNull();
    // Signing in again with the same (now gone) visitor cart changes nothing.
    expect(await mergeVisitorCartIntoMember(db, { visitorToken: token, userId: member!.id, now: NOW })).toEqual({
      cartId: memberCart,
      adjustments: [],
    });
  });

  it("gives the member the visitor's cart when they had none", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult" }] });
    const [member] = await createBuyers(db, 1);
    const token = newVisitorToken();
    const visitorCart = await getOrCreateCart(db, { visitorToken: token });
    await setCartItem(db, { cartId: visitorCart, ticketTypeId: typeIds[0]!, quantity: 2, now: NOW });
    const merged = await mergeVisitorCartIntoMember(db, { visitorToken: token, userId: member!.id, now: NOW });
    expect(merged.adjustments).toEqual([]);
    expect((await cartLines(db, merged.cartId!)).map((line) => line.quantity)).toEqual([2]);
  });
});
