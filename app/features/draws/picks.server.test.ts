import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutFor, paidInFull } from "~/features/checkout/stock.test-support";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { cartItems, drawEntries, holds } from "../../../db/schema";
import { addEntriesToCart, setEntryLineQuantity } from "./cart-entries.server";
import { createEntrants, createTestDraw, DRAW_NOW } from "./draws.test-support";

// Members choosing their entry numbers, where a draw allows it: the rest are chosen at random.
const database = freshDatabasePerFile();
const minutes = (n: number) => new Date(DRAW_NOW.getTime() + n * 60_000);

function add(userId: string, drawId: string, entriesPerUnit: number, picks: number[]) {
  return addEntriesToCart(database().db, {
    userId,
    drawId,
    entriesPerUnit,
    answer: 1,
    confirmedAdult: true,
    picks,
    now: DRAW_NOW,
  });
}

async function cartOf(userId: string) {
  const { carts } = await import("../../../db/schema");
  const [cart] = await database().db.select({ id: carts.id }).from(carts).where(eq(carts.userId, userId));
  return cart!.id;
}

/** The member's line of single entries in the draw changes to `quantity`, from the cart page. */
async function setSingles(userId: string, drawId: string, quantity: number) {
  const cartId = await cartOf(userId);
  return setEntryLineQuantity(database().db, { cartId, userId, drawId, entriesPerUnit: 1, quantity, now: DRAW_NOW });
}

async function pay(member: { id: string; email: string }, paidAt: Date) {
  const { db } = database();
  const checkout = await startCheckout(db, checkoutFor(member, await cartOf(member.id), minutes(1)));
  if (!checkout.ok) return { checkout, numbers: [] as number[] };
  await settleOrder(db, paidInFull(checkout.order, paidAt));
  const rows = await db
    .select({ number: drawEntries.number })
    .from(drawEntries)
    .where(eq(drawEntries.orderId, checkout.order.id));
  return { checkout, numbers: rows.map((row) => row.number).sort((a, b) => a - b) };
}

describe("picking entry numbers", () => {
  it("refuses picks in a draw that chooses at random, and bad picks with a clear message", async () => {
    const { db } = database();
    const random = await createTestDraw(db);
    const picking = await createTestDraw(db, { allowPicks: true, totalEntries: 50 });
    const [member] = await createEntrants(db, 1);
    expect(await add(member!.id, random.id, 1, [7])).toMatchObject({
      ok: false,
      problem: { code: "picks", message: "This draw chooses every number at random" },
    });
    expect(await add(member!.id, picking.id, 1, [51])).toMatchObject({
      ok: false,
      problem: { message: "Choose numbers from 1 to 50" },
    });
    expect(await add(member!.id, picking.id, 5, [3, 3])).toMatchObject({
      ok: false,
      problem: { message: "You chose 3 twice" },
    });
    expect(await add(member!.id, picking.id, 1, [3, 4])).toMatchObject({
      ok: false,
      problem: { message: "You chose 2 numbers for 1 entry" },
    });
    // Nothing was stored by the refusals.
    const lines = await db.select().from(cartItems).where(eq(cartItems.drawId, picking.id));
    expect(lines).toEqual([]);
  });

  it("gives the chosen numbers at payment, keeps them from everyone while the buyer pays, and fills the rest at random", async () => {
    const { db } = database();
    const draw = await createTestDraw(db, { allowPicks: true, totalEntries: 10, maxPerMember: 10 });
    const [picker, other] = await createEntrants(db, 2);

    // A 5-entry bundle with two chosen numbers, then a single entry with one more.
    expect(await add(picker!.id, draw.id, 5, [7, 8])).toMatchObject({ ok: true });
    expect(await add(picker!.id, draw.id, 1, [9])).toMatchObject({ ok: true });
    expect(await add(picker!.id, draw.id, 1, [7])).toMatchObject({
      ok: false,
      problem: { message: "You chose 7 twice" },
    });
    const checkout = await startCheckout(db, checkoutFor(picker!, await cartOf(picker!.id), minutes(1)));
    expect(checkout.ok).toBe(true);
    const held = await db
      .select({ picks: holds.pickedNumbers })
      .from(holds)
      .where(and(eq(holds.drawId, draw.id), eq(holds.status, "active")));
    expect(held.flatMap((row) => row.picks).sort()).toEqual([7, 8, 9]);

    // While the picker pays, their numbers are taken for everyone else...
    expect(await add(other!.id, draw.id, 1, [8])).toMatchObject({
      ok: false,
      problem: { code: "taken", message: "Number 8 is already taken: choose another" },
    });
    // ...and random numbers never land on them: the other member takes the four left.
    expect(await add(other!.id, draw.id, 1, [])).toMatchObject({ ok: true });
    await setSingles(other!.id, draw.id, 4);
    const others = await pay(other!, minutes(2));
    expect(others.numbers).toHaveLength(4);
    for (const number of others.numbers) expect([7, 8, 9]).not.toContain(number);

    await settleOrder(db, {
      orderId: checkout.ok ? checkout.order.id : "",
      provider: "test",
      paymentReference: "pay_picker",
      amount: checkout.ok ? checkout.order.total : 0,
      currency: "GBP",
      now: minutes(3),
    });
    const mine = await db
      .select({ number: drawEntries.number })
      .from(drawEntries)
      .where(and(eq(drawEntries.drawId, draw.id), eq(drawEntries.userId, picker!.id)));
    const numbers = mine.map((row) => row.number).sort((a, b) => a - b);
    expect(numbers).toHaveLength(6);
    expect(numbers).toEqual(expect.arrayContaining([7, 8, 9]));
    expect(new Set([...numbers, ...others.numbers]).size).toBe(10);
  });

  it("keeps the first chosen numbers when a line shrinks", async () => {
    const { db } = database();
    const draw = await createTestDraw(db, { allowPicks: true, totalEntries: 100 });
    const [member] = await createEntrants(db, 1);
    await add(member!.id, draw.id, 1, [11]);
    await add(member!.id, draw.id, 1, [12]);
    await add(member!.id, draw.id, 1, [13]);
    await setSingles(member!.id, draw.id, 2);
    const [line] = await db
      .select({ quantity: cartItems.quantity, picks: cartItems.pickedNumbers })
      .from(cartItems)
      .where(eq(cartItems.drawId, draw.id));
    expect(line).toEqual({ quantity: 2, picks: [11, 12] });
  });

  it("refuses at Pay a number someone else was given since it went into the cart", async () => {
    const { db } = database();
    const draw = await createTestDraw(db, { allowPicks: true, totalEntries: 100 });
    const [slow, quick] = await createEntrants(db, 2);
    expect(await add(slow!.id, draw.id, 1, [42])).toMatchObject({ ok: true });
    expect(await add(quick!.id, draw.id, 1, [42])).toMatchObject({ ok: true });
    expect((await pay(quick!, minutes(2))).numbers).toEqual([42]);
    const late = await pay(slow!, minutes(3));
    expect(late.checkout).toMatchObject({
      ok: false,
      problems: [{ code: "taken", message: "Number 42 is already taken: choose another" }],
    });
  });
});
