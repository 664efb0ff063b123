import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { cartLines, findCart, getOrCreateCart, newVisitorToken, setCartItem } from "~/features/cart/cart.server";
import { addToCart } from "~/features/cart/cart-page.server";
import { createTestProduct } from "~/features/checkout/merch.test-support";
import { createBuyers, createTestEvent, NOW } from "~/features/checkout/stock.test-support";
import { addVariantToCart } from "~/features/shop/cart-merch.server";
import { runtimeContext, type SessionUser, userContext } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { Runtime } from "~/server/runtime.server";
import { cartItems } from "../../db/schema";
import { cartNoticeContext, cartStep } from "./cart-step.server";
import { clearVisitorCookie, newVisitorCookie, readVisitorToken, VISITOR_CART_COOKIE } from "./visitor-cookie.server";

const database = freshDatabasePerFile();

describe("visitor cart cookie", () => {
  it("is HttpOnly and Lax, Secure on https, and only a well-formed token is read back", () => {
    const { token, header } = newVisitorCookie("https://club.example");
    expect(header).toMatch(/^pitlane\.cart=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000; Secure$/);
    expect(newVisitorCookie("http://localhost:3000").header).not.toContain("Secure");
    expect(clearVisitorCookie("http://localhost:3000")).toContain("Max-Age=0");
    const request = (cookie: string) => new Request("http://localhost/", { headers: { cookie } });
    expect(readVisitorToken(request(`a=1; ${VISITOR_CART_COOKIE}=${token}; b=2`))).toBe(token);
    expect(readVisitorToken(request(`${VISITOR_CART_COOKIE}=short`))).toBeNull();
    expect(readVisitorToken(request("other=1"))).toBeNull();
  });
});

describe("the cart step", () => {
  function run(db: Runtime["db"], user: SessionUser | null, cookie: string) {
    const context = new RouterContextProvider();
    context.set(runtimeContext, { db, env: { SITE_URL: "https://club.example" } } as unknown as Runtime);
    context.set(userContext, user);
    const request = new Request("https://club.example/members", { headers: { cookie } });
    const step = cartStep(
      { request, context, url: new URL(request.url), params: {}, unstable_pattern: "" } as never,
      async () => new Response("page"),
    );
    return { context, response: step as Promise<Response> };
  }

  it("keeps a visitor's pages out of shared caches", async () => {
    const { db } = database();
    const { response } = run(db, null, `${VISITOR_CART_COOKIE}=${newVisitorToken()}`);
    expect((await response).headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("joins the visitor's cart to the member's on their first signed-in request, says what changed and clears the cookie", async () => {
    const { db } = database();
    const [buyer] = await createBuyers(db, 1);
    const { eventId, typeIds } = await createTestEvent(db, { types: [{ name: "Adult", maxPerOrder: 3 }] });
    const memberCart = await getOrCreateCart(db, { userId: buyer!.id });
    await setCartItem(db, { cartId: memberCart, ticketTypeId: typeIds[0]!, quantity: 2, now: NOW });
    const token = newVisitorToken();
    await addToCart(db, { owner: { visitorToken: token }, eventId, ticketTypeId: typeIds[0]!, quantity: 2, now: NOW });

    const user = { id: buyer!.id, email: buyer!.email } as SessionUser;
    const { context, response } = run(db, user, `${VISITOR_CART_COOKIE}=${token}`);
    const headers = (await response).headers;
    expect(headers.get("Set-Cookie")).toContain(`${VISITOR_CART_COOKIE}=;`);
    // No page showed the notice, so it waits in the flash cookie for the next one.
    expect(headers.get("Set-Cookie")).toContain("pitlane.flash=");
    expect(context.get(cartNoticeContext)?.flash.message).toContain("You can buy up to 3 Adult tickets in one order");
    expect((await cartLines(db, memberCart)).map((line) => line.quantity)).toEqual([3]);
    expect(await findCart(db, { visitorToken: token })).toBeNull();
  });

  it("brings a visitor's merch into the member's cart on sign-in, even with no tickets beside it", async () => {
    const { db } = database();
    const [buyer] = await createBuyers(db, 1);
    const { variantIds } = await createTestProduct(db, { variants: [{ options: ["L"], stock: 4 }] });
    const token = newVisitorToken();
    const visitorCart = await getOrCreateCart(db, { visitorToken: token });
    const added = await addVariantToCart(db, { cartId: visitorCart, variantId: variantIds[0]!, quantity: 2, now: NOW });
    expect(added.ok).toBe(true);

    const user = { id: buyer!.id, email: buyer!.email } as SessionUser;
    await run(db, user, `${VISITOR_CART_COOKIE}=${token}`).response;
    const memberCart = await findCart(db, { userId: buyer!.id });
    const lines = await db
      .select({ variantId: cartItems.variantId, quantity: cartItems.quantity })
      .from(cartItems)
      .where(eq(cartItems.cartId, memberCart!));
    expect(lines).toEqual([{ variantId: variantIds[0]!, quantity: 2 }]);
    expect(await findCart(db, { visitorToken: token })).toBeNull();
  });
});
