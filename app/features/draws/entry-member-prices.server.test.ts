import { parseWithZod } from "@conform-to/zod/v4";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutFor, paidInFull } from "~/features/checkout/stock.test-support";
import { issueMembership } from "~/features/membership/memberships.server";
import { createTestTier } from "~/features/membership/tiers.test-support";
import { loadCart, settleOrder, startCheckout } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { drawEntries, memberships, orderItems } from "../../../db/schema";
import { addEntriesToCart } from "./cart-entries.server";
import { drawPage, offeredTo } from "./catalogue.server";
import { bundlesOf, oddsAtFullSale } from "./draw-rules";
import { createEntrants, createTestDraw, DRAW_NOW, fillEntryCart, postalEntry } from "./draws.test-support";
import { goodDrawFields } from "./organizer/draw-form.test-support";
import { bundlesText, drawFormSchema, parseBundles } from "./organizer/schemas";

// Member prices on draw bundles (docs/membership.md, "Member prices…"; docs/draws.md): a member
// pays less for a bundle, and nothing else changes: the entries, the odds and the free postal route
// are everyone's.
const database = freshDatabasePerFile();
const minutes = (n: number) => new Date(DRAW_NOW.getTime() + n * 60_000);

async function setup() {
  const { db } = database();
  const tier = await createTestTier(db);
  const draw = await createTestDraw(db, {
    price: 200,
    maxPerMember: 50,
    bundles: [
      { entries: 5, price: 800, memberPrice: 600 },
      { entries: 10, price: 1500 },
    ],
  });
  const [member, other] = await createEntrants(db, 2);
  const [staff] = await createEntrants(db, 1, { role: "organizer" });
  await issueMembership(db, {
    userId: member!.id,
    tier,
    people: [],
    orderId: null,
    paidPence: 3000,
    paidAt: new Date(DRAW_NOW.getTime() - 24 * 60 * 60 * 1000),
  });
  return { db, draw, member: member!, other: other!, staff: staff! };
}

const lines = (drawId: string) => [
  { drawId, entriesPerUnit: 5, quantity: 2, answer: 1 },
  { drawId, entriesPerUnit: 1, quantity: 1, answer: 1 },
  { drawId, entriesPerUnit: 10, quantity: 1, answer: 1 },
];

/** Each cart line's price, what membership saves on it and what members pay, by its bundle's size. */
function byBundle(cart: Awaited<ReturnType<typeof loadCart>>) {
  return Object.fromEntries(
    (cart.sections[0]?.lines ?? []).map((line) => [
      line.target.bundle,
      [line.unitPrice, line.memberSaving, line.memberPrice],
    ]),
  );
}

async function unitPricesOf(orderId: string) {
  const rows = await database()
    .db.select({ entries: orderItems.entriesPerUnit, unitPrice: orderItems.unitPrice })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  return Object.fromEntries(rows.map((row) => [row.entries, row.unitPrice]));
}

describe("member prices on draw bundles", () => {
  it("charges a member a bundle's member price at checkout, and gives the same entries", async () => {
    const { db, draw, member } = await setup();
    const cartId = await fillEntryCart(db, member.id, lines(draw.id));
    const cart = await loadCart(db, { cartId, userId: member.id, now: minutes(1) });
    // Two bundles of 5 save £2 each; a single entry and the bundle of 10 have no member price.
    expect(cart).toMatchObject({ subtotal: 2 * 600 + 200 + 1500, memberSaving: 2 * 200, payable: true });
    expect(byBundle(cart)).toEqual({
      1: [200, 0, undefined],
      5: [600, 400, undefined],
      10: [1500, 0, undefined],
    });

    const checkout = await startCheckout(db, checkoutFor(member, cartId, minutes(1)));
    if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));
    expect(checkout.order.total).toBe(2 * 600 + 200 + 1500);
    expect(await unitPricesOf(checkout.order.id)).toEqual({ 1: 200, 5: 600, 10: 1500 });
    expect(await settleOrder(db, paidInFull(checkout.order, minutes(2)))).toMatchObject({ kind: "settled" });
    const entries = await db.select().from(drawEntries).where(eq(drawEntries.userId, member.id));
    expect(entries).toHaveLength(21);
  });

  it("charges everyone else the price, and shows them what members pay", async () => {
    const { db, draw, other } = await setup();
    const cartId = await fillEntryCart(db, other.id, lines(draw.id));
    const cart = await loadCart(db, { cartId, userId: other.id, now: minutes(1) });
    expect(cart).toMatchObject({ subtotal: 2 * 800 + 200 + 1500, memberSaving: 0 });
    expect(byBundle(cart)).toEqual({
      1: [200, 0, undefined],
      5: [800, 0, 600],
      10: [1500, 0, undefined],
    });

    const checkout = await startCheckout(db, checkoutFor(other, cartId, minutes(1)));
    if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));
    expect(checkout.order.total).toBe(2 * 800 + 200 + 1500);
    expect(await unitPricesOf(checkout.order.id)).toEqual({ 1: 200, 5: 800, 10: 1500 });
  });

  it("takes the member price away when the membership ends before checkout", async () => {
    const { db, draw, member } = await setup();
    const cartId = await fillEntryCart(db, member.id, [{ drawId: draw.id, entriesPerUnit: 5, quantity: 1, answer: 1 }]);
    expect((await loadCart(db, { cartId, userId: member.id, now: minutes(1) })).subtotal).toBe(600);
    await db
      .update(memberships)
      .set({ endedAt: minutes(1), endReason: "refunded" })
      .where(eq(memberships.userId, member.id));

    const cart = await loadCart(db, { cartId, userId: member.id, now: minutes(2) });
    expect(cart).toMatchObject({ subtotal: 800, memberSaving: 0 });
    expect(cart.sections[0]?.lines[0]).toMatchObject({ unitPrice: 800, memberPrice: 600 });
    const checkout = await startCheckout(db, checkoutFor(member, cartId, minutes(2)));
    if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));
    expect(checkout.order.total).toBe(800);
  });

  it("leaves the free postal route, the limit per person and the odds as they are", async () => {
    const { db, draw, member, staff } = await setup();
    expect(
      await addEntriesToCart(db, {
        userId: member.id,
        drawId: draw.id,
        entriesPerUnit: 5,
        answer: 1,
        confirmedAdult: true,
        member: true,
        now: DRAW_NOW,
      }),
    ).toMatchObject({ ok: true, entries: 5 });
    expect(await postalEntry(db, { drawId: draw.id, actorId: staff.id, userId: member.id })).toMatchObject({
      ok: true,
    });
    const postal = await db
      .select({ source: drawEntries.source })
      .from(drawEntries)
      .where(and(eq(drawEntries.drawId, draw.id), eq(drawEntries.userId, member.id)));
    expect(postal).toEqual([{ source: "postal" }]);

    const page = (await drawPage(db, draw.slug, DRAW_NOW))!;
    // The odds are the entries' and nothing else's.
    expect(oddsAtFullSale(page.totalEntries)).toBe("1 in 100");
    expect(offeredTo(page, { member: false }, "GBP").bundles).toEqual([
      { entries: 1, price: 200, note: null },
      { entries: 5, price: 800, note: "Save £2.00 · Members pay £6.00" },
      { entries: 10, price: 1500, note: "Save £5.00" },
    ]);
    expect(offeredTo(page, { member: true }, "GBP").bundles).toEqual([
      { entries: 1, price: 200, note: null },
      { entries: 5, price: 600, note: "Member price · Save £4.00" },
      { entries: 10, price: 1500, note: "Save £5.00" },
    ]);
  });

  it("keeps a bundle's member price among the bundles a draw sells", () => {
    expect(
      bundlesOf({ kind: "competition", price: 200, bundles: [{ entries: 5, price: 800, memberPrice: 600 }] }),
    ).toEqual([
      { entries: 1, price: 200 },
      { entries: 5, price: 800, memberPrice: 600 },
    ]);
  });
});

describe("the draw editor's member prices", () => {
  it("reads what members pay after a bundle's price, and writes it back the same way", () => {
    const read = parseBundles("5 8.00 members 6.00\n10 for £15, members £12\n20 25");
    expect(read).toEqual({
      ok: true,
      value: [
        { entries: 5, price: 800, memberPrice: 600 },
        { entries: 10, price: 1500, memberPrice: 1200 },
        { entries: 20, price: 2500 },
      ],
    });
    if (!read.ok) return;
    expect(bundlesText(read.value)).toBe("5 8.00 members 6.00\n10 15.00 members 12.00\n20 25.00");
    expect(parseBundles(bundlesText(read.value))).toEqual(read);
  });

  it("refuses a member price above the bundle's price, on the bundles field, with a clear message", () => {
    expect(parseBundles("5 8.00\n10 15.00 members 16.00")).toEqual({
      ok: false,
      message: "Line 2: make the member price no more than the price",
    });
    expect(parseBundles("5 8.00 members six")).toEqual({
      ok: false,
      message: "Line 1: write the member price like 6.00",
    });
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...goodDrawFields, bundles: "5 10.00 members 12.00" })) {
      form.append(name, value);
    }
    const submission = parseWithZod(form, { schema: drawFormSchema({ currency: "GBP", timeZone: "Europe/London" }) });
    expect(submission.status).toBe("error");
    expect(submission.status === "error" ? submission.error : null).toEqual({
      bundles: ["Line 1: make the member price no more than the price"],
    });
  });
});

describe("the draw editor's prices per tier", () => {
  const family = { id: "5f0c1d7e-2a4b-4c6d-8e9f-0a1b2c3d4e5f", slug: "family", name: "Family" };
  const junior = { id: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", slug: "junior", name: "Junior" };
  const tiers = [family, junior];

  it("reads what a tier's members pay by the tier's slug, and writes it back the same way", () => {
    const read = parseBundles("5 8.00 members 6.00 family 5.00\n10 15.00, Junior pay 9.00\n20 25", tiers);
    expect(read).toEqual({
      ok: true,
      value: [
        { entries: 5, price: 800, memberPrice: 600, tierPrices: { [family.id]: 500 } },
        { entries: 10, price: 1500, tierPrices: { [junior.id]: 900 } },
        { entries: 20, price: 2500 },
      ],
    });
    if (!read.ok) return;
    expect(bundlesText(read.value, tiers)).toBe("5 8.00 members 6.00 family 5.00\n10 15.00 junior 9.00\n20 25.00");
    expect(parseBundles(bundlesText(read.value, tiers), tiers)).toEqual(read);
  });

  it("refuses a tier's price above the bundle's price, a tier that does not exist, and a price typed wrongly", () => {
    expect(parseBundles("5 8.00 members 6.00 family 9.00", tiers)).toEqual({
      ok: false,
      message: "Line 1: make what Family members pay no more than the price",
    });
    expect(parseBundles("5 8.00 seniors 5.00", tiers)).toEqual({
      ok: false,
      message: "Line 1: no membership tier is called “seniors”",
    });
    expect(parseBundles("5 8.00 family five", tiers)).toEqual({
      ok: false,
      message: "Line 1: write what Family members pay like 6.00",
    });
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...goodDrawFields, bundles: "5 10.00 junior 12.00" })) {
      form.append(name, value);
    }
    const schema = drawFormSchema({ currency: "GBP", timeZone: "Europe/London", tiers });
    const submission = parseWithZod(form, { schema });
    expect(submission.status === "error" ? submission.error : null).toEqual({
      bundles: ["Line 1: make what Junior members pay no more than the price"],
    });
  });
});
