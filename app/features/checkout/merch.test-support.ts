import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { cartItems, carts, products, productVariants, type ShippingAddress, shopSettings } from "../../../db/schema";
import { NOW } from "./stock.test-support";

/**
 * Products, variants and merch carts made straight in the database for the commerce tests
 * (the shop's own forms are tested beside them).
 */

export type TestVariant = {
  options?: string[];
  price?: number;
  stock?: number;
  maxPerOrder?: number;
  active?: boolean;
};

let productCount = 0;

export async function createTestProduct(
  db: Db,
  input: {
    title?: string;
    status?: "draft" | "active" | "archived";
    optionNames?: string[];
    variants: TestVariant[];
  },
) {
  productCount++;
  const title = input.title ?? `Test tee ${productCount}`;
  const [product] = await db
    .insert(products)
    .values({
      slug: `${title.toLowerCase().replace(/\W+/g, "-")}-${randomUUID().slice(0, 8)}`,
      title,
      category: "apparel",
      status: input.status ?? "active",
      optionNames: input.optionNames ?? (input.variants[0]?.options?.length ? ["Size"] : []),
    })
    .returning({ id: products.id });
  const variantIds: string[] = [];
  for (const [index, variant] of input.variants.entries()) {
    const [row] = await db
      .insert(productVariants)
      .values({
        productId: product!.id,
        sku: `SKU-${randomUUID().slice(0, 12)}`,
        options: variant.options ?? [],
        price: variant.price ?? 2000,
        stock: variant.stock ?? 10,
        maxPerOrder: variant.maxPerOrder ?? 10,
        active: variant.active ?? true,
        position: index,
      })
      .returning({ id: productVariants.id });
    variantIds.push(row!.id);
  }
  return { productId: product!.id, title, variantIds };
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
