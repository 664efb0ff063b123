import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sandboxCheckoutOrder } from "~/features/checkout/sandbox-checkout.server";
import { expireHolds } from "~/features/commerce/holds.server";
import { LATE_SOLD_OUT_REASON } from "~/features/commerce/settle.server";
import { commerceMemberData } from "~/features/orders/member-data.server";
import { orderForBuyer } from "~/features/orders/order-views.server";
import { refundOrder, settleOrder, startCheckout } from "~/features/selling/selling.server";
import { readVariantStock } from "~/features/shop/stock.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { cartItems, holds, orderItems, orders, productVariants, transactions } from "../../../db/schema";
import {
  addMerchLines,
  createTestProduct,
  DELIVERY,
  fillMerchCart,
  setShippingRates,
  TEST_ADDRESS,
} from "./merch.test-support";
import { startOrderPayment } from "./start-payment.server";
import { checkoutFor, createBuyers, createTestEvent, fillCart, NOW } from "./stock.test-support";

const database = freshDatabasePerFile();
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

async function buyer() {
  const [one] = await createBuyers(database().db, 1);
  return one!;
}

async function stockOf(variantId: string, now = NOW) {
  const read = await readVariantStock(database().db, [variantId], now, { lock: false });
  const line = read.variants.get(variantId)!;
  return { stock: line.stock, held: line.held };
}

function payment(orderId: string, amount: number, now = minutes(5)) {
  return { orderId, provider: "test" as const, paymentReference: `pay_${orderId}`, amount, currency: "GBP", now };
}

describe("merch through checkout", () => {
  it("holds the variant's units with the catalogue's price and snapshots delivery on the order", async () => {
    const { db } = database();
    await setShippingRates(db, { flatFee: 495, freeOver: 5000, countries: ["GB", "IE"] });
    const { variantIds, title } = await createTestProduct(db, {
      title: "Club tee",
      optionNames: ["Size", "Colour"],
      variants: [{ options: ["M", "Black"], price: 2000, stock: 5 }],
    });
    const member = await buyer();
    const cartId = await fillMerchCart(db, member.id, [{ variantId: variantIds[0]!, quantity: 2 }]);

    const result = await startCheckout(db, {
      ...checkoutFor(member, cartId),
      shipping: { method: "delivery", address: { ...TEST_ADDRESS, postcode: "nn128tn" } },
    });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    // £40 of merch is under the £50 threshold: the flat fee is added.
    expect(result.order.total).toBe(4495);
    const [order] = await db
      .select({
        subtotal: orders.subtotal,
        shipping: orders.shipping,
        total: orders.total,
        method: orders.shippingMethod,
        address: orders.shippingAddress,
      })
      .from(orders)
      .where(eq(orders.id, result.order.id));
    expect(order).toEqual({
      subtotal: 4000,
      shipping: 495,
      total: 4495,
      method: "delivery",
      // The postcode is stored in its usual form.
      address: { ...TEST_ADDRESS, postcode: "NN12 8TN" },
    });
    const lines = await db
      .select({ kind: orderItems.kind, description: orderItems.description, unitPrice: orderItems.unitPrice })
      .from(orderItems)
      .where(eq(orderItems.orderId, result.order.id));
    expect(lines).toEqual([{ kind: "merch", description: `${title} — M / Black`, unitPrice: 2000 }]);
    expect(await stockOf(variantIds[0]!)).toEqual({ stock: 5, held: 2 });
    // An expired hold gives its units back at once, whether or not the expiry job ran.
    expect(await stockOf(variantIds[0]!, minutes(15))).toEqual({ stock: 5, held: 0 });
  });

  it("delivers free over the threshold, counting only the merch", async () => {
    const { db } = database();
    await setShippingRates(db, { flatFee: 495, freeOver: 3000, countries: ["GB"] });
    const { variantIds } = await createTestProduct(db, { variants: [{ price: 1500, stock: 5 }] });
    const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult", price: 5000 }] });
    const member = await buyer();
    // £15 of merch and £50 of tickets: the merch alone is under £30, so delivery is charged.
    const cartId = await fillCart(db, member.id, [{ ticketTypeId: typeIds[0]!, quantity: 1 }]);
    await addMerchLines(db, cartId, [{ variantId: variantIds[0]!, quantity: 1 }]);
    const first = await startCheckout(db, { ...checkoutFor(member, cartId), shipping: DELIVERY });
    if (!first.ok) throw new Error(JSON.stringify(first.problems));
    expect(first.order.total).toBe(5000 + 1500 + 495);

    await db.update(cartItems).set({ quantity: 2 }).where(eq(cartItems.variantId, variantIds[0]!));
    const second = await startCheckout(db, { ...checkoutFor(member, cartId), shipping: DELIVERY });
    if (!second.ok) throw new Error(JSON.stringify(second.problems));
    expect(second.order.total).toBe(5000 + 3000);
  });

  it("lets the buyer collect for free at an event whose tickets are in the order, and only there", async () => {
    const { db } = database();
    await setShippingRates(db, { collectionEnabled: true });
    const { variantIds } = await createTestProduct(db, { variants: [{ price: 1000 }] });
    const { typeIds, eventId } = await createTestEvent(db, { types: [{ name: "Adult", price: 500 }] });
    const other = await createTestEvent(db, { types: [{ name: "Adult" }] });
    const member = await buyer();
    const cartId = await fillCart(db, member.id, [{ ticketTypeId: typeIds[0]!, quantity: 1 }]);
    await addMerchLines(db, cartId, [{ variantId: variantIds[0]!, quantity: 1 }]);

    const refused = await startCheckout(db, {
      ...checkoutFor(member, cartId),
      shipping: { method: "collection", eventId: other.eventId },
    });
    expect(refused).toEqual({
      ok: false,
      problems: [
        { code: "shipping", message: "Merch can only be collected at an upcoming event you have a ticket for" },
      ],
    });
    expect(await db.select({ id: orders.id }).from(orders).where(eq(orders.userId, member.id))).toEqual([]);

    const result = await startCheckout(db, {
      ...checkoutFor(member, cartId),
      shipping: { method: "collection", eventId },
    });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.order.total).toBe(1500);
    const [order] = await db
      .select({ method: orders.shippingMethod, eventId: orders.collectionEventId, shipping: orders.shipping })
      .from(orders)
      .where(eq(orders.id, result.order.id));
    expect(order).toEqual({ method: "collection", eventId, shipping: 0 });

    await setShippingRates(db, { collectionEnabled: false });
    const off = await startCheckout(db, {
      ...checkoutFor(member, cartId),
      shipping: { method: "collection", eventId },
    });
    expect(off.ok).toBe(false);
    await setShippingRates(db, { collectionEnabled: true });
  });

  it("refuses without a shipping choice, or to a country or postcode not delivered to, writing nothing", async () => {
    const { db } = database();
    await setShippingRates(db, { countries: ["GB"] });
    const { variantIds } = await createTestProduct(db, { variants: [{ stock: 3 }] });
    const member = await buyer();
    const cartId = await fillMerchCart(db, member.id, [{ variantId: variantIds[0]!, quantity: 1 }]);
    const before = await db.select({ id: orders.id }).from(orders);

    const none = await startCheckout(db, checkoutFor(member, cartId));
    expect(none.ok ? null : none.problems[0]?.code).toBe("shipping");
    const abroad = await startCheckout(db, {
      ...checkoutFor(member, cartId),
      shipping: { method: "delivery", address: { ...TEST_ADDRESS, country: "US", postcode: "94103", region: "CA" } },
    });
    expect(abroad.ok ? null : abroad.problems[0]?.code).toBe("shipping");
    const badPostcode = await startCheckout(db, {
      ...checkoutFor(member, cartId),
      shipping: { method: "delivery", address: { ...TEST_ADDRESS, postcode: "12345" } },
    });
    expect(badPostcode.ok ? null : badPostcode.problems[0]?.code).toBe("shipping");
    expect(await db.select({ id: orders.id }).from(orders)).toEqual(before);
    expect(await stockOf(variantIds[0]!)).toEqual({ stock: 3, held: 0 });
  });

  it("counts everyone else's holds and names the line: only k left, then sold out", async () => {
    const { db } = database();
    const { variantIds } = await createTestProduct(db, {
      title: "Sticker pack",
      variants: [{ stock: 3 }],
    });
    const [first, second, third] = await createBuyers(db, 3);
    const held = await startCheckout(db, {
      ...checkoutFor(first!, await fillMerchCart(db, first!.id, [{ variantId: variantIds[0]!, quantity: 2 }])),
      shipping: DELIVERY,
    });
    expect(held.ok).toBe(true);

    const short = await startCheckout(db, {
      ...checkoutFor(second!, await fillMerchCart(db, second!.id, [{ variantId: variantIds[0]!, quantity: 2 }])),
      shipping: DELIVERY,
    });
    expect(short).toEqual({
      ok: false,
      problems: [
        { code: "not_enough", message: "Only 1 of Sticker pack left", variantId: variantIds[0]!, line: variantIds[0]! },
      ],
    });
    const last = await startCheckout(db, {
      ...checkoutFor(third!, await fillMerchCart(db, third!.id, [{ variantId: variantIds[0]!, quantity: 1 }])),
      shipping: DELIVERY,
    });
    expect(last.ok).toBe(true);
    const soldOut = await startCheckout(db, {
      ...checkoutFor(second!, (await cartOf(second!.id))!),
      shipping: DELIVERY,
    });
    expect(soldOut.ok ? [] : soldOut.problems.map((problem) => problem.message)).toEqual(["Sticker pack is sold out"]);
  });

  it("refuses a variant taken off sale and more than the per-order maximum", async () => {
    const { db } = database();
    const { variantIds, title } = await createTestProduct(db, {
      variants: [
        { options: ["S"], maxPerOrder: 2 },
        { options: ["M"], active: false },
      ],
    });
    const member = await buyer();
    const cartId = await fillMerchCart(db, member.id, [
      { variantId: variantIds[0]!, quantity: 3 },
      { variantId: variantIds[1]!, quantity: 1 },
    ]);
    const result = await startCheckout(db, { ...checkoutFor(member, cartId), shipping: DELIVERY });
    expect(result.ok ? [] : result.problems.map((problem) => problem.message)).toEqual([
      `You can buy at most 2 of ${title} (S) in one order`,
      `${title} (M) is no longer for sale`,
    ]);
  });
});

async function cartOf(userId: string) {
  const { carts } = await import("../../../db/schema");
  const [cart] = await database().db.select({ id: carts.id }).from(carts).where(eq(carts.userId, userId));
  return cart?.id;
}

describe("merch through settlement, refunds and expiry", () => {
  async function pendingMerchOrder(options: { stock?: number; quantity?: number } = {}) {
    const { db } = database();
    await setShippingRates(db, { flatFee: 495, freeOver: null, countries: ["GB"] });
    const { variantIds } = await createTestProduct(db, {
      variants: [{ options: ["L"], price: 2000, stock: options.stock ?? 5 }],
    });
    const member = await buyer();
    const cartId = await fillMerchCart(db, member.id, [{ variantId: variantIds[0]!, quantity: options.quantity ?? 2 }]);
    const result = await startCheckout(db, { ...checkoutFor(member, cartId), shipping: DELIVERY });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    return { member, cartId, variantId: variantIds[0]!, order: result.order };
  }

  it("settling takes the units off the shelf once, marks the order unfulfilled and empties the cart", async () => {
    const { db } = database();
    const { variantId, order } = await pendingMerchOrder({ stock: 5, quantity: 2 });
    expect(order.total).toBe(4495);
    const outcome = await settleOrder(db, payment(order.id, order.total));
    expect(outcome).toMatchObject({ kind: "settled", late: false });
    // A replayed notification changes nothing.
    expect(await settleOrder(db, payment(order.id, order.total))).toMatchObject({ kind: "already_settled" });
    expect(await stockOf(variantId, minutes(6))).toEqual({ stock: 3, held: 0 });
    const [row] = await db
      .select({ status: orders.status, fulfilment: orders.fulfilmentStatus })
      .from(orders)
      .where(eq(orders.id, order.id));
    expect(row).toEqual({ status: "paid", fulfilment: "unfulfilled" });
    expect(await db.select().from(cartItems).where(eq(cartItems.variantId, variantId))).toEqual([]);
    const [hold] = await db.select({ status: holds.status }).from(holds).where(eq(holds.orderId, order.id));
    expect(hold?.status).toBe("converted");
  });

  it("honours a late payment while the units are still free", async () => {
    const { db } = database();
    const { variantId, order } = await pendingMerchOrder({ stock: 5, quantity: 2 });
    await expireHolds(db, minutes(20));
    const outcome = await settleOrder(db, payment(order.id, order.total, minutes(25)));
    expect(outcome).toMatchObject({ kind: "settled", late: true });
    expect(await stockOf(variantId, minutes(26))).toEqual({ stock: 3, held: 0 });
  });

  it("refunds a late payment whose units went to someone else, leaving the stock alone", async () => {
    const { db } = database();
    const { variantId, order } = await pendingMerchOrder({ stock: 2, quantity: 2 });
    await expireHolds(db, minutes(20));
    const rival = await buyer();
    const taken = await startCheckout(db, {
      ...checkoutFor(rival, await fillMerchCart(db, rival.id, [{ variantId, quantity: 1 }]), minutes(21)),
      shipping: DELIVERY,
    });
    expect(taken.ok).toBe(true);

    const outcome = await settleOrder(db, payment(order.id, order.total, minutes(25)));
    expect(outcome).toMatchObject({ kind: "refund_required", reason: LATE_SOLD_OUT_REASON, amount: 4495 });
    expect(await stockOf(variantId, minutes(26))).toEqual({ stock: 2, held: 1 });
    const money = await db
      .select({ kind: transactions.kind, status: transactions.status, amount: transactions.amount })
      .from(transactions)
      .where(eq(transactions.orderId, order.id))
      .orderBy(transactions.kind);
    expect(money).toEqual([
      { kind: "charge", status: "succeeded", amount: 4495 },
      { kind: "refund", status: "pending", amount: 4495 },
    ]);
    const [row] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id));
    expect(row?.status).toBe("expired");
  });

  it("refunds part of a line and then the rest: stock comes back each time, shipping with the last", async () => {
    const { db } = database();
    const { variantId, order } = await pendingMerchOrder({ stock: 5, quantity: 2 });
    await settleOrder(db, payment(order.id, order.total));
    const [line] = await db.select({ id: orderItems.id }).from(orderItems).where(eq(orderItems.orderId, order.id));

    const part = await refundOrder(db, {
      orderId: order.id,
      items: [{ orderItemId: line!.id, quantity: 1 }],
      actorId: null,
      reason: "Wrong size",
      now: minutes(30),
    });
    expect(part).toMatchObject({ ok: true, status: "partly_refunded", amount: 2000 });
    expect(await stockOf(variantId, minutes(30))).toEqual({ stock: 4, held: 0 });

    const rest = await refundOrder(db, { orderId: order.id, actorId: null, reason: "Returned", now: minutes(40) });
    expect(rest).toMatchObject({
      ok: true,
      status: "refunded",
      amount: 2000 + 495,
      lines: [
        { description: expect.stringContaining("— L"), quantity: 1, amount: 2000 },
        { description: "Shipping", quantity: 1, amount: 495 },
      ],
    });
    expect(await stockOf(variantId, minutes(40))).toEqual({ stock: 5, held: 0 });
    const again = await refundOrder(db, { orderId: order.id, actorId: null, reason: "Again", now: minutes(50) });
    expect(again).toEqual({ ok: false, problem: "This order has already been refunded in full." });
    expect(await stockOf(variantId, minutes(50))).toEqual({ stock: 5, held: 0 });
  });

  it("expiry releases merch holds, so the units are free to others", async () => {
    const { db } = database();
    const { variantId, order } = await pendingMerchOrder({ stock: 2, quantity: 2 });
    expect(await stockOf(variantId, minutes(1))).toEqual({ stock: 2, held: 2 });
    expect(await expireHolds(db, minutes(16))).toEqual({ expired: 1 });
    const [hold] = await db.select({ status: holds.status }).from(holds).where(eq(holds.orderId, order.id));
    expect(hold?.status).toBe("released");
    expect(await stockOf(variantId, minutes(1))).toEqual({ stock: 2, held: 0 });
  });

  it("sends shipping to the payment provider as a line of its own, so the lines add up to the total", async () => {
    const { db } = database();
    const { member, order } = await pendingMerchOrder({ quantity: 1 });
    const seen: { description: string; unitAmount: number; quantity: number }[][] = [];
    const gateway = {
      provider: "test" as const,
      async startPayment(input: { lines: { description: string; unitAmount: number; quantity: number }[] }) {
        seen.push(input.lines);
        return { redirectUrl: "https://pay.example/session", sessionId: "cs_test_1" };
      },
    } as unknown as Parameters<typeof startOrderPayment>[1];
    await startOrderPayment(db, gateway, {
      orderId: order.id,
      userId: member.id,
      siteUrl: "http://x",
      now: minutes(1),
    });
    expect(seen[0]!.at(-1)).toEqual({ description: "Delivery", unitAmount: 495, quantity: 1 });
    expect(seen[0]!.reduce((sum, line) => sum + line.unitAmount * line.quantity, 0)).toBe(order.total);
  });

  it("shows the test checkout the delivery the total includes", async () => {
    const { db } = database();
    const { member, order } = await pendingMerchOrder({ quantity: 1 });
    const shown = await sandboxCheckoutOrder(db, { orderId: order.id, userId: member.id });
    expect(shown).toMatchObject({ total: 2495, shipping: 495, shippingMethod: "delivery" });
    expect(shown!.lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0) + shown!.shipping).toBe(
      shown!.total,
    );
  });

  it("never lets stock go below zero even when staff counted the shelf down under a live hold", async () => {
    const { db } = database();
    const { variantId, order } = await pendingMerchOrder({ stock: 2, quantity: 2 });
    await db.update(productVariants).set({ stock: 1 }).where(eq(productVariants.id, variantId));
    const outcome = await settleOrder(db, payment(order.id, order.total));
    expect(outcome).toMatchObject({ kind: "refund_required", reason: LATE_SOLD_OUT_REASON });
    expect(await stockOf(variantId, minutes(6))).toEqual({ stock: 1, held: 0 });
  });

  it("shows the buyer the merch line, the shipping and where it goes; an erased account keeps only the country", async () => {
    const { db } = database();
    const { member, order } = await pendingMerchOrder({ quantity: 1 });
    await settleOrder(db, payment(order.id, order.total));
    const view = await orderForBuyer(db, {
      orderId: order.id,
      userId: member.id,
      secret: "a-test-secret-that-is-long-enough-0123456789",
      siteTimeZone: "Europe/London",
    });
    expect(view).toMatchObject({
      subtotal: 2000,
      shipping: 495,
      total: 2495,
      items: [{ description: expect.stringMatching(/— L$/), quantity: 1 }],
      delivery: {
        method: "delivery",
        heading: "Delivery to",
        lines: ["Ada Driver", "1 Paddock Lane", "Silverstone", "NN12 8TN", "United Kingdom"],
      },
    });

    const section = commerceMemberData.find((candidate) => candidate.name === "orders")!;
    await db.transaction((tx) => section.erase!(tx, member.id));
    const [row] = await db.select({ address: orders.shippingAddress }).from(orders).where(eq(orders.id, order.id));
    expect(row?.address).toEqual({
      name: "Deleted member",
      line1: "(removed)",
      town: "(removed)",
      postcode: "(removed)",
      country: "GB",
    });
  });
});
