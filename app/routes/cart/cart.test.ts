import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  addMerchLines,
  createTestProduct,
  fillMerchCart,
  setShippingRates,
} from "~/features/checkout/merch.test-support";
import { createBuyers, createTestEvent, fillCart } from "~/features/checkout/stock.test-support";
import { giveCredit } from "~/features/credit/credit.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { sandboxGateway } from "~/server/payments/sandbox-provider.server";
import { TEST_ROLES, type TestRole, testSessionUser } from "~/server/session-user.test-support";
import { answerOf, routeArgs } from "~/web/route-calls.test-support";
import { cartItems, orders } from "../../../db/schema";
import { action, loader } from "./cart";

// The cart's merch and shipping, called as React Router calls the route, for each role.
const database = freshDatabasePerFile();
const ENV = { CURRENCY: "GBP", TIME_ZONE: "Europe/London", SITE_URL: "http://localhost:5173", HOLD_MINUTES: 15 };
const payments = sandboxGateway({ siteUrl: "http://localhost:5173" });
type Buyer = { id: string; email: string; role: TestRole };

/** The cart route's arguments for `user` (null: a visitor): a GET, or a POST of this form. */
const cartArgs = (user: Buyer | null, body?: Record<string, string>, env: Record<string, unknown> = {}) =>
  routeArgs({
    db: database().db,
    env: { ...ENV, ...env },
    runtime: { payments },
    who: user && testSessionUser(user),
    path: "/cart",
    body,
  });

type LoaderData = Awaited<ReturnType<typeof loader>>["data"];

const load = async (user: Buyer | null, env?: Record<string, unknown>) =>
  ((await loader(cartArgs(user, undefined, env))) as unknown as { data: LoaderData }).data;

const post = (user: Buyer | null, body: Record<string, string>) => answerOf(() => action(cartArgs(user, body)));

async function memberWithMerch(role: TestRole, quantity = 1) {
  const { db } = database();
  const [buyer] = await createBuyers(db, 1);
  const { variantIds } = await createTestProduct(db, {
    title: "Pit crew tee",
    optionNames: ["Size", "Colour"],
    variants: [{ options: ["M", "Black"], price: 2000, stock: 3 }],
  });
  const cartId = await fillMerchCart(db, buyer!.id, [{ variantId: variantIds[0]!, quantity }]);
  return { user: { ...buyer!, role }, cartId, variantId: variantIds[0]! };
}

const address = {
  "address.name": "Ada Driver",
  "address.line1": "1 Paddock Lane",
  "address.town": "Silverstone",
  "address.postcode": "NN12 8TN",
  "address.country": "GB",
};

describe("/cart with merch", () => {
  it("shows a visitor with no cart an empty cart and asks nothing about shipping", async () => {
    const data = await load(null);
    expect(data.sections).toEqual([]);
    expect(data.shipping).toBeNull();
  });

  it.each(TEST_ROLES)("lists a %s's merch line with its options and the delivery fee before Pay", async (role) => {
    await setShippingRates(database().db, { flatFee: 495, freeOver: 5000, countries: ["GB", "IE"] });
    const { user } = await memberWithMerch(role, 2);
    const data = await load(user);
    expect(data.sections).toMatchObject([
      {
        id: "cart-merch",
        title: "Merch",
        lines: [
          {
            label: "Pit crew tee, Size: M · Colour: Black",
            header: { name: "Pit crew tee", detail: "Size: M · Colour: Black" },
            quantity: 2,
            unitPrice: 2000,
          },
        ],
      },
    ]);
    expect(data.subtotal).toBe(4000);
    expect(data.shipping).toMatchObject({
      deliveryFee: 495,
      countries: [
        { code: "GB", name: "United Kingdom" },
        { code: "IE", name: "Ireland" },
      ],
      collectionEvents: [],
    });
  });

  it("offers collection at an event whose tickets are in the cart", async () => {
    const { db } = database();
    await setShippingRates(db, { collectionEnabled: true });
    const [buyer] = await createBuyers(db, 1);
    const { typeIds, title } = await createTestEvent(db, { title: "Summer Meet", types: [{ name: "Adult" }] });
    const { variantIds } = await createTestProduct(db, { variants: [{ stock: 5 }] });
    const cartId = await fillCart(db, buyer!.id, [{ ticketTypeId: typeIds[0]!, quantity: 1 }]);
    await addMerchLines(db, cartId, [{ variantId: variantIds[0]!, quantity: 1 }]);
    const data = await load({ ...buyer!, role: "member" });
    expect(data.shipping?.collectionEvents.map((event) => event.title)).toEqual([title]);
  });

  it("references Google's Places script only when a Maps key is set", async () => {
    const { user } = await memberWithMerch("member");
    expect((await load(user)).shipping?.placesScriptUrl).toBeNull();
    const withKey = await load(user, { GOOGLE_MAPS_API_KEY: "browser-key-123" });
    expect(withKey.shipping?.placesScriptUrl).toBe(
      "https://maps.googleapis.com/maps/api/js?key=browser-key-123&libraries=places&loading=async",
    );
    // Without merch there is no address form, so no script either.
    const [other] = await createBuyers(database().db, 1);
    const none = await load({ ...other!, role: "member" }, { GOOGLE_MAPS_API_KEY: "browser-key-123" });
    expect(none.shipping).toBeNull();
  });

  it("answers a bad address with a message per field, keeps what was typed and writes nothing", async () => {
    const { db } = database();
    await setShippingRates(db, { countries: ["GB"] });
    const { user } = await memberWithMerch("member");
    const result = await post(user, {
      intent: "pay",
      idempotencyKey: "k".repeat(24),
      shippingMethod: "delivery",
      ...address,
      "address.name": "",
      "address.postcode": "ABC",
      "address.line2": "<b>Flat 2</b>",
    });
    expect(result.status).toBe(400);
    expect(result.data?.shipping).toMatchObject({
      method: "delivery",
      address: { line1: "1 Paddock Lane", postcode: "ABC" },
      errors: {
        name: "Enter the name of the person the parcel is for",
        postcode: "Enter a valid Postcode, like SW1A 1AA",
        line2: "Remove the < and > characters",
      },
    });
    expect(await db.select({ id: orders.id }).from(orders).where(eq(orders.userId, user.id))).toEqual([]);
  });

  it("pays with a good address: one order with the shipping snapshotted, then the test checkout", async () => {
    const { db } = database();
    await setShippingRates(db, { flatFee: 395, freeOver: null, countries: ["GB"] });
    const { user } = await memberWithMerch("member");
    const result = await post(user, {
      intent: "pay",
      idempotencyKey: "p".repeat(24),
      shippingMethod: "delivery",
      ...address,
      "address.postcode": "nn12 8tn",
    });
    const [order] = await db
      .select({ id: orders.id, shipping: orders.shipping, total: orders.total, address: orders.shippingAddress })
      .from(orders)
      .where(eq(orders.userId, user.id));
    expect(result).toMatchObject({ status: 302, location: `/checkout/test/${order!.id}` });
    expect(order).toMatchObject({ shipping: 395, total: 2395, address: { postcode: "NN12 8TN" } });
  });

  it("refuses Pay without a shipping choice, naming why", async () => {
    const { user } = await memberWithMerch("member");
    const result = await post(user, { intent: "pay", idempotencyKey: "q".repeat(24) });
    expect(result.status).toBe(400);
    expect(result.data?.problems).toEqual([
      { ticketTypeId: null, message: "Choose how your merch should reach you: delivery or collection at an event" },
    ]);
  });

  it.each(TEST_ROLES)(
    "shows a %s the account credit checkout will spend first, and none that has run out",
    async (role) => {
      const { db } = database();
      const { user } = await memberWithMerch(role);
      expect((await load(user)).credit).toBe(0);
      const now = new Date();
      await giveCredit(db, { userId: user.id, amount: 1500, expiresAt: null, now: new Date(now.getTime() - 60_000) });
      await giveCredit(db, {
        userId: user.id,
        amount: 700,
        expiresAt: new Date(now.getTime() - 1000),
        now: new Date(now.getTime() - 60_000),
      });
      expect((await load(user)).credit).toBe(1500);
      expect((await load(null)).credit).toBe(0);
    },
  );

  it("sends a visitor to sign in before paying", async () => {
    const result = await post(null, { intent: "pay", idempotencyKey: "v".repeat(24) });
    expect(result).toMatchObject({ status: 302, location: "/login?redirectTo=/cart" });
  });

  it.each(TEST_ROLES)("lets a %s change a merch line within what is left, and remove it", async (role) => {
    const { db } = database();
    const { user, variantId, cartId } = await memberWithMerch(role);
    const tooMany = await post(user, { intent: "update-merch", variantId, quantity: "4" });
    expect(tooMany.status).toBe(400);
    expect(tooMany.data?.problems).toEqual([
      { ticketTypeId: variantId, message: "Only 3 of Pit crew tee (M / Black) left" },
    ]);
    const changed = await post(user, { intent: "update-merch", variantId, quantity: "3" });
    expect(changed).toMatchObject({ status: 302, location: "/cart" });
    const [line] = await db
      .select({ quantity: cartItems.quantity })
      .from(cartItems)
      .where(eq(cartItems.cartId, cartId));
    expect(line?.quantity).toBe(3);
    await post(user, { intent: "remove-merch", variantId });
    expect(await db.select().from(cartItems).where(eq(cartItems.cartId, cartId))).toEqual([]);
  });

  it("tells a visitor with no cart that the item is gone", async () => {
    const result = await post(null, { intent: "remove-merch", variantId: "00000000-0000-4000-8000-000000000000" });
    expect(result.status).toBe(400);
  });
});
