import { randomUUID } from "node:crypto";
import type { Db } from "~/server/db/client.server";
import { type ProductCategory, type ProductStatus, products, productVariants } from "../../../db/schema";

export type TestVariant = {
  options?: string[];
  price?: number;
  stock?: number;
  maxPerOrder?: number;
  active?: boolean;
};

/** A product with its variants, written directly (tests only). */
export async function createTestProduct(
  db: Db,
  input: {
    title?: string;
    slug?: string;
    category?: ProductCategory;
    status?: ProductStatus;
    optionNames?: string[];
    lowStockThreshold?: number;
    variants?: TestVariant[];
    position?: number;
  } = {},
) {
  const key = randomUUID().slice(0, 8);
  const [product] = await db
    .insert(products)
    .values({
      slug: input.slug ?? `product-${key}`,
      title: input.title ?? "Club T-shirt",
      category: input.category ?? "apparel",
      status: input.status ?? "active",
      optionNames: input.optionNames ?? [],
      lowStockThreshold: input.lowStockThreshold ?? 5,
      position: input.position ?? 0,
      summary: "Soft cotton, club crest on the chest.",
    })
    .returning({ id: products.id, slug: products.slug, title: products.title });
  const variants = input.variants ?? [{}];
  const rows = await db
    .insert(productVariants)
    .values(
      variants.map((variant, index) => ({
        productId: product!.id,
        sku: `SKU-${key}-${index}`,
        options: variant.options ?? [],
        price: variant.price ?? 2000,
        stock: variant.stock ?? 10,
        maxPerOrder: variant.maxPerOrder ?? 10,
        active: variant.active ?? true,
        position: index,
      })),
    )
    .returning({ id: productVariants.id, sku: productVariants.sku });
  return { ...product!, variantIds: rows.map((row) => row.id), skus: rows.map((row) => row.sku) };
}
