import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getOrCreateCart, newVisitorToken } from "~/features/cart/cart.server";
import { cartItemCount } from "~/features/cart/cart-page.server";
import { createBuyers, NOW } from "~/features/checkout/stock.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { cartItems, carts, holds, orders, products } from "../../../db/schema";
import { addVariantToCart, mergeVisitorMerch, removeMerchLine, setMerchLineQuantity } from "./cart-merch.server";
import { createTestProduct } from "./products.test-support";

const database = freshDatabasePerFile();

async function linesOf(db: ReturnType<typeof database>["db"], cartId: string) {
  return db
    .select({ variantId: cartItems.variantId, quantity: cartItems.quantity, kind: cartItems.kind })
    .from(cartItems)
    .where(eq(cartItems.cartId, cartId));
}

/** Another member's unpaid order holding `quantity` units of a variant until an hour after NOW. */
async function holdFor(db: ReturnType<typeof database>["db"], variantId: string, quantity: number, userId: string) {
  const [order] = await db
    .insert(orders)
    .values({ userId, email: "other@example.test", currency: "GBP", subtotal: 0, total: 0, provider: "test" })
    .returning({ id: orders.id });
  await db.insert(holds).values({
    orderId: order!.id,
    kind: "merch",
    variantId,
    quantity,
    expiresAt: new Date(NOW.getTime() + 60 * 60 * 1000),
  });
  return order!.id;
}

describe("addVariantToCart", () => {
  it("puts a variant in a visitor's cart, and adding it again adds to the same line", async () => {
    const { db } = database();
    const tee = await createTestProduct(db, {
      title: "Club T-shirt",
      optionNames: ["Size", "Colour"],
      variants: [{ options: ["M", "Black"], stock: 10 }],
    });
    const owner = { visitorToken: newVisitorToken() };
    const cartId = await getOrCreateCart(db, owner);
    const first = await addVariantToCart(db, { cartId, variantId: tee.variantIds[0]!, quantity: 2, now: NOW });
    expect(first).toEqual({
      ok: true,
      variantId: tee.variantIds[0],
      added: 2,
      quantity: 2,
      name: "Club T-shirt — M / Black",
    });
    const second = await addVariantToCart(db, { cartId, variantId: tee.variantIds[0]!, quantity: 3, now: NOW });
    expect(second).toMatchObject({ ok: true, added: 3, quantity: 5 });
    expect(await linesOf(db, cartId)).toEqual([{ variantId: tee.variantIds[0], quantity: 5, kind: "merch" }]);
    expect(await cartItemCount(db, owner)).toBe(5);
  });

  it("never adds a sold-out variant, and stores nothing", async () => {
    const { db } = database();
    const hoodie = await createTestProduct(db, { title: "Hoodie", variants: [{ stock: 0 }] });
    const cartId = await getOrCreateCart(db, { visitorToken: newVisitorToken() });
    const result = await addVariantToCart(db, { cartId, variantId: hoodie.variantIds[0]!, quantity: 1, now: NOW });
    expect(result).toEqual({
      ok: false,
      problem: { code: "sold_out", message: "Hoodie is sold out", variantId: hoodie.variantIds[0] },
    });
    expect(await linesOf(db, cartId)).toEqual([]);
  });

  it("refuses more than is left, counting what the cart already has", async () => {
    const { db } = database();
    const mug = await createTestProduct(db, { title: "Mug", variants: [{ stock: 3 }] });
    const cartId = await getOrCreateCart(db, { visitorToken: newVisitorToken() });
    const variantId = mug.variantIds[0]!;
    expect(await addVariantToCart(db, { cartId, variantId, quantity: 4, now: NOW })).toMatchObject({
      ok: false,
      problem: { code: "not_enough", message: "Only 3 of Mug left" },
    });
    expect(await addVariantToCart(db, { cartId, variantId, quantity: 2, now: NOW })).toMatchObject({ ok: true });
    expect(await addVariantToCart(db, { cartId, variantId, quantity: 2, now: NOW })).toMatchObject({
      ok: false,
      problem: { code: "not_enough", message: "Only 3 of Mug left; your cart already has 2" },
    });
    expect(await linesOf(db, cartId)).toEqual([{ variantId, quantity: 2, kind: "merch" }]);
  });

  it("counts other buyers' holds, but not the member's own unpaid order", async () => {
    const { db } = database();
    const [member, other] = await createBuyers(db, 2);
    const cap = await createTestProduct(db, { title: "Cap", variants: [{ stock: 2 }] });
    const variantId = cap.variantIds[0]!;
    await holdFor(db, variantId, 2, other!.id);
    const cartId = await getOrCreateCart(db, { userId: member!.id });
    expect(await addVariantToCart(db, { cartId, variantId, quantity: 1, now: NOW, userId: member!.id })).toMatchObject({
      ok: false,
      problem: { code: "sold_out" },
    });
    // The other member's own cart does not count their own pending order against them.
    const otherCart = await getOrCreateCart(db, { userId: other!.id });
    expect(
      await addVariantToCart(db, { cartId: otherCart, variantId, quantity: 2, now: NOW, userId: other!.id }),
    ).toMatchObject({ ok: true, quantity: 2 });
    // Once the hold has expired, its units count again for everyone.
    const later = new Date(NOW.getTime() + 2 * 60 * 60 * 1000);
    expect(
      await addVariantToCart(db, { cartId, variantId, quantity: 1, now: later, userId: member!.id }),
    ).toMatchObject({ ok: true });
  });

  it("refuses the per-order maximum, a draft product, an inactive variant, an unknown one and a bad quantity", async () => {
    const { db } = database();
    const cartId = await getOrCreateCart(db, { visitorToken: newVisitorToken() });
    const keyring = await createTestProduct(db, { title: "Keyring", variants: [{ stock: 50, maxPerOrder: 3 }] });
    expect(
      await addVariantToCart(db, { cartId, variantId: keyring.variantIds[0]!, quantity: 4, now: NOW }),
    ).toMatchObject({
      ok: false,
      problem: { code: "max_per_order", message: "You can buy at most 3 of Keyring in one order" },
    });

    const draft = await createTestProduct(db, { title: "Secret", status: "draft" });
    expect(
      await addVariantToCart(db, { cartId, variantId: draft.variantIds[0]!, quantity: 1, now: NOW }),
    ).toMatchObject({ ok: false, problem: { code: "unavailable", message: "Secret is no longer for sale" } });
    const off = await createTestProduct(db, { title: "Old mug", variants: [{ active: false }] });
    expect(await addVariantToCart(db, { cartId, variantId: off.variantIds[0]!, quantity: 1, now: NOW })).toMatchObject({
      ok: false,
      problem: { code: "unavailable" },
    });
    expect(
      await addVariantToCart(db, { cartId, variantId: "00000000-0000-4000-8000-000000000000", quantity: 1, now: NOW }),
    ).toMatchObject({ ok: false, problem: { code: "not_found" } });
    for (const quantity of [0, -1, 1.5, 1001]) {
      expect(
        await addVariantToCart(db, { cartId, variantId: keyring.variantIds[0]!, quantity, now: NOW }),
      ).toMatchObject({ ok: false, problem: { code: "quantity" } });
    }
    expect(await linesOf(db, cartId)).toEqual([]);
  });

  it("two adds at once both count: the second sees the first's units", async () => {
    const { db } = database();
    const model = await createTestProduct(db, { title: "1:43 model", variants: [{ stock: 3 }] });
    const cartId = await getOrCreateCart(db, { visitorToken: newVisitorToken() });
    const variantId = model.variantIds[0]!;
    const results = await Promise.all([
      addVariantToCart(db, { cartId, variantId, quantity: 2, now: NOW }),
      addVariantToCart(db, { cartId, variantId, quantity: 2, now: NOW }),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(await linesOf(db, cartId)).toEqual([{ variantId, quantity: 2, kind: "merch" }]);
  });
});

describe("changing and merging merch lines", () => {
  it("lowers freely, raises within stock, and removes", async () => {
    const { db } = database();
    const mug = await createTestProduct(db, { title: "Mug", variants: [{ stock: 4 }] });
    const variantId = mug.variantIds[0]!;
    const cartId = await getOrCreateCart(db, { visitorToken: newVisitorToken() });
    await addVariantToCart(db, { cartId, variantId, quantity: 2, now: NOW });
    expect(await setMerchLineQuantity(db, { cartId, variantId, quantity: 5, now: NOW })).toMatchObject({
      ok: false,
      problem: { message: "Only 4 of Mug left" },
    });
    expect(await setMerchLineQuantity(db, { cartId, variantId, quantity: 4, now: NOW })).toMatchObject({
      ok: true,
      quantity: 4,
    });
    expect(await setMerchLineQuantity(db, { cartId, variantId, quantity: 1, now: NOW })).toMatchObject({ ok: true });
    await removeMerchLine(db, { cartId, variantId, now: NOW });
    expect(await linesOf(db, cartId)).toEqual([]);
    expect(await setMerchLineQuantity(db, { cartId, variantId, quantity: 1, now: NOW })).toMatchObject({
      ok: false,
      problem: { code: "not_found" },
    });
  });

  it("joins a visitor's merch to the member's cart on sign-in, capped at what is left", async () => {
    const { db } = database();
    const [member] = await createBuyers(db, 1);
    const tee = await createTestProduct(db, { title: "Tee", variants: [{ stock: 3 }] });
    const gone = await createTestProduct(db, { title: "Sticker", variants: [{ stock: 5 }] });
    const variantId = tee.variantIds[0]!;
    const visitorCartId = await getOrCreateCart(db, { visitorToken: newVisitorToken() });
    const memberCartId = await getOrCreateCart(db, { userId: member!.id });
    await addVariantToCart(db, { cartId: visitorCartId, variantId, quantity: 2, now: NOW });
    await addVariantToCart(db, { cartId: visitorCartId, variantId: gone.variantIds[0]!, quantity: 1, now: NOW });
    await addVariantToCart(db, { cartId: memberCartId, variantId, quantity: 2, now: NOW, userId: member!.id });
    await db.update(carts).set({ updatedAt: NOW }).where(eq(carts.id, visitorCartId));
    await db.update(products).set({ status: "archived" }).where(eq(products.id, gone.id));

    const adjustments = await mergeVisitorMerch(db, { visitorCartId, memberCartId, userId: member!.id, now: NOW });
    expect(adjustments.map((adjustment) => adjustment.message).sort()).toEqual([
      "Only 3 of Tee left",
      "Sticker is no longer for sale",
    ]);
    expect(
      await db
        .select({ quantity: cartItems.quantity })
        .from(cartItems)
        .where(and(eq(cartItems.cartId, memberCartId), eq(cartItems.variantId, variantId))),
    ).toEqual([{ quantity: 3 }]);
    expect(await linesOf(db, memberCartId)).toHaveLength(1);
  });
});
