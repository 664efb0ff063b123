import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findCart } from "~/features/cart/cart.server";
import { checkoutFor, createBuyers, NOW, paidInFull } from "~/features/checkout/stock.test-support";
import { refundOrder, settleOrder, startCheckout } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { cartItems, holds, memberships, orders } from "../../../db/schema";
import { addMembershipToCart } from "./cart-membership.server";
import { ALREADY_MEMBER_REASON, TIER_FULL_REASON } from "./membership-kind.server";
import { currentMembership, issueMembership } from "./memberships.server";
import { readTierPlaces } from "./tier-places.server";
import { createTestTier } from "./tiers.test-support";

const database = freshDatabasePerFile();
const DAY = 24 * 60 * 60 * 1000;

async function join(
  db: Parameters<typeof startCheckout>[0],
  buyer: { id: string; email: string },
  tierId: string,
  people: string[] = [],
  now = NOW,
) {
  const added = await addMembershipToCart(db, { userId: buyer.id, tierId, people, now });
  if (!added.ok) return { ok: false as const, problems: [added.problem] };
  const cartId = await findCart(db, { userId: buyer.id });
  return startCheckout(db, checkoutFor(buyer, cartId!, now));
}

describe("a membership in the cart, through checkout, settlement and refunds", () => {
  it("holds a place while the member pays, issues the membership when paid, and ends it when refunded", async () => {
    const { db } = database();
    const tier = await createTestTier(db, { name: "Family", price: 4500, people: 4 });
    const [buyer] = await createBuyers(db, 1);
    const checkout = await join(db, buyer!, tier.id, ["Sam Driver", "Alex Driver"]);
    if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));
    expect(checkout.order.total).toBe(4500);
    const [hold] = await db.select().from(holds).where(eq(holds.orderId, checkout.order.id));
    expect(hold).toMatchObject({ kind: "membership", tierId: tier.id, quantity: 1 });

    const settled = await settleOrder(db, paidInFull(checkout.order));
    expect(settled).toMatchObject({ kind: "settled", issued: { membership: 1 } });
    const current = await currentMembership(db, buyer!.id, NOW);
    expect(current?.tier.name).toBe("Family");
    expect(current?.membership).toMatchObject({ people: ["Sam Driver", "Alex Driver"], paidPence: 4500, renews: true });
    expect(current?.membership.paidUntil.toISOString()).toBe("2028-05-01T10:00:00.000Z");
    expect(await db.select().from(cartItems).where(eq(cartItems.tierId, tier.id))).toEqual([]);

    const [line] = await db.query.orderItems.findMany({
      where: (items, { eq }) => eq(items.orderId, checkout.order.id),
    });
    const refunded = await refundOrder(db, {
      orderId: checkout.order.id,
      items: [{ orderItemId: line!.id, quantity: 1 }],
      actorId: null,
      reason: "Changed their mind",
      now: new Date(NOW.getTime() + 2 * DAY),
    });
    expect(refunded).toMatchObject({ ok: true, amount: 4500, status: "refunded" });
    expect(await currentMembership(db, buyer!.id, new Date(NOW.getTime() + 3 * DAY))).toBeNull();
    const [row] = await db.select().from(memberships).where(eq(memberships.userId, buyer!.id));
    expect(row).toMatchObject({ endReason: "refunded", renews: false });
  });

  it("refuses a member who already holds a membership, and a tier that is full", async () => {
    const { db } = database();
    const capped = await createTestTier(db, { capacity: 1 });
    const [first, second] = await createBuyers(db, 2);
    const checkout = await join(db, first!, capped.id);
    if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));

    // The first buyer's hold takes the only place.
    const full = await join(db, second!, capped.id);
    expect(full).toMatchObject({ ok: false, problems: [{ code: "full" }] });
    expect((await readTierPlaces(db, [capped.id], NOW, { lock: false })).tiers.get(capped.id)).toMatchObject({
      members: 0,
      held: 1,
    });

    await settleOrder(db, paidInFull(checkout.order));
    const again = await addMembershipToCart(db, { userId: first!.id, tierId: capped.id, people: [], now: NOW });
    expect(again).toMatchObject({
      ok: false,
      problem: { code: "member", message: "You are already a member, until 1 May 2028" },
    });
    expect((await readTierPlaces(db, [capped.id], NOW, { lock: false })).tiers.get(capped.id)).toMatchObject({
      members: 1,
      held: 0,
    });
  });

  it("refuses more people than a tier names, and a tier that is not on sale", async () => {
    const { db } = database();
    const single = await createTestTier(db, { name: "Individual" });
    const closed = await createTestTier(db, { name: "Founders", onSale: false });
    const [buyer] = await createBuyers(db, 1);
    expect(
      await addMembershipToCart(db, { userId: buyer!.id, tierId: single.id, people: ["Sam"], now: NOW }),
    ).toMatchObject({
      ok: false,
      problem: { message: "Individual is for one person" },
    });
    expect(await addMembershipToCart(db, { userId: buyer!.id, tierId: closed.id, people: [], now: NOW })).toMatchObject(
      {
        ok: false,
        problem: { message: "That membership tier is not open to new members" },
      },
    );
  });

  it("honours a late payment only while a place is free", async () => {
    const { db } = database();
    const capped = await createTestTier(db, { capacity: 1 });
    const [late, onTime] = await createBuyers(db, 2);
    const first = await join(db, late!, capped.id);
    if (!first.ok) throw new Error(JSON.stringify(first.problems));
    // The first hold runs out; another member takes the place and pays.
    const later = new Date(NOW.getTime() + DAY);
    const second = await join(db, onTime!, capped.id, [], later);
    if (!second.ok) throw new Error(JSON.stringify(second.problems));
    await settleOrder(db, paidInFull(second.order, later));
    const settled = await settleOrder(db, paidInFull(first.order, later));
    expect(settled).toMatchObject({ kind: "refund_required", amount: 3000, reason: TIER_FULL_REASON });
    const [order] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, first.order.id));
    expect(order?.status).toBe("expired");
    expect(await currentMembership(db, late!.id, later)).toBeNull();
  });

  it("refunds a payment that arrives when the member already holds a membership another way", async () => {
    const { db } = database();
    const tier = await createTestTier(db);
    const [buyer] = await createBuyers(db, 1);
    const checkout = await join(db, buyer!, tier.id);
    if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));
    // Staff record the member's membership (an import, say) while the payment is on its way.
    await issueMembership(db, { userId: buyer!.id, tier, people: [], orderId: null, paidPence: 0, paidAt: NOW });
    const settled = await settleOrder(db, paidInFull(checkout.order));
    expect(settled).toMatchObject({ kind: "refund_required", amount: 3000, reason: ALREADY_MEMBER_REASON });
    const [order] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, checkout.order.id));
    expect(order?.status).toBe("cancelled");
  });
});
