import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { issueMembership } from "~/features/membership/memberships.server";
import { createTestTier } from "~/features/membership/tiers.test-support";
import { createTestProduct } from "~/features/shop/products.test-support";
import type { SessionUser } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { TEST_ROLES, testAccount } from "~/server/session-user.test-support";
import { answerOf, routeArgs } from "~/web/route-calls.test-support";
import { cartItems, carts, productVariants } from "../../../db/schema";
import { loader as listLoader } from "./list";
import { action as productAction, loader as productLoader } from "./product";

// The public shop routes, called as React Router calls them, for a visitor and each role.
const database = freshDatabasePerFile();
const ENV = { CURRENCY: "GBP", SITE_URL: "http://localhost:3000", SITE_NAME: "Pitlane" };
const storage = { publicBase: "/media/" };

const argsFor = (
  who: SessionUser | null,
  path: string,
  params: Record<string, string>,
  body?: Record<string, string>,
) => routeArgs({ db: database().db, env: ENV, runtime: { storage }, who, path, params, body });

async function everyone() {
  const who: { name: string; user: SessionUser | null }[] = [{ name: "visitor", user: null }];
  for (const role of TEST_ROLES) who.push({ name: role, user: await testAccount(database().db, role) });
  return who;
}

describe("/shop and /shop/:slug", () => {
  it("shows products on sale to everyone, filtered by category; drafts are 404 except to staff", async () => {
    const { db } = database();
    const tee = await createTestProduct(db, {
      title: "Route tee",
      slug: "route-tee",
      optionNames: ["Size"],
      variants: [
        { options: ["M"], price: 2200 },
        { options: ["L"], price: 2400 },
      ],
    });
    await createTestProduct(db, { title: "Route sticker", slug: "route-sticker", category: "stickers" });
    await createTestProduct(db, { title: "Route draft", slug: "route-draft", status: "draft" });
    for (const { name, user } of await everyone()) {
      const all = await answerOf(() => listLoader(argsFor(user, "/shop", {})));
      expect(all.status, name).toBe(200);
      const titles = (all.data!.products as { title: string }[]).map((product) => product.title);
      expect(titles, name).toEqual(expect.arrayContaining(["Route tee", "Route sticker"]));
      expect(titles, name).not.toContain("Route draft");

      const stickers = await answerOf(() => listLoader(argsFor(user, "/shop?category=stickers", {})));
      expect(
        (stickers.data!.products as { title: string }[]).map((product) => product.title),
        name,
      ).toEqual(["Route sticker"]);

      const page = await answerOf(() => productLoader(argsFor(user, "/shop/route-tee", { slug: "route-tee" })));
      expect(page.status, name).toBe(200);
      expect((page.data!.page as { id: string }).id, name).toBe(tee.id);
      expect(page.data!.jsonLd, name).toContain('"price":"22.00"');

      const draft = await answerOf(() => productLoader(argsFor(user, "/shop/route-draft", { slug: "route-draft" })));
      expect(draft.status, name).toBe(name === "visitor" || name === "member" ? 404 : 200);
    }
    const missing = await answerOf(() => productLoader(argsFor(null, "/shop/nope", { slug: "nope" })));
    expect(missing.status).toBe(404);
  });

  it("adds to the cart for a visitor (with a cart cookie) and each role, and refuses with messages", async () => {
    const { db } = database();
    const tee = await createTestProduct(db, {
      title: "Cart tee",
      slug: "cart-tee",
      optionNames: ["Size", "Colour"],
      variants: [
        { options: ["M", "Black"], stock: 50 },
        { options: ["M", "White"], stock: 0 },
      ],
    });
    for (const { name, user } of await everyone()) {
      const added = await answerOf(() =>
        productAction(
          argsFor(
            user,
            "/shop/cart-tee",
            { slug: "cart-tee" },
            { "option-0": "M", "option-1": "Black", quantity: "2" },
          ),
        ),
      );
      expect(added.status, name).toBe(302);
      expect(added.location, name).toBe("/shop/cart-tee");
      const cookie = added.headers?.get("Set-Cookie");
      if (user) expect(cookie, name).not.toContain("pitlane.cart=");
      else expect(cookie, name).toContain("pitlane.cart=");

      const refusals: { fields: Record<string, string>; data: Record<string, unknown> }[] = [
        {
          fields: { "option-0": "M", "option-1": "White", quantity: "1" },
          data: { error: "Cart tee (M / White) is sold out" },
        },
        { fields: { "option-0": "M", quantity: "1" }, data: { error: "Choose a colour", field: "option-1" } },
        { fields: { "option-0": "Q", "option-1": "Black", quantity: "x" }, data: { field: "quantity" } },
        {
          fields: { "option-0": "Q", "option-1": "Black", quantity: "1" },
          data: { error: "Q / Black is not one of the choices for this product" },
        },
      ];
      for (const { fields, data } of refusals) {
        const refused = await answerOf(() =>
          productAction(argsFor(user, "/shop/cart-tee", { slug: "cart-tee" }, fields)),
        );
        expect(refused, `${name} ${JSON.stringify(fields)}`).toMatchObject({ status: 400, data });
      }
    }
    // Members' carts hold the tee; a refused add made no cart of its own.
    const lines = await db
      .select({ quantity: cartItems.quantity, userId: carts.userId })
      .from(cartItems)
      .innerJoin(carts, eq(carts.id, cartItems.cartId))
      .where(eq(cartItems.variantId, tee.variantIds[0]!));
    expect(lines.map((line) => line.quantity)).toEqual([2, 2, 2, 2]);
    expect(await db.select().from(cartItems).where(eq(cartItems.variantId, tee.variantIds[1]!))).toEqual([]);
  });

  it("shows a club member their member price, and a visitor what members pay", async () => {
    const { db } = database();
    const tee = await createTestProduct(db, { title: "Member tee", slug: "member-tee", variants: [{ price: 2000 }] });
    await db.update(productVariants).set({ memberPrice: 1500 }).where(eq(productVariants.productId, tee.id));
    const member = await testAccount(db, "member", "A club member");
    await issueMembership(db, {
      userId: member.id,
      tier: await createTestTier(db),
      people: [],
      orderId: null,
      paidPence: 3000,
      paidAt: new Date(),
    });
    const load = (who: SessionUser | null) =>
      answerOf(() => productLoader(argsFor(who, "/shop/member-tee", { slug: "member-tee" })));

    const theirs = await load(member);
    expect((theirs.data!.page as { variants: { price: number }[] }).variants[0]!.price).toBe(1500);
    expect(theirs.data!.memberNote).toEqual({ text: "Member price", join: false });
    const everyone = await load(null);
    expect((everyone.data!.page as { variants: { price: number }[] }).variants[0]!.price).toBe(2000);
    expect(everyone.data!.memberNote).toEqual({ text: "Members pay £15.00.", join: true });
    // A member without a membership is everyone else.
    const plain = await load(await testAccount(db, "member", "Not in the club"));
    expect(plain.data!.memberNote).toEqual({ text: "Members pay £15.00.", join: true });
  });

  it("answers 400, not an error, to a form it cannot read", async () => {
    await createTestProduct(database().db, { title: "Odd", slug: "odd-form" });
    const args = argsFor(null, "/shop/odd-form", { slug: "odd-form" }) as unknown as { request: Request };
    args.request = new Request("http://localhost:3000/shop/odd-form", {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=nope" },
      body: "not multipart at all",
    });
    expect((await answerOf(() => productAction(args as never))).status).toBe(400);
  });

  it("is 404 to add a draft product for the public", async () => {
    const { db } = database();
    await createTestProduct(db, { title: "Hidden", slug: "hidden-thing", status: "draft" });
    const answer = await answerOf(() =>
      productAction(argsFor(null, "/shop/hidden-thing", { slug: "hidden-thing" }, { quantity: "1" })),
    );
    expect(answer.status).toBe(404);
    const organizer = await testAccount(database().db, "organizer");
    const staff = await answerOf(() =>
      productAction(argsFor(organizer, "/shop/hidden-thing", { slug: "hidden-thing" }, { quantity: "1" })),
    );
    expect(staff).toMatchObject({ status: 400, data: { error: "Hidden is no longer for sale" } });
  });
});
