import { and, eq, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import { type Refusal, refuse } from "~/features/forms/refusal";
import type { Db } from "~/server/db/client.server";
import { holds, orderItems, products, productVariants } from "../../../db/schema";
import type { Outcome } from "./outcome";
import type { VariantInput } from "./schemas";

/**
 * A product's variants in the editor (docs/shop.md): what is sold, one per combination of option
 * values, with its SKU, price and per-order maximum. Stock changes go through adjustments.
 */

function variantRefusal(error: unknown): Refusal | null {
  const text = String((error as { cause?: unknown })?.cause ?? error);
  if (text.includes("product_variants_sku_key")) return refuse("sku", "Another variant has this SKU");
  if (text.includes("product_variants_product_options_key")) {
    return refuse("options", "This product already has a variant with these options");
  }
  return null;
}

/** The product's option names, which its variant form asks a value for; null when it no longer exists. */
export async function productOptionNames(db: Db, productId: string) {
  const [product] = await db
    .select({ optionNames: products.optionNames })
    .from(products)
    .where(eq(products.id, productId));
  return product?.optionNames ?? null;
}

/**
 * Writes a variant after checking it has a value for each of the product's options (they may have
 * been renamed or changed in number since the form was shown), and turns a taken SKU or a second
 * variant with the same options into a refusal on its field.
 */
async function writeVariant<T>(
  db: Db,
  input: { productId: string; values: VariantInput },
  write: (tx: Db) => Promise<Outcome<T>>,
): Promise<Outcome<T>> {
  const names = await productOptionNames(db, input.productId);
  if (!names) return refuse("", "This product no longer exists");
  const missing = names.findIndex((_, index) => !input.values.options[index]);
  if (missing >= 0) return refuse(`options[${missing}]`, `Enter the ${names[missing]!.toLowerCase()}`);
  try {
    return await db.transaction(write);
  } catch (error) {
    const refusal = variantRefusal(error);
    if (refusal) return refusal;
    throw error;
  }
}

/** Adds a variant (with no stock: stock arrives through an adjustment, which is recorded). */
export async function addVariant(
  db: Db,
  input: { actorId: string; productId: string; values: VariantInput; now: Date },
): Promise<Outcome<{ id: string }>> {
  return writeVariant(db, input, async (tx) => {
    const [{ position } = { position: 0 }] = await tx
      .select({ position: sql<number>`coalesce(max(${productVariants.position}), -1)::int + 1` })
      .from(productVariants)
      .where(eq(productVariants.productId, input.productId));
    const [row] = await tx
      .insert(productVariants)
      .values({ productId: input.productId, ...input.values, stock: 0, position, updatedAt: input.now })
      .returning({ id: productVariants.id });
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "product.variant.create",
      subjectType: "product_variant",
      subjectId: row!.id,
      details: { productId: input.productId, sku: input.values.sku, options: input.values.options },
    });
    return { ok: true as const, id: row!.id };
  });
}

/** Edits a variant's options, SKU, price, per-order maximum and whether it is on sale. */
export async function updateVariant(
  db: Db,
  input: { actorId: string; productId: string; variantId: string; values: VariantInput; now: Date },
): Promise<Outcome> {
  return writeVariant(db, input, async (tx) => {
    const [row] = await tx
      .update(productVariants)
      .set({ ...input.values, updatedAt: input.now })
      .where(and(eq(productVariants.id, input.variantId), eq(productVariants.productId, input.productId)))
      .returning({ id: productVariants.id });
    if (!row) return refuse("", "This variant no longer exists");
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "product.variant.update",
      subjectType: "product_variant",
      subjectId: input.variantId,
      details: { productId: input.productId, ...input.values },
    });
    return { ok: true as const };
  });
}

/**
 * Deletes a variant that was never sold nor held. One that was is part of orders: it can only be
 * taken off sale (deactivated), so old orders keep what they bought.
 */
export async function deleteVariant(
  db: Db,
  input: { actorId: string; productId: string; variantId: string },
): Promise<Outcome> {
  return db.transaction(async (tx) => {
    const [variant] = await tx
      .select({ id: productVariants.id, sku: productVariants.sku })
      .from(productVariants)
      .where(and(eq(productVariants.id, input.variantId), eq(productVariants.productId, input.productId)))
      .for("update");
    if (!variant) return refuse("", "This variant no longer exists");
    const [sold] = await tx
      .select({ id: orderItems.id })
      .from(orderItems)
      .where(eq(orderItems.variantId, input.variantId))
      .limit(1);
    const [held] = await tx.select({ id: holds.id }).from(holds).where(eq(holds.variantId, input.variantId)).limit(1);
    if (sold || held) {
      return refuse("", `${variant.sku} is on orders, so it cannot be deleted: take it off sale instead`);
    }
    await tx.delete(productVariants).where(eq(productVariants.id, input.variantId));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "product.variant.delete",
      subjectType: "product_variant",
      subjectId: input.variantId,
      details: { productId: input.productId, sku: variant.sku },
    });
    return { ok: true as const };
  });
}
