import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { createBuyers } from "~/features/checkout/stock.test-support";
import { createTestProduct } from "~/features/shop/products.test-support";
import { requestContext, runtimeContext, userContext } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { Runtime } from "~/server/runtime.server";
import { testSessionUser } from "~/server/session-user.test-support";
import { cartItems, carts, users } from "../../../db/schema";
import { loader as listLoader } from "./list";
import { action as productAction, loader as productLoader } from "./product";

// The public shop routes, called as React Router calls them, for a visitor and each role.
const database = freshDatabasePerFile();
const ROLES = ["member", "organizer", "admin"] as const;
type Role = (typeof ROLES)[number];
const ENV = { CURRENCY: "GBP", SITE_URL: "http://localhost:3000", SITE_NAME: "Pitlane" };
const storage = { publicBase: "/media/" };

async function signedIn(role: Role) {
  const [account] = await createBuyers(database().db, 1);
  await database().db.update(users).set({ role }).where(eq(users.id, account!.id));
  return testSessionUser({ id: account!.id, email: account!.email, role });
}

type Who = ReturnType<typeof testSessionUser> | null;

function argsFor(who: Who, path: string, params: Record<string, string>, body?: Record<string, string>) {
  const context = new RouterContextProvider();
  context.set(runtimeContext, { db: database().db, env: ENV, storage } as unknown as Runtime);
  context.set(requestContext, { ip: "10.8.0.1", nonce: "n", requestId: "r" });
  context.set(userContext, who);
  const url = new URL(`http://localhost:3000${path}`);
  const request = new Request(url, {
    method: body ? "POST" : "GET",
    body: body ? new URLSearchParams(body) : undefined,
  });
  return { request, url, params, context, unstable_pattern: path } as never;
}

async function answerOf(call: () => unknown) {
  try {
    const answer = (await call()) as { data?: unknown; init?: { status?: number } };
    if (answer instanceof Response) {
      return {
        status: answer.status,
        location: answer.headers.get("Location"),
        cookie: answer.headers.get("Set-Cookie"),
      };
    }
    return { status: answer.init?.status ?? 200, data: (answer.data ?? answer) as Record<string, unknown> };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("Location") };
    const init = (thrown as { init?: { status?: number } } | null)?.init;
    if (init?.status) return { status: init.status };
    throw thrown;
  }
}

async function everyone() {
  const who: { name: string; user: Who }[] = [{ name: "visitor", user: null }];
  for (const role of ROLES) who.push({ name: role, user: await signedIn(role) });
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
      if (user) expect(added.cookie, name).not.toContain("pitlane.cart=");
      else expect(added.cookie, name).toContain("pitlane.cart=");

      const soldOut = await answerOf(() =>
        productAction(
          argsFor(
            user,
            "/shop/cart-tee",
            { slug: "cart-tee" },
            { "option-0": "M", "option-1": "White", quantity: "1" },
          ),
        ),
      );
      expect(soldOut, name).toMatchObject({ status: 400, data: { error: "Cart tee (M / White) is sold out" } });

      const unchosen = await answerOf(() =>
        productAction(argsFor(user, "/shop/cart-tee", { slug: "cart-tee" }, { "option-0": "M", quantity: "1" })),
      );
      expect(unchosen, name).toMatchObject({ status: 400, data: { error: "Choose a colour", field: "option-1" } });

      const nonsense = await answerOf(() =>
        productAction(
          argsFor(
            user,
            "/shop/cart-tee",
            { slug: "cart-tee" },
            { "option-0": "Q", "option-1": "Black", quantity: "x" },
          ),
        ),
      );
      expect(nonsense, name).toMatchObject({ status: 400, data: { field: "quantity" } });

      const unknown = await answerOf(() =>
        productAction(
          argsFor(
            user,
            "/shop/cart-tee",
            { slug: "cart-tee" },
            { "option-0": "Q", "option-1": "Black", quantity: "1" },
          ),
        ),
      );
      expect(unknown, name).toMatchObject({
        status: 400,
        data: { error: "Q / Black is not one of the choices for this product" },
      });
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
    const organizer = await signedIn("organizer");
    const staff = await answerOf(() =>
      productAction(argsFor(organizer, "/shop/hidden-thing", { slug: "hidden-thing" }, { quantity: "1" })),
    );
    expect(staff).toMatchObject({ status: 400, data: { error: "Hidden is no longer for sale" } });
  });
});
