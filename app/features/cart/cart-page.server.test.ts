import { describe, expect, it } from "vitest";
import { addMerchLines, createTestProduct } from "~/features/checkout/merch.test-support";
import { checkoutFor, createBuyers, createTestEvent, fillCart, NOW } from "~/features/checkout/stock.test-support";
import { SOLD_KINDS, startCheckout } from "~/features/selling/selling.server";
import { merchKind } from "~/features/shop/merch-kind.server";
import { ticketKind } from "~/features/tickets/ticket-kind.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { findCart, newVisitorToken, setCartItem } from "./cart.server";
import { addMerchToCart, addToCart, cartItemCount, heldOrder, loadCartPage } from "./cart-page.server";

const database = freshDatabasePerFile();

describe("addToCart", () => {
  it("adds to what the cart has, and creates a visitor's cart only when something goes in", async () => {
    const { db } = database();
    const { eventId, typeIds } = await createTestEvent(db, {
      types: [{ name: "Weekend pass", maxPerOrder: 4, days: ["2027-06-12", "2027-06-13"] }],
    });
    const owner = { visitorToken: newVisitorToken() };
    const refused = await addToCart(db, { owner, eventId, ticketTypeId: typeIds[0]!, quantity: 5, now: NOW });
    expect(refused).toMatchObject({ ok: false, message: "You can buy up to 4 Weekend pass tickets in one order" });
    expect(await findCart(db, owner)).toBeNull();

    expect(await addToCart(db, { owner, eventId, ticketTypeId: typeIds[0]!, quantity: 2, now: NOW })).toMatchObject({
      ok: true,
      quantity: 2,
      name: "Weekend pass",
    });
    await addToCart(db, { owner, eventId, ticketTypeId: typeIds[0]!, quantity: 1, now: NOW });
    expect(await cartItemCount(db, owner)).toBe(3);
    const again = await addToCart(db, { owner, eventId, ticketTypeId: typeIds[0]!, quantity: 2, now: NOW });
    expect(again).toMatchObject({ ok: false, message: expect.stringContaining("your cart already has 3") });
    expect(await cartItemCount(db, owner)).toBe(3);
  });

  it("refuses another event's ticket type, a hidden one, a draft's, and tickets not on sale", async () => {
    const { db } = database();
    const mine = await createTestEvent(db, { types: [{ name: "Adult" }] });
    const other = await createTestEvent(db, { types: [{ name: "Adult" }, { name: "Crew", hidden: true }] });
    const draft = await createTestEvent(db, { status: "draft", types: [{ name: "Adult" }] });
    const over = await createTestEvent(db, {
      types: [{ name: "Adult", salesEndAt: new Date("2027-04-01T00:00:00Z") }],
    });
    const owner = { visitorToken: newVisitorToken() };
    const tries = [
      { eventId: mine.eventId, ticketTypeId: other.typeIds[0]! },
      { eventId: other.eventId, ticketTypeId: other.typeIds[1]! },
      { eventId: draft.eventId, ticketTypeId: draft.typeIds[0]! },
    ];
    for (const attempt of tries) {
      expect(await addToCart(db, { owner, ...attempt, quantity: 1, now: NOW })).toMatchObject({
        ok: false,
        message: "These tickets are not sold on this page",
      });
    }
    expect(
      await addToCart(db, { owner, eventId: over.eventId, ticketTypeId: over.typeIds[0]!, quantity: 1, now: NOW }),
    ).toMatchObject({
      ok: false,
      message: expect.stringContaining("have ended"),
    });
    expect(await findCart(db, owner)).toBeNull();
    expect(await cartItemCount(db, null)).toBe(0);
  });
});

describe("loadCartPage", () => {
  it("flags lines of a cancelled event and passes without names, and sums today's prices", async () => {
    const { db } = database();
    const [buyer] = await createBuyers(db, 1);
    const live = await createTestEvent(db, {
      types: [
        { name: "Saturday", price: 2000, maxPerOrder: 6 },
        { name: "Weekend", price: 4500, days: ["2027-06-12", "2027-06-13"] },
      ],
    });
    const cancelled = await createTestEvent(db, { status: "cancelled", types: [{ name: "Adult", price: 1000 }] });
    const cartId = await fillCart(db, buyer!.id, [
      { ticketTypeId: live.typeIds[0]!, quantity: 2 },
      { ticketTypeId: live.typeIds[1]!, quantity: 1, attendeeNames: [""] },
      { ticketTypeId: cancelled.typeIds[0]!, quantity: 1 },
    ]);
    const page = await loadCartPage(db, SOLD_KINDS, { cartId, userId: buyer!.id, now: NOW });
    expect(page.subtotal).toBe(2 * 2000 + 4500 + 1000);
    expect(page.payable).toBe(false);
    expect(page.sections.map((section) => section.title)).toEqual(["Tickets", "Multi-day passes"]);
    const [day, gone] = page.sections[0]!.lines;
    const [pass] = page.sections[1]!.lines;
    expect(day).toMatchObject({ problem: null, closed: false, update: { maxQuantity: 6, label: "Update" } });
    expect(pass).toMatchObject({
      attendeeNames: [""],
      closed: false,
      header: { detail: "Sat 12 June · Sun 13 June" },
      update: { label: "Save" },
    });
    expect(pass!.problem).toMatch(/Enter the name/);
    expect(gone).toMatchObject({ closed: true, update: null, problem: `${cancelled.title} has been cancelled` });
    expect(page.eventIds.sort()).toEqual([live.eventId, cancelled.eventId].sort());
    expect(page.deliveredSubtotal).toBeNull();

    await setCartItem(db, {
      cartId,
      ticketTypeId: live.typeIds[1]!,
      quantity: 1,
      attendeeNames: ["Ada Lovelace"],
      now: NOW,
    });
    const named = await loadCartPage(db, SOLD_KINDS, { cartId, userId: buyer!.id, now: NOW });
    expect(named.sections[1]!.lines[0]!.problem).toBeNull();
  });

  it("puts what is posted last, above the delivery form, whatever the kinds' order", async () => {
    const { db } = database();
    const [buyer] = await createBuyers(db, 1);
    const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult" }] });
    const { variantIds } = await createTestProduct(db, { variants: [{ options: ["M"], stock: 3 }] });
    const cartId = await fillCart(db, buyer!.id, [{ ticketTypeId: typeIds[0]!, quantity: 1 }]);
    await addMerchLines(db, cartId, [{ variantId: variantIds[0]!, quantity: 2 }]);
    const page = await loadCartPage(db, [merchKind, ticketKind], { cartId, userId: buyer!.id, now: NOW });
    expect(page.sections.map((section) => section.title)).toEqual(["Tickets", "Merch"]);
    expect(page.deliveredSubtotal).toBe(2 * page.sections[1]!.lines[0]!.unitPrice);
  });

  it("shows the member's held order until its hold runs out", async () => {
    const { db } = database();
    const [buyer] = await createBuyers(db, 1);
    const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult" }] });
    const cartId = await fillCart(db, buyer!.id, [{ ticketTypeId: typeIds[0]!, quantity: 1 }]);
    expect(await heldOrder(db, buyer!.id, NOW)).toBeNull();
    const result = await startCheckout(db, { ...checkoutFor(buyer!, cartId), holdMinutes: 15 });
    expect(result.ok).toBe(true);
    const held = await heldOrder(db, buyer!.id, NOW);
    expect(held?.expiresAt.getTime()).toBe(NOW.getTime() + 15 * 60_000);
    expect(await heldOrder(db, buyer!.id, new Date(NOW.getTime() + 16 * 60_000))).toBeNull();
  });
});

describe("addMerchToCart", () => {
  it("makes a visitor's cart only when the variant goes in, and refuses more than is left", async () => {
    const { db } = database();
    const { variantIds } = await createTestProduct(db, { variants: [{ options: ["M"], stock: 3 }] });
    const owner = { visitorToken: newVisitorToken() };
    const refused = await addMerchToCart(db, { owner, variantId: variantIds[0]!, quantity: 4, now: NOW });
    expect(refused).toMatchObject({ ok: false, problem: { code: "not_enough" } });
    expect(await findCart(db, owner)).toBeNull();

    const added = await addMerchToCart(db, { owner, variantId: variantIds[0]!, quantity: 2, now: NOW });
    expect(added).toMatchObject({ ok: true, added: 2, quantity: 2 });
    expect(await findCart(db, owner)).not.toBeNull();
  });
});
