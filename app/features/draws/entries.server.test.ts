import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { refundCancelledDraw } from "~/features/checkout/draw-refunds.server";
import { checkoutFor, paidInFull } from "~/features/checkout/stock.test-support";
import { DRAW_CLOSED_REASON } from "~/features/draws/entry-kind.server";
import { refundOrder, settleOrder, startCheckout } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { cartItems, drawEntries, draws, orders, users } from "../../../db/schema";
import { addEntriesToCart, entryCart } from "./cart-entries.server";
import { listDraws, myEntries } from "./catalogue.server";
import { closeDraw, drawWinner, eligibleNumbers, publishDraw, recordBeacon } from "./closing.server";
import { createEntrants, createTestDraw, DRAW_NOW, fillEntryCart, postalEntry } from "./draws.test-support";
import { enterGiveaway } from "./enter.server";
import { listHashOf, verifyDraw } from "./fairness";

const database = freshDatabasePerFile();
const minutes = (n: number) => new Date(DRAW_NOW.getTime() + n * 60_000);

async function drawRow(drawId: string) {
  const [row] = await database().db.select().from(draws).where(eq(draws.id, drawId));
  return row!;
}

async function entriesOf(drawId: string, userId?: string) {
  return database()
    .db.select({
      number: drawEntries.number,
      eligible: drawEntries.eligible,
      status: drawEntries.status,
      source: drawEntries.source,
    })
    .from(drawEntries)
    .where(and(eq(drawEntries.drawId, drawId), userId ? eq(drawEntries.userId, userId) : undefined))
    .orderBy(drawEntries.number);
}

/** Checkout and payment of a member's cart of entries; answers the settlement. */
async function buy(member: { id: string; email: string }, cartId: string, paidAt = minutes(2)) {
  const { db } = database();
  const result = await startCheckout(db, checkoutFor(member, cartId, minutes(1)));
  if (!result.ok) return { checkout: result, settled: null };
  const settled = await settleOrder(db, paidInFull(result.order, paidAt));
  return { checkout: result, settled };
}

describe("adding entries to the cart", () => {
  const add = (userId: string, drawId: string, overrides: Partial<Parameters<typeof addEntriesToCart>[1]> = {}) =>
    addEntriesToCart(database().db, {
      userId,
      drawId,
      entriesPerUnit: 5,
      answer: 1,
      confirmedAdult: true,
      now: DRAW_NOW,
      ...overrides,
    });

  it("takes a bundle with its answer, and shows the chosen option, never whether it is right", async () => {
    const draw = await createTestDraw(database().db);
    const [member] = await createEntrants(database().db, 1);
    expect(await add(member!.id, draw.id, { answer: 0 })).toEqual({ ok: true, entries: 5, title: draw.title });
    const [cart] = await database().db.select().from(cartItems).where(eq(cartItems.drawId, draw.id));
    const lines = await entryCart.lines(database().db, [cart!], {
      cartId: cart!.cartId,
      userId: member!.id,
      now: DRAW_NOW,
    });
    expect(lines).toMatchObject([
      {
        header: { name: "5 entries", detail: "Your answer: Three" },
        target: { bundle: "5" },
        quantity: 1,
        unitPrice: 800,
        problem: null,
      },
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/eligible|correct/i);
  });

  it("refuses the under-18s, members with no date of birth, no confirmation or no verified phone", async () => {
    const { db } = database();
    const draw = await createTestDraw(db);
    const [child] = await createEntrants(db, 1, { dateOfBirth: "2010-06-01" });
    const [unknownAge] = await createEntrants(db, 1, { dateOfBirth: null });
    const [noPhone] = await createEntrants(db, 1, { phoneNumberVerified: false });
    const [adult] = await createEntrants(db, 1);
    expect(await add(child!.id, draw.id)).toMatchObject({ ok: false, problem: { code: "age" } });
    expect(await add(unknownAge!.id, draw.id)).toMatchObject({ ok: false, problem: { code: "age" } });
    expect(await add(noPhone!.id, draw.id)).toMatchObject({ ok: false, problem: { code: "phone" } });
    expect(await add(adult!.id, draw.id, { confirmedAdult: false })).toMatchObject({
      ok: false,
      problem: { code: "age_unconfirmed" },
    });
    expect(await db.select().from(cartItems).where(eq(cartItems.drawId, draw.id))).toHaveLength(0);
  });

  it("stops at the member's limit, counting what the cart already holds", async () => {
    const draw = await createTestDraw(database().db, { maxPerMember: 10 });
    const [member] = await createEntrants(database().db, 1);
    expect(await add(member!.id, draw.id)).toMatchObject({ ok: true });
    expect(await add(member!.id, draw.id)).toMatchObject({ ok: true });
    expect(await add(member!.id, draw.id, { entriesPerUnit: 1 })).toMatchObject({
      ok: false,
      problem: { code: "limit", message: "You have reached the limit of 10 entries per person" },
    });
  });

  it("refuses a bundle the draw does not sell and a closed draw", async () => {
    const draw = await createTestDraw(database().db, { closesAt: minutes(-1), opensAt: minutes(-100) });
    const open = await createTestDraw(database().db);
    const [member] = await createEntrants(database().db, 1);
    expect(await add(member!.id, draw.id)).toMatchObject({ ok: false, problem: { code: "closed" } });
    expect(await add(member!.id, open.id, { entriesPerUnit: 3 })).toMatchObject({
      ok: false,
      problem: { code: "bundle" },
    });
  });
});

describe("paying for entries", () => {
  it("allocates five different numbers at payment, eligible with the right answer, and empties the cart", async () => {
    const { db } = database();
    const draw = await createTestDraw(db);
    const [member] = await createEntrants(db, 1);
    const cartId = await fillEntryCart(db, member!.id, [
      { drawId: draw.id, entriesPerUnit: 5, quantity: 1, answer: 1 },
    ]);
    const { checkout, settled } = await buy(member!, cartId);
    expect(checkout).toMatchObject({ ok: true, order: { total: 800 } });
    expect(settled).toMatchObject({ kind: "settled", issued: { entry: 5 } });
    const entries = await entriesOf(draw.id, member!.id);
    expect(entries).toHaveLength(5);
    expect(new Set(entries.map((entry) => entry.number)).size).toBe(5);
    expect(entries.every((entry) => entry.eligible && entry.source === "paid" && entry.number <= 100)).toBe(true);
    expect((await drawRow(draw.id)).allocated).toBe(5);
    expect(await db.select().from(cartItems).where(eq(cartItems.cartId, cartId))).toHaveLength(0);
  });

  it("accepts a wrong answer's entries but keeps them out of the draw", async () => {
    const { db } = database();
    const draw = await createTestDraw(db);
    const [member] = await createEntrants(db, 1);
    const cartId = await fillEntryCart(db, member!.id, [
      { drawId: draw.id, entriesPerUnit: 1, quantity: 2, answer: 2 },
    ]);
    expect((await buy(member!, cartId)).settled).toMatchObject({ kind: "settled", issued: { entry: 2 } });
    expect((await entriesOf(draw.id, member!.id)).map((entry) => entry.eligible)).toEqual([false, false]);
    expect(await eligibleNumbers(db, draw.id)).toEqual([]);
  });

  it("counts postal entries against the same limit and the same pool", async () => {
    const { db } = database();
    const draw = await createTestDraw(db, { maxPerMember: 5, totalEntries: 6 });
    const [member, other] = await createEntrants(db, 2);
    const [staff] = await createEntrants(db, 1);
    const postal = (userId: string | null) => postalEntry(db, { drawId: draw.id, userId, actorId: staff!.id });
    expect(await postal(member!.id)).toMatchObject({ ok: true });
    const cartId = await fillEntryCart(db, member!.id, [
      { drawId: draw.id, entriesPerUnit: 5, quantity: 1, answer: 1 },
    ]);
    const refused = await buy(member!, cartId);
    expect(refused.checkout).toMatchObject({ ok: false, problems: [{ code: "limit", remaining: 4 }] });
    expect(await postal(null)).toMatchObject({ ok: true });
    const otherCart = await fillEntryCart(db, other!.id, [
      { drawId: draw.id, entriesPerUnit: 5, quantity: 1, answer: 1 },
    ]);
    expect((await buy(other!, otherCart)).checkout).toMatchObject({
      ok: false,
      problems: [{ code: "not_enough", remaining: 4 }],
    });
  });

  it("closes a draw that sells out, and refuses a payment that arrives after the draw closed", async () => {
    const { db } = database();
    const draw = await createTestDraw(db, { totalEntries: 5, closesAt: minutes(30) });
    const late = await createTestDraw(db, { closesAt: minutes(3) });
    const [member, latecomer] = await createEntrants(db, 2);
    const cartId = await fillEntryCart(db, member!.id, [
      { drawId: draw.id, entriesPerUnit: 5, quantity: 1, answer: 1 },
    ]);
    expect((await buy(member!, cartId)).settled).toMatchObject({ kind: "settled", issued: { entry: 5 } });
    expect(await drawRow(draw.id)).toMatchObject({ status: "closed", allocated: 5 });

    const lateCart = await fillEntryCart(db, latecomer!.id, [
      { drawId: late.id, entriesPerUnit: 1, quantity: 1, answer: 1 },
    ]);
    const { settled } = await buy(latecomer!, lateCart, minutes(4));
    expect(settled).toMatchObject({ kind: "refund_required", reason: DRAW_CLOSED_REASON });
    expect(await entriesOf(late.id)).toHaveLength(0);
  });

  it("voids refunded entries while the draw is open and gives their places back; their numbers are never reused", async () => {
    const { db } = database();
    const draw = await createTestDraw(db, { totalEntries: 5 });
    const [member, next] = await createEntrants(db, 2);
    const cartId = await fillEntryCart(db, member!.id, [
      { drawId: draw.id, entriesPerUnit: 1, quantity: 3, answer: 1 },
    ]);
    const { checkout } = await buy(member!, cartId);
    const orderId = checkout.ok ? checkout.order.id : "";
    const refund = await refundOrder(db, { orderId, actorId: null, reason: "Changed my mind", now: minutes(5) });
    expect(refund).toMatchObject({ ok: true, amount: 600, status: "refunded" });
    expect((await entriesOf(draw.id, member!.id)).map((entry) => entry.status)).toEqual(["void", "void", "void"]);
    expect((await drawRow(draw.id)).allocated).toBe(0);

    const nextCart = await fillEntryCart(db, next!.id, [
      { drawId: draw.id, entriesPerUnit: 5, quantity: 1, answer: 1 },
    ]);
    expect((await buy(next!, nextCart)).settled).toMatchObject({ kind: "settled", issued: { entry: 5 } });
    const numbers = (await entriesOf(draw.id)).map((entry) => entry.number);
    expect(new Set(numbers).size).toBe(8);
  });
});

describe("free giveaways", () => {
  it("give one entry per member and no more", async () => {
    const { db } = database();
    const draw = await createTestDraw(db, { kind: "giveaway", price: 0, bundles: [], maxPerMember: 1 });
    const [member, child] = await createEntrants(db, 2);
    const enter = (userId: string) =>
      enterGiveaway(db, { drawId: draw.id, userId, answer: 1, confirmedAdult: true, now: DRAW_NOW });
    expect(await enter(member!.id)).toMatchObject({ ok: true, numbers: [expect.any(Number)] });
    expect(await enter(member!.id)).toMatchObject({ ok: false, problem: { code: "free_once" } });
    await db.update(users).set({ dateOfBirth: "2012-01-01" }).where(eq(users.id, child!.id));
    expect(await enter(child!.id)).toMatchObject({ ok: false, problem: { code: "age" } });
    expect((await entriesOf(draw.id)).map((entry) => entry.source)).toEqual(["free"]);
  });
});

describe("staff", () => {
  const STAFF_MESSAGE = "Staff run the club's prize draws, so they cannot enter them";

  it("cannot enter a draw by any route: checkout, payment, a free entry or a postal entry", async () => {
    const { db } = database();
    const draw = await createTestDraw(db);
    const giveaway = await createTestDraw(db, { kind: "giveaway", price: 0, bundles: [], maxPerMember: 1 });
    const [recorder] = await createEntrants(db, 1);
    for (const role of ["organizer", "admin"] as const) {
      const [insider, promoted] = await createEntrants(db, 2);
      await db.update(users).set({ role }).where(eq(users.id, insider!.id));

      const cartId = await fillEntryCart(db, insider!.id, [
        { drawId: draw.id, entriesPerUnit: 5, quantity: 1, answer: 1 },
      ]);
      expect((await buy(insider!, cartId)).checkout, role).toMatchObject({
        ok: false,
        problems: [{ code: "staff", message: STAFF_MESSAGE }],
      });

      // A member who became staff while paying: the payment is refused and refunded.
      const promotedCart = await fillEntryCart(db, promoted!.id, [
        { drawId: draw.id, entriesPerUnit: 5, quantity: 1, answer: 1 },
      ]);
      const checkout = await startCheckout(db, checkoutFor(promoted!, promotedCart, minutes(1)));
      expect(checkout.ok, role).toBe(true);
      if (!checkout.ok) continue;
      await db.update(users).set({ role }).where(eq(users.id, promoted!.id));
      expect(await settleOrder(db, paidInFull(checkout.order, minutes(2))), role).toMatchObject({
        kind: "refund_required",
        reason: `${STAFF_MESSAGE}. The payment is refunded`,
      });

      expect(
        await enterGiveaway(db, {
          drawId: giveaway.id,
          userId: insider!.id,
          answer: 1,
          confirmedAdult: true,
          now: DRAW_NOW,
        }),
        role,
      ).toMatchObject({ ok: false, problem: { code: "staff", message: STAFF_MESSAGE } });

      expect(
        await postalEntry(db, { drawId: draw.id, userId: insider!.id, actorId: recorder!.id }),
        role,
      ).toMatchObject({ ok: false, problem: { code: "staff" } });
    }
    expect(await entriesOf(draw.id)).toEqual([]);
    expect(await entriesOf(giveaway.id)).toEqual([]);
  });
});

describe("closing and drawing", () => {
  it("publishes a commitment, freezes the eligible list at close, and draws the winner anyone can recompute", async () => {
    const { db } = database();
    const draw = await createTestDraw(db, { status: "draft", seed: null, commitment: null, closesAt: minutes(60) });
    expect(await publishDraw(db, { drawId: draw.id, actorId: null, now: DRAW_NOW })).toEqual({ ok: true });
    const live = await drawRow(draw.id);
    expect(live.commitment).toMatch(/^[0-9a-f]{64}$/);

    const members = await createEntrants(db, 4);
    for (const [index, member] of members.entries()) {
      const answer = index === 3 ? 0 : 1;
      const cartId = await fillEntryCart(db, member.id, [{ drawId: draw.id, entriesPerUnit: 5, quantity: 1, answer }]);
      expect((await buy(member, cartId)).settled).toMatchObject({ kind: "settled" });
    }
    expect(await closeDraw(db, { drawId: draw.id, actorId: null, now: minutes(59) })).toBe("not_due");
    expect(await closeDraw(db, { drawId: draw.id, actorId: null, now: minutes(61) })).toBe("closed");
    const closed = await drawRow(draw.id);
    const eligible = await eligibleNumbers(db, draw.id);
    expect(eligible).toHaveLength(15);
    expect(closed).toMatchObject({ status: "closed", eligibleCount: 15, listHash: await listHashOf(eligible) });

    expect(await drawWinner(db, { drawId: draw.id, actorId: null, now: minutes(70) })).toMatchObject({ ok: false });
    expect(await recordBeacon(db, { drawId: draw.id, value: "beacon-123", actorId: null, now: minutes(70) })).toEqual({
      ok: true,
    });
    const result = await drawWinner(db, { drawId: draw.id, actorId: null, now: minutes(71) });
    expect(result).toMatchObject({ ok: true, winner: expect.any(Number), already: false });
    const drawn = await drawRow(draw.id);
    expect(eligible).toContain(drawn.winnerNumber);
    // Drawing again (the job and the organizer both may) tells the same result and changes nothing.
    expect(await drawWinner(db, { drawId: draw.id, actorId: null, now: minutes(72) })).toMatchObject({
      ok: true,
      winner: drawn.winnerNumber,
      already: true,
    });
    expect(await drawRow(draw.id)).toMatchObject({ status: "drawn", drawnAt: drawn.drawnAt });

    const verification = await verifyDraw({
      algorithm: "pitlane-draw-1",
      slug: drawn.slug,
      commitment: drawn.commitment!,
      seed: drawn.seed,
      beacon: { source: drawn.beaconSource, value: drawn.beaconValue },
      entries: eligible,
      listHash: drawn.listHash!,
      winners: [drawn.winnerNumber!],
    });
    expect(verification.ok).toBe(true);
    // Entries of a closed draw are final: refunding them is refused.
    const [order] = await db.select({ id: orders.id }).from(orders).where(eq(orders.userId, members[0]!.id));
    expect(
      await refundOrder(db, { orderId: order!.id, actorId: null, reason: "Late", now: minutes(80) }),
    ).toMatchObject({
      ok: false,
    });
  });

  it("applies the undersold policy: extend once, then draw; or cancel", async () => {
    const { db } = database();
    const extend = await createTestDraw(db, {
      minEntries: 50,
      undersoldPolicy: "extend",
      extendDays: 3,
      closesAt: minutes(10),
    });
    expect(await closeDraw(db, { drawId: extend.id, actorId: null, now: minutes(11) })).toBe("extended");
    expect((await drawRow(extend.id)).closesAt).toEqual(new Date(minutes(10).getTime() + 3 * 86_400_000));
    expect(
      await closeDraw(db, { drawId: extend.id, actorId: null, now: new Date(minutes(11).getTime() + 3 * 86_400_000) }),
    ).toBe("closed");
    const cash = await createTestDraw(db, { minEntries: 50, undersoldPolicy: "cash", closesAt: minutes(10) });
    expect(await closeDraw(db, { drawId: cash.id, actorId: null, now: minutes(11) })).toBe("cash");
    expect((await drawRow(cash.id)).cashPrize).toBe(true);
    const refund = await createTestDraw(db, { minEntries: 50, undersoldPolicy: "refund", closesAt: minutes(10) });
    const [member] = await createEntrants(db, 1);
    const cartId = await fillEntryCart(db, member!.id, [
      { drawId: refund.id, entriesPerUnit: 5, quantity: 1, answer: 1 },
    ]);
    expect((await buy(member!, cartId)).settled).toMatchObject({ kind: "settled", issued: { entry: 5 } });
    expect(await closeDraw(db, { drawId: refund.id, actorId: null, now: minutes(11) })).toBe("refund");
    expect((await drawRow(refund.id)).status).toBe("cancelled");
    const refundRun = (now: Date) =>
      refundCancelledDraw(db, { enqueue: async () => {} }, { drawId: refund.id, actorId: null, now });
    expect(await refundRun(minutes(12))).toBe(1);
    expect((await entriesOf(refund.id)).every((entry) => entry.status === "void")).toBe(true);
    const [order] = await db.select({ status: orders.status }).from(orders).where(eq(orders.userId, member!.id));
    expect(order!.status).toBe("refunded");
    // Running it again finds nothing left to refund.
    expect(await refundRun(minutes(13))).toBe(0);
  });
});

describe("what members and visitors see", () => {
  it("lists open draws soonest first and ended ones newest first, and a member's entries by draw", async () => {
    const { db } = database();
    const now = minutes(0);
    const later = await createTestDraw(db, { title: "Closes later", closesAt: minutes(600) });
    const sooner = await createTestDraw(db, { title: "Closes sooner", closesAt: minutes(60) });
    const pastTime = await createTestDraw(db, {
      title: "Past its time",
      opensAt: minutes(-200),
      closesAt: minutes(-5),
    });
    await createTestDraw(db, { title: "A draft", status: "draft" });
    const { live, ended } = await listDraws(db, now);
    const openTitles = live.map((tile) => tile.title);
    expect(openTitles.indexOf(sooner.title)).toBeLessThan(openTitles.indexOf(later.title));
    expect(openTitles).not.toContain("A draft");
    expect(ended.map((tile) => tile.title)).toContain(pastTime.title);

    const [member] = await createEntrants(db, 1);
    const cartId = await fillEntryCart(db, member!.id, [
      { drawId: sooner.id, entriesPerUnit: 5, quantity: 1, answer: 1 },
    ]);
    await buy(member!, cartId);
    const mine = await myEntries(db, member!.id);
    expect(mine).toMatchObject([{ slug: expect.any(String), title: sooner.title, status: "live", won: false }]);
    expect(mine[0]!.numbers).toHaveLength(5);
  });
});
