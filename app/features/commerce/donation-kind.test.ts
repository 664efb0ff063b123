import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loadCartPage } from "~/features/cart/cart-page.server";
import { checkoutFor, createBuyers, createTestEvent, fillCart, NOW } from "~/features/checkout/stock.test-support";
import { orderEmail } from "~/features/orders/order-email.server";
import { orderForConfirmation } from "~/features/orders/order-views.server";
import { SOLD_KINDS } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { cartItems, type ItemKind as ItemKindName, orderHistory, orderItems, orders } from "../../../db/schema";
import { startCheckout } from "./checkout.server";
import type { ItemKind } from "./item-kind";
import { refundOrder } from "./refund.server";
import { settlementFor } from "./settle.server";

/**
 * A kind the site does not sell, kept here to show what adding one takes: this module and one
 * line in the list handed to the core. A donation line is so many pounds to the club's charity:
 * nothing to lock, hold or issue, and every pound can be refunded.
 */
const donationKind: ItemKind = {
  name: "donation",
  unit: { one: "donation", other: "donations" },
  cart: {
    sections: [{ id: "cart-donations", title: "Donations" }],
    lines: async (_db, rows) =>
      rows.map((row) => ({
        section: "cart-donations",
        ref: row.id,
        label: "Donation to the Air Ambulance",
        header: { href: "/", of: "Pitlane", name: "Donation to the Air Ambulance", detail: null },
        unitPrice: 100,
        quantity: row.quantity,
        target: { donationId: row.id },
        item: { kind: "donation" },
        problem: null,
        problemId: `donation-problem-${row.id}`,
        closed: false,
        update: null,
        remove: { intent: "remove-donation", label: "Remove the donation" },
      })),
  },
  async checkout(_tx, rows) {
    return {
      check: async () => ({
        problems: [],
        lines: rows.map((row) => ({
          values: { description: "Donation to the Air Ambulance", unitPrice: 100, quantity: row.quantity },
          hold: null,
        })),
      }),
    };
  },
  async settle() {
    return { short: () => false, refusal: async () => null, afterPaid: async () => ({ issued: 0 }) };
  },
  paid: {
    writes: () => [],
    boughtInCart: () => sql`${cartItems.kind} = 'donation'`,
    values: () => ({}),
  },
  async refund() {
    return {
      units: async () => (line) =>
        Array.from({ length: line.quantity - line.refundedQuantity }, () => ({ ids: [], status: "valid" })),
      refund: async () => {},
    };
  },
};

const KINDS = [...SOLD_KINDS, donationKind];
const { settleOrder } = settlementFor(KINDS);
const database = freshDatabasePerFile();

describe("a new kind of item", () => {
  it("goes through cart, checkout, settlement, refund and the order email with no change to the core", async () => {
    const { db } = database();
    const event = await createTestEvent(db, { types: [{ name: "Adult", price: 1500, capacity: 10 }] });
    const [buyer] = await createBuyers(db, 1);
    const cartId = await fillCart(db, buyer!.id, [{ ticketTypeId: event.typeIds[0]!, quantity: 1 }]);
    await db.insert(cartItems).values({ cartId, kind: "donation" as ItemKindName, quantity: 5 });

    const cart = await loadCartPage(db, KINDS, { cartId, userId: buyer!.id, now: NOW });
    expect(cart.sections.map((section) => [section.title, section.lines.length])).toEqual([
      ["Tickets", 1],
      ["Donations", 1],
    ]);
    expect(cart).toMatchObject({ subtotal: 1500 + 500, payable: true });

    const checkout = await startCheckout(db, KINDS, checkoutFor(buyer!, cartId));
    if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));
    expect(checkout.order.total).toBe(1500 + 500);

    const settled = await settleOrder(db, {
      orderId: checkout.order.id,
      provider: "test",
      paymentReference: "pay_donation",
      amount: checkout.order.total,
      now: NOW,
    });
    expect(settled).toMatchObject({ kind: "settled", issued: { ticket: 1, donation: 0 } });
    expect(await db.select().from(cartItems).where(eq(cartItems.cartId, cartId))).toEqual([]);

    const view = await orderForConfirmation(db, {
      orderId: checkout.order.id,
      secret: "a-secret-of-at-least-thirty-two-characters",
      siteTimeZone: "Europe/London",
    });
    const email = await orderEmail({ siteName: "Pitlane", siteUrl: "https://club.example" }, view!);
    expect(email.text).toContain("Donation to the Air Ambulance");

    const [line] = await db
      .select({ id: orderItems.id })
      .from(orderItems)
      .where(eq(orderItems.kind, "donation" as ItemKindName));
    const refunded = await refundOrder(db, KINDS, {
      orderId: checkout.order.id,
      items: [{ orderItemId: line!.id, quantity: 2 }],
      actorId: null,
      reason: "Asked for part of it back",
      now: NOW,
    });
    expect(refunded).toMatchObject({
      ok: true,
      amount: 200,
      status: "partly_refunded",
      lines: [{ description: "Donation to the Air Ambulance", quantity: 2, amount: 200 }],
    });
    const history = await db
      .select({ note: orderHistory.note })
      .from(orderHistory)
      .where(eq(orderHistory.orderId, checkout.order.id));
    expect(history.map((row) => row.note)).toContain("2 donations refunded: Asked for part of it back");
    const [order] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, checkout.order.id));
    expect(order?.status).toBe("partly_refunded");
  });

  it("is refused by the core when it is not in the list", async () => {
    const { db } = database();
    const [buyer] = await createBuyers(db, 1);
    const cartId = await fillCart(db, buyer!.id, []);
    await db.insert(cartItems).values({ cartId, kind: "donation" as ItemKindName, quantity: 1 });
    await expect(startCheckout(db, SOLD_KINDS, checkoutFor(buyer!, cartId))).rejects.toThrow(
      'No item kind is called "donation"',
    );
  });
});
