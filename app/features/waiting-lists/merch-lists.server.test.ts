import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findCart } from "~/features/cart/cart.server";
import { DELIVERY, fillMerchCart, setShippingRates } from "~/features/checkout/merch.test-support";
import { checkoutFor, createBuyers, NOW, paidInFull } from "~/features/checkout/stock.test-support";
import { refundOrder, settleOrder, startCheckout } from "~/features/selling/selling.server";
import { addVariantToCart } from "~/features/shop/cart-merch.server";
import { createTestProduct } from "~/features/shop/products.test-support";
import { availableUnits, readVariantStock } from "~/features/shop/stock.server";
import { adjustStock } from "~/features/shop/stock-adjustments.server";
import type { Db } from "~/server/db/client.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { cartItems, productVariants, waitingListEntries } from "../../../db/schema";
import {
  claimOffer,
  joinVariantWaitingList,
  leaveWaitingList,
  memberListsOnProduct,
  moveInLine,
  waitingListsOfMember,
} from "./waiting-lists.server";
import { runListsAt } from "./waiting-lists.test-support";

const database = freshDatabasePerFile();
const hours = (n: number) => new Date(NOW.getTime() + n * 3_600_000);
const ZONE = "Europe/London";

/** A tee in one size with nothing left on the shelf. */
async function soldOutTee(db: Db) {
  await setShippingRates(db, { flatFee: 0, freeOver: null, countries: ["GB"] });
  const tee = await createTestProduct(db, {
    title: "Club tee",
    optionNames: ["Size"],
    variants: [
      { options: ["M"], stock: 0, maxPerOrder: 3 },
      { options: ["L"], stock: 5 },
    ],
  });
  const [admin] = await createBuyers(db, 1);
  return { productId: tee.id, variantId: tee.variantIds[0]!, inStockId: tee.variantIds[1]!, admin: admin! };
}

/** Puts units on the shelf the way staff do after a delivery. */
async function restock(db: Db, tee: Awaited<ReturnType<typeof soldOutTee>>, amount: number, now: Date) {
  const adjusted = await adjustStock(db, {
    actorId: tee.admin.id,
    productId: tee.productId,
    variantId: tee.variantId,
    values: { mode: "add", amount, reason: "Delivery" },
    now,
  });
  expect(adjusted.ok).toBe(true);
}

/** What a buyer with no offer can have of the variant. */
async function publicAvailable(db: Db, variantId: string, now: Date) {
  const stock = await readVariantStock(db, [variantId], now, { lock: false });
  return availableUnits(stock.variants.get(variantId)!);
}

async function payForCart(db: Db, member: { id: string; email: string }, now: Date) {
  const cartId = (await findCart(db, { userId: member.id }))!;
  const started = await startCheckout(db, { ...checkoutFor(member, cartId, now), shipping: DELIVERY });
  if (!started.ok) return started;
  await settleOrder(db, paidInFull(started.order, now));
  return started;
}

async function statusOf(db: Db, entryId: string) {
  const [row] = await db
    .select({ status: waitingListEntries.status })
    .from(waitingListEntries)
    .where(eq(waitingListEntries.id, entryId));
  return row?.status;
}

describe("joining a variant's waiting list", () => {
  it("takes a member for a sold-out size, up to its order limit, once, and shows their place", async () => {
    const { db } = database();
    const tee = await soldOutTee(db);
    const [ann, bob] = await createBuyers(db, 2);
    expect(
      await joinVariantWaitingList(db, { userId: ann!.id, variantId: tee.variantId, quantity: 2, now: NOW }),
    ).toEqual({ ok: true, name: "Club tee — M", position: 1 });
    expect(
      await joinVariantWaitingList(db, { userId: bob!.id, variantId: tee.variantId, quantity: 1, now: hours(1) }),
    ).toMatchObject({ ok: true, position: 2 });
    expect(
      await joinVariantWaitingList(db, { userId: ann!.id, variantId: tee.variantId, quantity: 1, now: hours(2) }),
    ).toMatchObject({ ok: false, message: "You are already on the waiting list for this item" });
    const [cat] = await createBuyers(db, 1);
    expect(
      await joinVariantWaitingList(db, { userId: cat!.id, variantId: tee.variantId, quantity: 4, now: hours(2) }),
    ).toMatchObject({ ok: false, field: "quantity", message: "Wait for at most 3 items" });

    expect(await waitingListsOfMember(db, bob!.id, hours(2), ZONE)).toMatchObject([
      { title: "Club tee", href: expect.stringMatching(/^\/shop\//), itemName: "M", unit: "item", position: 2 },
    ]);
    expect(await memberListsOnProduct(db, ann!.id, tee.productId, hours(2), ZONE)).toEqual({
      [tee.variantId]: { entryId: expect.any(String), quantity: 2, position: 1, offerEndsLabel: null },
    });
  });

  it("is not for a size in stock, nor one the shop no longer sells", async () => {
    const { db } = database();
    const tee = await soldOutTee(db);
    const [ann] = await createBuyers(db, 1);
    expect(
      await joinVariantWaitingList(db, { userId: ann!.id, variantId: tee.inStockId, quantity: 1, now: NOW }),
    ).toMatchObject({ ok: false, message: "This item is in stock: add it to your cart" });
    await db.update(productVariants).set({ active: false }).where(eq(productVariants.id, tee.variantId));
    expect(
      await joinVariantWaitingList(db, { userId: ann!.id, variantId: tee.variantId, quantity: 1, now: NOW }),
    ).toMatchObject({ ok: false, message: "This item is not in the shop" });
    expect(
      await joinVariantWaitingList(db, {
        userId: ann!.id,
        variantId: "00000000-0000-4000-8000-000000000000",
        quantity: 1,
        now: NOW,
      }),
    ).toMatchObject({ ok: false, message: "This item is not in the shop" });
  });
});

describe("units that come back", () => {
  it("are set aside for the line, offered in order by email, and bought through the offer's code", async () => {
    const { db } = database();
    const tee = await soldOutTee(db);
    const [ann, bob, public_] = await createBuyers(db, 3);
    const annJoined = await joinVariantWaitingList(db, {
      userId: ann!.id,
      variantId: tee.variantId,
      quantity: 2,
      now: NOW,
    });
    expect(annJoined.ok).toBe(true);
    await joinVariantWaitingList(db, { userId: bob!.id, variantId: tee.variantId, quantity: 1, now: hours(1) });

    // A delivery of two: before the sweep runs, the public still sees none.
    await restock(db, tee, 2, hours(2));
    expect(await publicAvailable(db, tee.variantId, hours(2))).toBe(0);
    const publicCart = await fillMerchCart(db, public_!.id, []);
    expect(
      await addVariantToCart(db, {
        cartId: publicCart,
        variantId: tee.variantId,
        quantity: 1,
        now: hours(2),
        userId: public_!.id,
      }),
    ).toMatchObject({ ok: false });

    const run = await runListsAt(db, hours(2));
    expect(run).toMatchObject({ offered: 1 });
    expect(run.outbox).toHaveLength(1);
    expect(run.outbox[0]).toMatchObject({ to: ann!.email, subject: "Club tee — M is back in stock for you" });
    expect(run.outbox[0]!.text).toContain("/members/offers/");
    const [annList] = await waitingListsOfMember(db, ann!.id, hours(2), ZONE);
    expect(annList).toMatchObject({ offer: { endsAt: hours(26).toISOString() } });
    // Bob waits for one, but both units are Ann's while her offer runs.
    expect(await waitingListsOfMember(db, bob!.id, hours(2), ZONE)).toMatchObject([{ position: 1, offer: null }]);
    expect(await publicAvailable(db, tee.variantId, hours(3))).toBe(0);

    // The link puts both in her cart, twice over changing nothing; she pays.
    expect(await claimOffer(db, { userId: ann!.id, entryId: annList!.id, now: hours(3) })).toEqual({
      ok: true,
      quantity: 2,
      name: "Club tee — M",
    });
    await claimOffer(db, { userId: ann!.id, entryId: annList!.id, now: hours(3) });
    const annCart = (await findCart(db, { userId: ann!.id }))!;
    expect(
      await db.select({ quantity: cartItems.quantity }).from(cartItems).where(eq(cartItems.cartId, annCart)),
    ).toEqual([{ quantity: 2 }]);
    const paid = await payForCart(db, ann!, hours(3));
    expect(paid.ok).toBe(true);
    // Paid: her pages stop showing the offer at once, before the sweep marks it bought.
    expect(await waitingListsOfMember(db, ann!.id, hours(3), ZONE)).toEqual([]);
    await runListsAt(db, hours(3));
    expect(await statusOf(db, annList!.id)).toBe("bought");
    const [shelf] = await db
      .select({ stock: productVariants.stock })
      .from(productVariants)
      .where(eq(productVariants.id, tee.variantId));
    expect(shelf?.stock).toBe(0);
  });

  it("lapse when the offer ends unused, go to the next in line, and go on sale once nobody waits", async () => {
    const { db } = database();
    const tee = await soldOutTee(db);
    const [ann, bob] = await createBuyers(db, 2);
    await joinVariantWaitingList(db, { userId: ann!.id, variantId: tee.variantId, quantity: 1, now: NOW });
    await joinVariantWaitingList(db, { userId: bob!.id, variantId: tee.variantId, quantity: 1, now: hours(1) });
    await restock(db, tee, 1, hours(2));
    await runListsAt(db, hours(2));
    const [annList] = await waitingListsOfMember(db, ann!.id, hours(2), ZONE);
    expect(annList?.offer).not.toBeNull();

    // A day later her offer has ended: the unit goes to Bob, and her link says so.
    const later = await runListsAt(db, hours(26));
    expect(later).toMatchObject({ lapsed: 1, offered: 1 });
    expect(later.outbox[0]).toMatchObject({ to: bob!.email });
    expect(await claimOffer(db, { userId: ann!.id, entryId: annList!.id, now: hours(26) })).toMatchObject({
      ok: false,
      message: "There is no offer for you on this list now",
    });
    // Bob turns it down: with nobody left waiting, the unit goes on sale.
    const [bobList] = await waitingListsOfMember(db, bob!.id, hours(26), ZONE);
    expect(await leaveWaitingList(db, { userId: bob!.id, entryId: bobList!.id, now: hours(27) })).toBe(true);
    expect(await publicAvailable(db, tee.variantId, hours(27))).toBe(1);
  });

  it("include units a refund puts back on the shelf", async () => {
    const { db } = database();
    const tee = await soldOutTee(db);
    await restock(db, tee, 1, NOW);
    const [buyer, ann] = await createBuyers(db, 2);
    const cartId = await fillMerchCart(db, buyer!.id, [{ variantId: tee.variantId, quantity: 1 }]);
    const started = await startCheckout(db, { ...checkoutFor(buyer!, cartId), shipping: DELIVERY });
    if (!started.ok) throw new Error(JSON.stringify(started.problems));
    await settleOrder(db, paidInFull(started.order));
    await joinVariantWaitingList(db, { userId: ann!.id, variantId: tee.variantId, quantity: 1, now: hours(1) });

    const refunded = await refundOrder(db, {
      orderId: started.order.id,
      actorId: tee.admin.id,
      reason: "Wrong size",
      now: hours(2),
    });
    expect(refunded.ok).toBe(true);
    expect(await publicAvailable(db, tee.variantId, hours(2))).toBe(0);
    expect(await runListsAt(db, hours(2))).toMatchObject({ offered: 1 });
  });

  it("never make the shop sell more than its shelf, whoever pays first", async () => {
    const { db } = database();
    const tee = await soldOutTee(db);
    const [ann, bob] = await createBuyers(db, 2);
    await joinVariantWaitingList(db, { userId: ann!.id, variantId: tee.variantId, quantity: 1, now: NOW });
    await restock(db, tee, 1, hours(1));
    await runListsAt(db, hours(1));
    // Bob had the tee in his cart from before; his checkout is refused while Ann's offer runs.
    const bobCart = await fillMerchCart(db, bob!.id, [{ variantId: tee.variantId, quantity: 1 }]);
    const refused = await startCheckout(db, { ...checkoutFor(bob!, bobCart, hours(2)), shipping: DELIVERY });
    expect(refused.ok).toBe(false);
    const [annList] = await waitingListsOfMember(db, ann!.id, hours(2), ZONE);
    expect((await claimOffer(db, { userId: ann!.id, entryId: annList!.id, now: hours(2) })).ok).toBe(true);
    expect((await payForCart(db, ann!, hours(2))).ok).toBe(true);
  });
});

describe("the line, for staff", () => {
  it("moves someone up a product's line with a reason, and not an entry of another product", async () => {
    const { db } = database();
    const tee = await soldOutTee(db);
    const other = await soldOutTee(db);
    const [ann, bob] = await createBuyers(db, 2);
    await joinVariantWaitingList(db, { userId: ann!.id, variantId: tee.variantId, quantity: 1, now: NOW });
    await joinVariantWaitingList(db, { userId: bob!.id, variantId: tee.variantId, quantity: 1, now: hours(1) });
    const [bobList] = await waitingListsOfMember(db, bob!.id, hours(1), ZONE);
    const actor = { actorId: tee.admin.id, now: hours(2) };
    expect(
      await moveInLine(db, {
        productId: other.productId,
        entryId: bobList!.id,
        position: 1,
        reason: "Sponsor",
        ...actor,
      }),
    ).toMatchObject({ ok: false });
    expect(
      await moveInLine(db, {
        productId: tee.productId,
        entryId: bobList!.id,
        position: 1,
        reason: "Sponsor",
        ...actor,
      }),
    ).toMatchObject({ ok: true, position: 1 });
    expect(await waitingListsOfMember(db, ann!.id, hours(2), ZONE)).toMatchObject([{ position: 2 }]);
  });
});
