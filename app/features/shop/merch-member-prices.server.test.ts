import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getOrCreateCart, setCartItem } from "~/features/cart/cart.server";
import { addMerchLines, DELIVERY, setShippingRates } from "~/features/checkout/merch.test-support";
import { checkoutFor, createBuyers, createTestEvent, NOW } from "~/features/checkout/stock.test-support";
import { issueMembership } from "~/features/membership/memberships.server";
import { createTestTier } from "~/features/membership/tiers.test-support";
import { loadCart, startCheckout } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { memberships, orderItems, productVariants, ticketTypes } from "../../../db/schema";
import { getProductPage, memberPriceNote } from "./catalogue.server";
import { createTestProduct } from "./products.test-support";
import { variantSchema } from "./schemas";

// Member prices on merch variants (docs/membership.md, "Member prices…"): the product page, the
// cart and checkout each read the buyer's membership when they act, so one that has ended loses
// the price.
const database = freshDatabasePerFile();

async function setup() {
  const { db } = database();
  // No delivery fee: an order's total is its merch.
  await setShippingRates(db, { flatFee: 0, freeOver: null });
  const tier = await createTestTier(db);
  const tee = await createTestProduct(db, {
    title: "Club tee",
    optionNames: ["Size"],
    variants: [
      { options: ["M"], price: 2000 },
      { options: ["L"], price: 2000 },
    ],
  });
  const [medium, large] = tee.variantIds as [string, string];
  await db.update(productVariants).set({ memberPrice: 1500 }).where(eq(productVariants.productId, tee.id));
  const [member, visitor] = await createBuyers(db, 2);
  await issueMembership(db, { userId: member!.id, tier, people: [], orderId: null, paidPence: 3000, paidAt: NOW });
  return { db, slug: tee.slug, medium, large, member: member!, visitor: visitor! };
}

async function cartOf(userId: string, lines: { variantId: string; quantity: number }[]) {
  const { db } = database();
  const cartId = await getOrCreateCart(db, { userId });
  await addMerchLines(db, cartId, lines);
  return cartId;
}

async function unitPricesOf(orderId: string) {
  const rows = await database()
    .db.select({ variantId: orderItems.variantId, unitPrice: orderItems.unitPrice })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  return rows.map((row) => row.unitPrice);
}

describe("member prices on merch", () => {
  it("charges a member the member price at checkout, with the saving in the cart", async () => {
    const { db, medium, large, member } = await setup();
    const cartId = await cartOf(member.id, [
      { variantId: medium, quantity: 2 },
      { variantId: large, quantity: 1 },
    ]);
    const cart = await loadCart(db, { cartId, userId: member.id, now: NOW });
    expect(cart).toMatchObject({ subtotal: 3 * 1500, memberSaving: 3 * 500, payable: true });
    expect(cart.sections[0]?.lines.map((line) => [line.unitPrice, line.memberSaving, line.memberPrice])).toEqual([
      [1500, 1000, undefined],
      [1500, 500, undefined],
    ]);

    const checkout = await startCheckout(db, { ...checkoutFor(member, cartId), shipping: DELIVERY });
    if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));
    expect(checkout.order.total).toBe(3 * 1500);
    expect(await unitPricesOf(checkout.order.id)).toEqual([1500, 1500]);
  });

  it("charges everyone else the price, and shows them what members pay", async () => {
    const { db, medium, visitor } = await setup();
    const cartId = await cartOf(visitor.id, [{ variantId: medium, quantity: 2 }]);
    const cart = await loadCart(db, { cartId, userId: visitor.id, now: NOW });
    expect(cart).toMatchObject({ subtotal: 4000, memberSaving: 0 });
    expect(cart.sections[0]?.lines[0]).toMatchObject({ unitPrice: 2000, memberSaving: 0, memberPrice: 1500 });

    const checkout = await startCheckout(db, { ...checkoutFor(visitor, cartId), shipping: DELIVERY });
    if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));
    expect(checkout.order.total).toBe(4000);
    expect(await unitPricesOf(checkout.order.id)).toEqual([2000]);
  });

  it("takes the member price away when the membership ends before checkout", async () => {
    const { db, medium, member } = await setup();
    const cartId = await cartOf(member.id, [{ variantId: medium, quantity: 1 }]);
    expect((await loadCart(db, { cartId, userId: member.id, now: NOW })).subtotal).toBe(1500);
    await db.update(memberships).set({ endedAt: NOW, endReason: "refunded" }).where(eq(memberships.userId, member.id));

    const later = new Date(NOW.getTime() + 1000);
    const cart = await loadCart(db, { cartId, userId: member.id, now: later });
    expect(cart).toMatchObject({ subtotal: 2000, memberSaving: 0 });
    expect(cart.sections[0]?.lines[0]).toMatchObject({ unitPrice: 2000, memberPrice: 1500 });
    const checkout = await startCheckout(db, { ...checkoutFor(member, cartId, later), shipping: DELIVERY });
    if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));
    expect(checkout.order.total).toBe(2000);
  });

  it("adds up what membership saves on tickets and merch in one cart", async () => {
    const { db, medium, member } = await setup();
    const event = await createTestEvent(db, { title: "Members' meet", types: [{ name: "Adult", price: 2500 }] });
    const [adult] = event.typeIds as [string];
    await db.update(ticketTypes).set({ memberPrice: 2000 }).where(eq(ticketTypes.id, adult));
    const cartId = await cartOf(member.id, [{ variantId: medium, quantity: 3 }]);
    await setCartItem(db, { cartId, ticketTypeId: adult, quantity: 2, now: NOW, userId: member.id, member: true });

    const cart = await loadCart(db, { cartId, userId: member.id, now: NOW });
    // 2 tickets save £5 each, 3 tees £5 each.
    expect(cart).toMatchObject({ subtotal: 2 * 2000 + 3 * 1500, memberSaving: 2 * 500 + 3 * 500 });
  });

  it("shows a member their price on the product page, and everyone else what members pay", async () => {
    const { db, slug } = await setup();
    const forMember = await getProductPage(db, slug, { staff: false, now: NOW, member: true });
    expect(forMember!.variants.map((variant) => [variant.price, variant.memberPriced, variant.memberPrice])).toEqual([
      [1500, true, null],
      [1500, true, null],
    ]);
    expect(memberPriceNote(forMember!.variants, "GBP")).toEqual({ text: "Member price", join: false });

    const forVisitor = await getProductPage(db, slug, { staff: false, now: NOW });
    expect(forVisitor!.variants.map((variant) => [variant.price, variant.memberPriced, variant.memberPrice])).toEqual([
      [2000, false, 1500],
      [2000, false, 1500],
    ]);
    expect(memberPriceNote(forVisitor!.variants, "GBP")).toEqual({ text: "Members pay £15.00.", join: true });
    // Different member prices, or a variant without one: the lowest, "from".
    expect(
      memberPriceNote(
        [
          { memberPrice: 1500, memberPriced: false },
          { memberPrice: null, memberPriced: false },
        ],
        "GBP",
      ),
    ).toEqual({ text: "Members pay from £15.00.", join: true });
    expect(memberPriceNote([{ memberPrice: null, memberPriced: false }], "GBP")).toBeNull();
  });
});

describe("the variant form's member price", () => {
  const schema = variantSchema({ optionNames: ["Size"], currency: "GBP" });
  const form = { options: ["M"], sku: "TEE-M", price: "20.00", maxPerOrder: 10, active: true };

  it("is optional, and kept in pence", () => {
    expect(schema.parse(form)).toMatchObject({ price: 2000, memberPrice: null });
    expect(schema.parse({ ...form, memberPrice: "£15" })).toMatchObject({ price: 2000, memberPrice: 1500 });
    expect(schema.parse({ ...form, memberPrice: "20.00" })).toMatchObject({ memberPrice: 2000 });
  });

  it("refuses a member price above the price, on its field, in the words every form uses", () => {
    const result = schema.safeParse({ ...form, memberPrice: "25.00" });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ["memberPrice"], message: "Make the member price no more than the price" }),
    ]);
    // Whatever else is wrong with the form.
    const alsoWrong = schema.safeParse({ ...form, sku: "", memberPrice: "25.00" });
    expect(alsoWrong.error?.issues.map((issue) => issue.path[0])).toContain("memberPrice");
    expect(schema.safeParse({ ...form, memberPrice: "15.5.0" }).error?.issues[0]?.message).toBe(
      "Enter an amount like 12.50 in £ (0 for free)",
    );
  });
});

describe("the variant form's prices per tier", () => {
  const family = { id: "5f0c1d7e-2a4b-4c6d-8e9f-0a1b2c3d4e5f", slug: "family", name: "Family" };
  const schema = variantSchema({ optionNames: ["Size"], currency: "GBP", tiers: [family] });
  const form = { options: ["M"], sku: "TEE-M", price: "20.00", maxPerOrder: 10, active: true };

  it("are optional, kept in pence by tier", () => {
    expect(schema.parse(form)).toMatchObject({ tierPrices: {} });
    expect(schema.parse({ ...form, tierPrices: { [family.id]: "£12" } })).toMatchObject({
      tierPrices: { [family.id]: 1200 },
    });
  });

  it("refuses a tier's price above the price, on its field, in the words every form uses", () => {
    const result = schema.safeParse({ ...form, memberPrice: "15.00", tierPrices: { [family.id]: "20.01" } });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ["tierPrices", family.id],
        message: "Make what Family members pay no more than the price",
      }),
    ]);
  });
});
