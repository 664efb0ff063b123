import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findCart } from "~/features/cart/cart.server";
import { enterCode } from "~/features/cart/cart-code.server";
import {
  checkoutFor,
  createBuyers,
  createTestEvent,
  fillCart,
  NOW,
  paidInFull,
} from "~/features/checkout/stock.test-support";
import { addMembershipToCart } from "~/features/membership/cart-membership.server";
import { createTestTier } from "~/features/membership/tiers.test-support";
import { loadCart, refundOrder, settleOrder, startCheckout } from "~/features/selling/selling.server";
import { availabilityByTicketType } from "~/features/tickets/ticket-stock.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { carts, orderItems, orders, transactions, voucherUses } from "../../../db/schema";
import { LATE_VOUCHER_REASON, readVoucherUses } from "./voucher-uses.server";
import { createTestVoucher } from "./vouchers.test-support";

const database = freshDatabasePerFile();
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

async function buyer() {
  const [one] = await createBuyers(database().db, 1);
  return one!;
}

async function withCode(cartId: string, voucherId: string) {
  await database().db.update(carts).set({ voucherId }).where(eq(carts.id, cartId));
}

async function orderOf(orderId: string) {
  const { db } = database();
  const [order] = await db
    .select({ subtotal: orders.subtotal, discount: orders.discount, total: orders.total, code: orders.voucherCode })
    .from(orders)
    .where(eq(orders.id, orderId));
  const lines = await db
    .select({ unitPrice: orderItems.unitPrice, quantity: orderItems.quantity, discount: orderItems.discount })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(orderItems.unitPrice);
  return { ...order!, lines };
}

describe("a voucher at checkout", () => {
  it("takes its discount off the lines it applies to, records the use, and the order adds up", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, {
      types: [
        { name: "Adult", price: 2500 },
        { name: "Child", price: 1000 },
      ],
    });
    const voucher = await createTestVoucher(db, {
      code: "ADULTS10",
      effect: "percent_off",
      value: 10,
      ticketTypeIds: [typeIds[0]!],
    });
    const member = await buyer();
    const cartId = await fillCart(db, member.id, [
      { ticketTypeId: typeIds[0]!, quantity: 2 },
      { ticketTypeId: typeIds[1]!, quantity: 1 },
    ]);
    await withCode(cartId, voucher.id);

    const result = await startCheckout(db, checkoutFor(member, cartId));
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.order.total).toBe(5500);
    expect(await orderOf(result.order.id)).toEqual({
      subtotal: 6000,
      discount: 500,
      total: 5500,
      code: "ADULTS10",
      lines: [
        { unitPrice: 1000, quantity: 1, discount: 0 },
        { unitPrice: 2500, quantity: 2, discount: 500 },
      ],
    });
    const [use] = await db.select().from(voucherUses).where(eq(voucherUses.orderId, result.order.id));
    expect(use).toMatchObject({ voucherId: voucher.id, userId: member.id, units: 2, amount: 500 });
  });

  it("refuses a code that is used up, naming it, and leaves nothing behind", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult", price: 2500 }] });
    const voucher = await createTestVoucher(db, { code: "ONLYTWO", maxUses: 2 });
    const [first, second] = await createBuyers(db, 2);
    const firstCart = await fillCart(db, first!.id, [{ ticketTypeId: typeIds[0]!, quantity: 2 }]);
    const secondCart = await fillCart(db, second!.id, [{ ticketTypeId: typeIds[0]!, quantity: 1 }]);
    await withCode(firstCart, voucher.id);
    await withCode(secondCart, voucher.id);

    expect((await startCheckout(db, checkoutFor(first!, firstCart))).ok).toBe(true);
    const refused = await startCheckout(db, checkoutFor(second!, secondCart));
    expect(refused).toEqual({
      ok: false,
      problems: [{ code: "voucher", message: "The code ONLYTWO has been used up. Remove the code to pay without it." }],
    });
    expect(await db.select().from(orders).where(eq(orders.userId, second!.id))).toEqual([]);
    // The cart says so before Pay, and Pay is not offered.
    const cart = await loadCart(db, { cartId: secondCart, userId: second!.id, now: NOW });
    expect(cart.voucher).toEqual({
      code: "ONLYTWO",
      discount: 0,
      keepsPlaces: false,
      problem: "The code ONLYTWO has been used up",
    });
    expect(cart.payable).toBe(false);
  });

  it("gives a use back when its order is replaced, expires or is wholly refunded", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult", price: 2500 }] });
    const voucher = await createTestVoucher(db, { code: "ONCEONLY", maxUses: 1 });
    const member = await buyer();
    const cartId = await fillCart(db, member.id, [{ ticketTypeId: typeIds[0]!, quantity: 1 }]);
    await withCode(cartId, voucher.id);

    const first = await startCheckout(db, checkoutFor(member, cartId));
    if (!first.ok) throw new Error("refused");
    expect(await readVoucherUses(db, voucher.id, { now: NOW })).toEqual({ all: 1, member: 0 });
    expect(await readVoucherUses(db, voucher.id, { now: minutes(15) })).toEqual({ all: 0, member: 0 });
    // Starting again replaces the unpaid order, whose use no longer counts.
    const again = await startCheckout(db, checkoutFor(member, cartId, minutes(1)));
    if (!again.ok) throw new Error(JSON.stringify(again.problems));
    expect(await settleOrder(db, paidInFull(again.order, minutes(2)))).toMatchObject({ kind: "settled" });
    expect(await readVoucherUses(db, voucher.id, { now: minutes(60), userId: member.id })).toEqual({
      all: 1,
      member: 1,
    });

    const refund = await refundOrder(db, { orderId: again.order.id, actorId: null, reason: "Test", now: minutes(61) });
    expect(refund).toMatchObject({ ok: true, amount: 2250, status: "refunded" });
    expect(await readVoucherUses(db, voucher.id, { now: minutes(62) })).toEqual({ all: 0, member: 0 });
  });

  it("refunds each unit less its share of the discount, and the rest exactly with the last", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult", price: 1000 }] });
    const voucher = await createTestVoucher(db, { code: "THREEOFF", effect: "amount_off", value: 333 });
    const member = await buyer();
    const cartId = await fillCart(db, member.id, [{ ticketTypeId: typeIds[0]!, quantity: 3 }]);
    await withCode(cartId, voucher.id);
    const checkout = await startCheckout(db, checkoutFor(member, cartId));
    if (!checkout.ok) throw new Error("refused");
    expect(checkout.order.total).toBe(2001);
    await settleOrder(db, paidInFull(checkout.order, minutes(1)));
    const [line] = await db
      .select({ id: orderItems.id })
      .from(orderItems)
      .where(eq(orderItems.orderId, checkout.order.id));

    const one = await refundOrder(db, {
      orderId: checkout.order.id,
      items: [{ orderItemId: line!.id, quantity: 1 }],
      actorId: null,
      reason: "Cannot come",
      now: minutes(2),
    });
    expect(one).toMatchObject({ ok: true, amount: 667, status: "partly_refunded" });
    const rest = await refundOrder(db, { orderId: checkout.order.id, actorId: null, reason: "Rest", now: minutes(3) });
    expect(rest).toMatchObject({ ok: true, amount: 1334, status: "refunded" });
    const refunds = await db
      .select({ amount: transactions.amount })
      .from(transactions)
      .where(and(eq(transactions.orderId, checkout.order.id), eq(transactions.kind, "refund")));
    expect(refunds.reduce((sum, refund) => sum + refund.amount, 0)).toBe(2001);
  });

  it("lets a code's holders buy a hidden ticket type that nobody else can", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, {
      types: [
        { name: "Adult", price: 2500 },
        { name: "Crew", price: 0, hidden: true },
      ],
    });
    const crew = typeIds[1]!;
    const voucher = await createTestVoucher(db, {
      code: "CREWPASS",
      effect: "set_price",
      value: 0,
      ticketTypeIds: [crew],
    });
    const [withIt, without] = await createBuyers(db, 2);
    const allowed = await fillCart(db, withIt!.id, [{ ticketTypeId: crew, quantity: 1 }]);
    await withCode(allowed, voucher.id);
    const refusedCart = await fillCart(db, without!.id, [{ ticketTypeId: crew, quantity: 1 }]);

    const result = await startCheckout(db, checkoutFor(withIt!, allowed));
    expect(result).toMatchObject({ ok: true, order: { total: 0 } });
    const refused = await startCheckout(db, checkoutFor(without!, refusedCart));
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.problems[0]!.code).toBe("not_on_sale");
  });

  it("keeps its unused uses' places from the public sale, and gives them to its holders", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, { types: [{ name: "Paddock", price: 4000, capacity: 5 }] });
    const paddock = typeIds[0]!;
    const voucher = await createTestVoucher(db, {
      code: "PADDOCKCLUB",
      maxUses: 3,
      holdsPlaces: true,
      ticketTypeIds: [paddock],
    });
    expect((await availabilityByTicketType(db, [paddock], NOW)).get(paddock)).toEqual({ sold: 0, held: 3 });

    const [publicBuyer, holder] = await createBuyers(db, 2);
    const publicCart = await fillCart(db, publicBuyer!.id, [{ ticketTypeId: paddock, quantity: 3 }]);
    const publicTry = await startCheckout(db, checkoutFor(publicBuyer!, publicCart));
    expect(publicTry.ok).toBe(false);
    if (!publicTry.ok) expect(publicTry.problems[0]).toMatchObject({ code: "not_enough", remaining: 2 });

    const holderCart = await fillCart(db, holder!.id, [{ ticketTypeId: paddock, quantity: 3 }]);
    await withCode(holderCart, voucher.id);
    expect((await startCheckout(db, checkoutFor(holder!, holderCart))).ok).toBe(true);
    // The holder's places are now held by their order, and the code keeps none any more.
    expect((await availabilityByTicketType(db, [paddock], NOW)).get(paddock)).toEqual({ sold: 0, held: 3 });
  });

  it("refuses a payment that arrives after the hold ran out once the code's last use has gone", async () => {
    const { db } = database();
    const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult", price: 2500 }] });
    const voucher = await createTestVoucher(db, { code: "LASTONE", maxUses: 1 });
    const [slow, quick] = await createBuyers(db, 2);
    const slowCart = await fillCart(db, slow!.id, [{ ticketTypeId: typeIds[0]!, quantity: 1 }]);
    const quickCart = await fillCart(db, quick!.id, [{ ticketTypeId: typeIds[0]!, quantity: 1 }]);
    await withCode(slowCart, voucher.id);
    await withCode(quickCart, voucher.id);
    const slowOrder = await startCheckout(db, checkoutFor(slow!, slowCart));
    if (!slowOrder.ok) throw new Error("refused");
    // The slow buyer's hold runs out; the quick one takes the use and pays.
    const quickOrder = await startCheckout(db, checkoutFor(quick!, quickCart, minutes(16)));
    if (!quickOrder.ok) throw new Error(JSON.stringify(quickOrder.problems));
    await settleOrder(db, paidInFull(quickOrder.order, minutes(17)));

    const late = await settleOrder(db, paidInFull(slowOrder.order, minutes(18)));
    expect(late).toMatchObject({ kind: "refund_required", reason: LATE_VOUCHER_REASON });
  });

  it("joins a membership with a code entered as typed, and the member pays what is left", async () => {
    const { db } = database();
    const tier = await createTestTier(db, { name: "Annual", price: 3000 });
    await createTestVoucher(db, { code: "JOIN5", effect: "amount_off", value: 500, tierIds: [tier.id] });
    const member = await buyer();
    const added = await addMembershipToCart(db, { userId: member.id, tierId: tier.id, people: [], now: NOW });
    if (!added.ok) throw new Error(added.problem.message);
    const entered = await enterCode(db, {
      owner: { userId: member.id },
      typed: " join-5 ",
      ip: "203.0.113.9",
      now: NOW,
    });
    expect(entered).toEqual({ ok: true, code: "JOIN5" });
    const cartId = (await findCart(db, { userId: member.id }))!;
    const cart = await loadCart(db, { cartId, userId: member.id, now: NOW });
    expect(cart.voucher).toEqual({ code: "JOIN5", discount: 500, keepsPlaces: false, problem: null });

    const result = await startCheckout(db, checkoutFor(member, cartId));
    expect(result).toMatchObject({ ok: true, order: { total: 2500 } });
  });

  it("does not know a code that was never issued, and limits how many are tried from one network", async () => {
    const { db } = database();
    const owner = { userId: (await buyer()).id };
    expect(await enterCode(db, { owner, typed: "nope123", ip: "198.51.100.7", now: NOW })).toEqual({
      ok: false,
      message: "There is no code NOPE123: check it and try again",
    });
    for (let tries = 1; tries < 20; tries++)
      await enterCode(db, { owner, typed: "nope123", ip: "198.51.100.7", now: NOW });
    expect(await enterCode(db, { owner, typed: "nope123", ip: "198.51.100.7", now: NOW })).toEqual({
      ok: false,
      message: "Too many codes have been tried from your network. Wait a few minutes and try again.",
    });
  });
});
