import { eq } from "drizzle-orm";
import { createTestProduct as createShopProduct, type TestVariant } from "~/features/shop/products.test-support";
import type { Db } from "~/server/db/client.server";
import { cartItems, carts, type ProductStatus, type ShippingAddress, shopSettings } from "../../../db/schema";
import { NOW } from "./stock.test-support";

/**
 * Products and merch carts made straight in the database for the commerce tests (the shop's own
 * forms are tested beside them).
 */

/** A product on sale whose option names follow its first variant's options ("Size"), unless given. */
export async function createTestProduct(
  db: Db,
  input: { title?: string; status?: ProductStatus; optionNames?: string[]; variants: TestVariant[] },
) {
  const product = await createShopProduct(db, {
    ...input,
    optionNames: input.optionNames ?? (input.variants[0]?.options?.length ? ["Size"] : []),
  });
  return { productId: product.id, title: product.title, variantIds: product.variantIds };
}

/** Adds merch lines to a cart, written directly (no availability checks). */
export async function addMerchLines(db: Db, cartId: string, lines: { variantId: string; quantity: number }[]) {
  if (lines.length === 0) return;
  await db.insert(cartItems).values(
    lines.map((line, index) => ({
      cartId,
      kind: "merch" as const,
      variantId: line.variantId,
      quantity: line.quantity,
      createdAt: new Date(NOW.getTime() + 100 + index),
    })),
  );
}

/** A member's cart holding only merch. */
export async function fillMerchCart(db: Db, userId: string, lines: { variantId: string; quantity: number }[]) {
  const [cart] = await db.insert(carts).values({ userId }).returning({ id: carts.id });
  await addMerchLines(db, cart!.id, lines);
  return cart!.id;
}

export async function setShippingRates(
  db: Db,
  rates: { flatFee?: number; freeOver?: number | null; collectionEnabled?: boolean; countries?: string[] },
) {
  await db.update(shopSettings).set(rates).where(eq(shopSettings.id, 1));
}

export const TEST_ADDRESS: ShippingAddress = {
  name: "Ada Driver",
  line1: "1 Paddock Lane",
  town: "Silverstone",
  postcode: "NN12 8TN",
  country: "GB",
};

export const DELIVERY = { method: "delivery" as const, address: TEST_ADDRESS };
