import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findCart } from "~/features/cart/cart.server";
import { soldOutWithHolder } from "~/features/transfers/transfers.test-support";
import { joinInOrder, runListsAt } from "~/features/waiting-lists/waiting-lists.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { TestRole } from "~/server/session-user.test-support";
import { answerOf, routeTestSite } from "~/web/route-calls.test-support";
import { cartItems, carts, ticketTypes } from "../../../db/schema";
import * as route from "./offer";
import * as overview from "./overview";

const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "offer-link" });

/** A sold-out type whose one place came back and was offered to the site's member. */
async function offeredToMember() {
  const { db } = database();
  const { typeId } = await soldOutWithHolder(db, 1);
  const [entry] = await joinInOrder(db, typeId, [site.accounts.member], { quantity: 1 });
  await db.update(ticketTypes).set({ capacity: 2 }).where(eq(ticketTypes.id, typeId));
  const run = await runListsAt(db, new Date());
  expect(run.offered).toBe(1);
  return { typeId, entryId: entry!.id };
}

const open = (who: TestRole | null, entryId: string) =>
  answerOf(() => route.loader(site.args(who, { path: `/members/offers/${entryId}`, params: { entryId } })));

async function cartOf(userId: string) {
  const { db } = database();
  const cartId = await findCart(db, { userId });
  if (!cartId) return { voucherId: null, lines: [] };
  const [cart] = await db.select({ voucherId: carts.voucherId }).from(carts).where(eq(carts.id, cartId));
  const lines = await db
    .select({ ticketTypeId: cartItems.ticketTypeId, quantity: cartItems.quantity })
    .from(cartItems)
    .where(eq(cartItems.cartId, cartId));
  return { voucherId: cart!.voucherId, lines };
}

describe("the link in an offer email", () => {
  it("sends a visitor to sign in and back, puts the offer in its member's cart once, and does nothing for anyone else", async () => {
    const { typeId, entryId } = await offeredToMember();

    const visitor = await open(null, entryId);
    expect(visitor.status).toBe(302);
    expect(visitor.location).toBe(`/login?redirectTo=${encodeURIComponent(`/members/offers/${entryId}`)}`);

    for (const role of ["organizer", "admin"] as const) {
      expect(await open(role, entryId)).toMatchObject({ status: 302, location: "/members/events#waiting-lists" });
      expect((await cartOf(site.accounts[role].id)).lines).toEqual([]);
    }

    // Followed twice (a second click, a reload): the places are in the cart once, with the offer's code.
    for (let click = 0; click < 2; click++) {
      expect(await open("member", entryId)).toMatchObject({ status: 302, location: "/cart" });
    }
    const cart = await cartOf(site.accounts.member.id);
    expect(cart.lines).toEqual([{ ticketTypeId: typeId, quantity: 1 }]);
    expect(cart.voucherId).not.toBeNull();
  });

  it("answers a link that names no place in line with the member's lists, never an error page", async () => {
    for (const entryId of ["not-a-uuid", "00000000-0000-4000-8000-000000000000", "<script>"]) {
      expect(await open("member", entryId)).toMatchObject({ status: 302, location: "/members/events#waiting-lists" });
    }
  });
});

describe("the member's account page", () => {
  it("sends a visitor to sign in, and shows each member the offers held for them alone, linking to the cart", async () => {
    const { entryId } = await offeredToMember();
    expect((await answerOf(() => overview.loader(site.args(null, { path: "/members" })))).location).toMatch(/^\/login/);
    const mine = await answerOf(() => overview.loader(site.args("member", { path: "/members" })));
    // The member holds this offer (and the one made by the test before).
    expect(mine.data?.waiting).toContainEqual(
      expect.objectContaining({
        title: expect.stringMatching(/^A place for Paddock, /),
        text: expect.stringMatching(/^Held for you from the waiting list until /),
        action: { to: `/members/offers/${entryId}`, label: "Buy my places" },
      }),
    );
    for (const role of ["organizer", "admin"] as const) {
      const theirs = await answerOf(() => overview.loader(site.args(role, { path: "/members" })));
      expect(theirs.data?.waiting, role).toEqual([]);
    }
  });
});
