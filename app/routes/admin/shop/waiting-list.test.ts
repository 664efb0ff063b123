import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createBuyers } from "~/features/checkout/stock.test-support";
import { createTestProduct } from "~/features/shop/products.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { TestRole } from "~/server/session-user.test-support";
import { answerOf, type FormFields, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { auditLog, products, waitingListEntries } from "../../../../db/schema";
import * as myTicketsRoute from "../../members/events";
import * as offerRoute from "../../members/offer";
import * as productRoute from "../../shop/product";
import * as route from "./waiting-list";

// The merch waiting lists' routes called as React Router calls them, by every role: a product's
// "Join the waiting list", the member's lists, the offer link, and staff's waiting-list tab. Bad
// input gets its message and a 400, never a 500.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "merch-waiting-lists" });

/** A tee on sale with its M sold out and its L in stock. */
async function teeWithSoldOutSize() {
  const tee = await createTestProduct(database().db, {
    title: "Club tee",
    optionNames: ["Size"],
    variants: [
      { options: ["M"], stock: 0, maxPerOrder: 3 },
      { options: ["L"], stock: 4 },
    ],
  });
  return { ...tee, soldOutId: tee.variantIds[0]!, inStockId: tee.variantIds[1]! };
}

/** Writes these members onto a variant's line in this order. */
async function lineUp(variantId: string, members: readonly { id: string }[]) {
  return database()
    .db.insert(waitingListEntries)
    .values(members.map((member, index) => ({ variantId, userId: member.id, quantity: 1, sortKey: 1000 + index })))
    .returning({ id: waitingListEntries.id });
}

describe("joining from a product page", () => {
  it("shows sold-out sizes to everyone, sends a visitor to sign in, and lets any member join once", async () => {
    const tee = await teeWithSoldOutSize();
    const path = `/shop/${tee.slug}`;
    const params = { slug: tee.slug };
    const visitorPage = await answerOf(() => productRoute.loader(site.args(null, { path, params })));
    expect(visitorPage.data).toMatchObject({
      soldOut: [{ id: tee.soldOutId, label: "M", maxPerOrder: 3 }],
      waitingLists: {},
    });
    const join = (who: TestRole | null, body: FormFields = {}) =>
      answerOf(() =>
        productRoute.action(
          site.args(who, {
            path,
            params,
            body: { intent: "join-waiting-list", variantId: tee.soldOutId, quantity: "1", ...body },
          }),
        ),
      );
    expect((await join(null)).location).toMatch(/^\/login\?redirectTo=/);
    for (const who of ["member", "organizer", "admin"] as const) {
      expect(await join(who)).toMatchObject({ status: 302, location: path });
    }
    expect(await join("member")).toMatchObject({
      status: 400,
      data: { waiting: "You are already on the waiting list for this item" },
    });
    const memberPage = await answerOf(() => productRoute.loader(site.args("member", { path, params })));
    expect(memberPage.data).toMatchObject({
      waitingLists: { [tee.soldOutId]: { position: 1, quantity: 1, offerEndsLabel: null } },
    });
  });

  it("refuses hostile input by the form: a size in stock, another product's variant, too many, nonsense", async () => {
    const tee = await teeWithSoldOutSize();
    const other = await teeWithSoldOutSize();
    const [stranger] = await createBuyers(database().db, 1);
    const who = { id: stranger!.id, email: stranger!.email, name: "Stranger", role: "member" } as never;
    const path = `/shop/${tee.slug}`;
    const join = (body: FormFields) =>
      answerOf(() =>
        productRoute.action(
          site.args(who, { path, params: { slug: tee.slug }, body: { intent: "join-waiting-list", ...body } }),
        ),
      );
    expect(await join({ variantId: tee.inStockId, quantity: "1" })).toMatchObject({
      status: 400,
      data: { waiting: "This item is in stock: add it to your cart" },
    });
    expect(await join({ variantId: other.soldOutId, quantity: "1" })).toMatchObject({
      status: 400,
      data: { waiting: "Choose the one you want" },
    });
    expect(await join({ variantId: tee.soldOutId, quantity: "9" })).toMatchObject({
      status: 400,
      data: { waiting: "Wait for at most 3 items" },
    });
    expect(await join({ variantId: "<script>", quantity: "1" })).toMatchObject({ status: 400 });
    expect(await join({ variantId: tee.soldOutId, quantity: "many" })).toMatchObject({ status: 400 });
    // With the lists switched off, sold-out sizes show no list and nobody joins.
    await database().db.update(products).set({ waitingListEnabled: false }).where(eq(products.id, tee.id));
    expect(await join({ variantId: tee.soldOutId, quantity: "1" })).toMatchObject({
      status: 400,
      data: { waiting: "This item has no waiting list" },
    });
    const page = await answerOf(() => productRoute.loader(site.args(null, { path, params: { slug: tee.slug } })));
    expect(page.data).toMatchObject({ soldOut: [] });
  });
});

describe("the member's merch lists", () => {
  it("shows their place on their lists page, and an offer link is theirs alone", async () => {
    const tee = await teeWithSoldOutSize();
    const [entry] = await lineUp(tee.soldOutId, [site.accounts.member]);
    const mine = await answerOf(() => myTicketsRoute.loader(site.args("member", { path: "/members/events" })));
    expect(mine.data?.waitingLists).toContainEqual(
      expect.objectContaining({ id: entry!.id, title: "Club tee", itemName: "M", unit: "item", position: 1 }),
    );
    const link = (who: TestRole | null) =>
      answerOf(() =>
        offerRoute.loader(site.args(who, { path: `/members/offers/${entry!.id}`, params: { entryId: entry!.id } })),
      );
    expect((await link(null)).location).toMatch(/^\/login\?redirectTo=/);
    // Not offered yet, and never someone else's: each is sent to their lists with a message.
    for (const who of ["member", "organizer", "admin"] as const) {
      expect(await link(who)).toMatchObject({ status: 302, location: "/members/events#waiting-lists" });
    }
  });
});

describe("staff's waiting-list tab of a product", () => {
  const tab = (productId: string) => `/admin/shop/${productId}/waiting-list`;

  it("sends visitors to sign in, gives members the 403 page, and lets organizers and admins see and change it", async () => {
    const tee = await teeWithSoldOutSize();
    const members = await createBuyers(database().db, 2);
    await lineUp(tee.soldOutId, members);
    const params = { productId: tee.id };
    const off: FormFields = { intent: "settings" };
    expect(await statusOf(() => route.loader(site.args(null, { path: tab(tee.id), params })))).toMatch(
      /^302 \/login\?redirectTo=/,
    );
    expect(await statusOf(() => route.loader(site.args("member", { path: tab(tee.id), params })))).toBe(403);
    expect(await statusOf(() => route.action(site.args(null, { path: tab(tee.id), params, body: off })))).toMatch(
      /^302 \/login\?redirectTo=/,
    );
    expect(await statusOf(() => route.action(site.args("member", { path: tab(tee.id), params, body: off })))).toBe(403);
    for (const who of ["organizer", "admin"] as const) {
      const page = await answerOf(() => route.loader(site.args(who, { path: tab(tee.id), params })));
      expect(page.data).toMatchObject({
        page: { couldSell: 2, lists: [{ id: tee.soldOutId, name: "M", waiting: 2 }] },
        offerHours: 24,
      });
      expect(await statusOf(() => route.action(site.args(who, { path: tab(tee.id), params, body: off })))).toBe(
        `302 ${tab(tee.id)}`,
      );
    }
    const [saved] = await database()
      .db.select({ enabled: products.waitingListEnabled })
      .from(products)
      .where(eq(products.id, tee.id));
    expect(saved).toEqual({ enabled: false });
    expect(
      await statusOf(() =>
        route.loader(site.args("admin", { path: "/admin/shop/x/waiting-list", params: { productId: "x" } })),
      ),
    ).toBe(404);
    expect(
      await statusOf(() =>
        route.loader(
          site.args("admin", {
            path: tab("7d2c3a1e-5b4f-4c6d-8e9f-0a1b2c3d4e5f"),
            params: { productId: "7d2c3a1e-5b4f-4c6d-8e9f-0a1b2c3d4e5f" },
          }),
        ),
      ),
    ).toBe(404);
  });

  it("moves someone up with a reason, audited, and refuses another product's entry and bad input", async () => {
    const { db } = database();
    const tee = await teeWithSoldOutSize();
    const other = await teeWithSoldOutSize();
    const members = await createBuyers(db, 3);
    const entries = await lineUp(tee.soldOutId, members);
    const [elsewhere] = await lineUp(other.soldOutId, members.slice(0, 1));
    const move = (body: FormFields) =>
      answerOf(() => route.action(site.args("organizer", { path: tab(tee.id), params: { productId: tee.id }, body })));
    expect(await move({ intent: "move", entryId: entries[2]!.id, position: "1", reason: "" })).toMatchObject({
      status: 400,
      data: { entryId: entries[2]!.id, errors: { reason: [expect.stringMatching(/Say why/)] } },
    });
    expect(await move({ intent: "move", entryId: elsewhere!.id, position: "1", reason: "x" })).toMatchObject({
      status: 404,
    });
    expect(await move({ intent: "move", entryId: "<x>", position: "1", reason: "x" })).toMatchObject({ status: 400 });
    expect(await move({ intent: "move", entryId: entries[2]!.id, position: "1", reason: "Sponsor" })).toMatchObject({
      status: 302,
    });
    const [audit] = await db
      .select({ actorId: auditLog.actorId, details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, "waiting_list.move"), eq(auditLog.subjectId, entries[2]!.id)));
    expect(audit).toMatchObject({
      actorId: site.accounts.organizer.id,
      details: { productId: tee.id, reason: "Sponsor", from: 3, to: 1 },
    });
  });
});
