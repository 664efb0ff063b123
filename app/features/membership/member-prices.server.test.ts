import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getOrCreateCart, setCartItem } from "~/features/cart/cart.server";
import { checkoutFor, createBuyers, createTestEvent, NOW } from "~/features/checkout/stock.test-support";
import { loadCart, startCheckout } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { memberships, ticketTypes } from "../../../db/schema";
import { issueMembership } from "./memberships.server";
import { createTestTier } from "./tiers.test-support";

// Member prices, members-only tickets and a members' presale, as the cart and checkout apply
// them: the buyer's membership is read when they act, so one that has ended loses them.
const database = freshDatabasePerFile();
const DAY = 24 * 60 * 60 * 1000;

async function setup() {
  const { db } = database();
  const tier = await createTestTier(db);
  const event = await createTestEvent(db, {
    title: "Members' track evening",
    types: [
      { name: "Adult", price: 2000, salesStartAt: new Date(NOW.getTime() + 7 * DAY) },
      { name: "Crew", price: 500 },
      { name: "Paddock", price: 3000 },
    ],
  });
  const [adult, crew, paddock] = event.typeIds as [string, string, string];
  await db
    .update(ticketTypes)
    .set({ memberPrice: 1500, memberSalesStartAt: new Date(NOW.getTime() - DAY) })
    .where(eq(ticketTypes.id, adult));
  await db.update(ticketTypes).set({ membersOnly: true }).where(eq(ticketTypes.id, crew));
  await db.update(ticketTypes).set({ memberPrice: 2500 }).where(eq(ticketTypes.id, paddock));
  const [member, visitor] = await createBuyers(db, 2);
  await issueMembership(db, { userId: member!.id, tier, people: [], orderId: null, paidPence: 3000, paidAt: NOW });
  return { db, adult, crew, paddock, member: member!, visitor: visitor! };
}

describe("member prices and presales", () => {
  it("lets a member buy in the presale at the member price, with the saving in the cart", async () => {
    const { db, adult, crew, member } = await setup();
    const cartId = await getOrCreateCart(db, { userId: member.id });
    const line = { cartId, quantity: 2, now: NOW, userId: member.id, member: true };
    expect(await setCartItem(db, { ...line, ticketTypeId: adult })).toMatchObject({ ok: true });
    expect(await setCartItem(db, { ...line, ticketTypeId: crew })).toMatchObject({ ok: true });
    const cart = await loadCart(db, { cartId, userId: member.id, now: NOW });
    expect(cart).toMatchObject({ subtotal: 2 * 1500 + 2 * 500, memberSaving: 2 * 500, payable: true });

    const checkout = await startCheckout(db, checkoutFor(member, cartId));
    if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));
    expect(checkout.order.total).toBe(2 * 1500 + 2 * 500);
  });

  it("keeps everyone else to the general sale and out of members-only tickets, with a clear message", async () => {
    const { db, adult, crew, paddock, visitor } = await setup();
    const cartId = await getOrCreateCart(db, { userId: visitor.id });
    const line = { cartId, quantity: 1, now: NOW, userId: visitor.id };
    expect(await setCartItem(db, { ...line, ticketTypeId: adult })).toMatchObject({
      ok: false,
      problem: {
        code: "not_yet",
        message: expect.stringMatching(/^Adult tickets for Members' track evening go on sale on /),
      },
    });
    expect(await setCartItem(db, { ...line, ticketTypeId: crew })).toMatchObject({
      ok: false,
      problem: { code: "members_only", message: "Crew tickets for Members' track evening are for members only" },
    });
    expect(await setCartItem(db, { ...line, ticketTypeId: paddock })).toMatchObject({ ok: true });
    const cart = await loadCart(db, { cartId, userId: visitor.id, now: NOW });
    expect(cart.subtotal).toBe(3000);
    expect(cart.sections[0]?.lines[0]).toMatchObject({ unitPrice: 3000, memberPrice: 2500 });
  });

  it("takes the member price away when the membership ends before checkout", async () => {
    const { db, adult, paddock, member } = await setup();
    const cartId = await getOrCreateCart(db, { userId: member.id });
    const line = { cartId, quantity: 1, now: NOW, userId: member.id, member: true };
    await setCartItem(db, { ...line, ticketTypeId: paddock });
    await setCartItem(db, { ...line, ticketTypeId: adult });
    await db.update(memberships).set({ endedAt: NOW, endReason: "refunded" }).where(eq(memberships.userId, member.id));

    // The presale is closed to them now: checkout says so, naming the ticket.
    const refused = await startCheckout(db, checkoutFor(member, cartId, new Date(NOW.getTime() + 1000)));
    expect(refused).toMatchObject({ ok: false, problems: [{ code: "not_yet", line: adult }] });
    const cart = await loadCart(db, { cartId, userId: member.id, now: new Date(NOW.getTime() + 1000) });
    expect(cart.memberSaving).toBe(0);
    expect(cart.sections[0]?.lines.find((shown) => shown.ref === paddock)).toMatchObject({ unitPrice: 3000 });
  });
});

describe("prices per tier", () => {
  async function tierSetup() {
    const { db } = database();
    const family = await createTestTier(db, { name: "Family", people: 4 });
    const annual = await createTestTier(db, { name: "Annual" });
    const event = await createTestEvent(db, { title: "Novice evening", types: [{ name: "Novice", price: 14900 }] });
    const novice = event.typeIds[0]!;
    await db
      .update(ticketTypes)
      .set({ memberPrice: 12900, tierPrices: { [family.id]: 11900 } })
      .where(eq(ticketTypes.id, novice));
    const [familyMember, annualMember, visitor] = await createBuyers(db, 3);
    const join = (userId: string, tier: typeof family) =>
      issueMembership(db, { userId, tier, people: [], orderId: null, paidPence: tier.price, paidAt: NOW });
    await join(familyMember!.id, family);
    await join(annualMember!.id, annual);
    return { db, novice, familyMember: familyMember!, annualMember: annualMember!, visitor: visitor! };
  }

  async function pays(db: Db, buyer: { id: string; email: string }, ticketTypeId: string, now = NOW) {
    const cartId = await getOrCreateCart(db, { userId: buyer.id });
    await setCartItem(db, { cartId, ticketTypeId, quantity: 1, now: NOW, userId: buyer.id });
    const cart = await loadCart(db, { cartId, userId: buyer.id, now });
    const checkout = await startCheckout(db, checkoutFor(buyer, cartId, now));
    if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));
    return { cart: cart.subtotal, saving: cart.memberSaving, order: checkout.order.total };
  }

  it("charges a Family member the Family price, with what it saves in the cart", async () => {
    const { db, novice, familyMember } = await tierSetup();
    expect(await pays(db, familyMember, novice)).toEqual({ cart: 11900, saving: 3000, order: 11900 });
  });

  it("charges a member of a tier without its own price the member price", async () => {
    const { db, novice, annualMember } = await tierSetup();
    expect(await pays(db, annualMember, novice)).toEqual({ cart: 12900, saving: 2000, order: 12900 });
  });

  it("charges a buyer who is not a member the price", async () => {
    const { db, novice, visitor } = await tierSetup();
    expect(await pays(db, visitor, novice)).toEqual({ cart: 14900, saving: 0, order: 14900 });
  });

  it("takes the tier's price away when the membership ends before checkout", async () => {
    const { db, novice, familyMember } = await tierSetup();
    await db
      .update(memberships)
      .set({ endedAt: NOW, endReason: "refunded" })
      .where(eq(memberships.userId, familyMember.id));
    const later = new Date(NOW.getTime() + 1000);
    expect(await pays(db, familyMember, novice, later)).toEqual({ cart: 14900, saving: 0, order: 14900 });
  });
});
