import { and, eq, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import type { FieldMessages } from "~/features/forms/fields";
import type { Db } from "~/server/db/client.server";
import { holds, orderItems, products, productVariants } from "../../../db/schema";
import type { VariantInput } from "./admin-forms";
import { type Outcome, refuse } from "./outcome";

/**
 * A product's variants in the editor (docs/shop.md): what is sold, one per combination of option
 * values, with its SKU, price and per-order maximum. Stock changes go through adjustments.
 */

function variantRefusal(error: unknown): FieldMessages | null {
  const text = String((error as { cause?: unknown })?.cause ?? error);
  if (text.includes("product_variants_sku_key")) return { sku: "Another variant has this SKU" };
  if (text.includes("product_variants_product_options_key")) {
    return { options: "This product already has a variant with these options" };
  }
  return null;
}

/** Adds a variant (with no stock: stock arrives through an adjustment, which is recorded). */
export async function addVariant(
  db: Db,
  input: { actorId: string; productId: string; values: VariantInput; now: Date },
): Promise<Outcome<{ id: string }>> {
  const [product] = await db
    .select({ optionNames: products.optionNames })
    .from(products)
    .where(eq(products.id, input.productId));
  if (!product) return refuse({ form: "This product no longer exists" });
  const problem = optionsProblem(product.optionNames, input.values.options);
  if (problem) return refuse(problem);
  try {
    return await db.transaction(async (tx) => {
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
  } catch (error) {
    const refusal = variantRefusal(error);
    if (refusal) return refuse(refusal);
    throw error;
  }
}

function optionsProblem(names: string[], values: string[]): FieldMessages | null {
  const errors: FieldMessages = {};
  names.forEach((name, index) => {
    if (!values[index]) errors[`options.${index}`] = `Enter the ${name.toLowerCase()}`;
  });
  return Object.keys(errors).length > 0 ? errors : null;
}

/** Edits a variant's options, SKU, price, per-order maximum and whether it is on sale. */
export async function updateVariant(
  db: Db,
  input: { actorId: string; productId: string; variantId: string; values: VariantInput; now: Date },
): Promise<Outcome> {
  const [product] = await db
    .select({ optionNames: products.optionNames })
    .from(products)
    .where(eq(products.id, input.productId));
  if (!product) return refuse({ form: "This product no longer exists" });
  const problem = optionsProblem(product.optionNames, input.values.options);
  if (problem) return refuse(problem);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .update(productVariants)
        .set({ ...input.values, updatedAt: input.now })
        .where(and(eq(productVariants.id, input.variantId), eq(productVariants.productId, input.productId)))
        .returning({ id: productVariants.id });
      if (!row) return refuse({ form: "This variant no longer exists" });
      await recordAudit(tx, {
        actorId: input.actorId,
        action: "product.variant.update",
        subjectType: "product_variant",
        subjectId: input.variantId,
        details: { productId: input.productId, ...input.values },
      });
      return { ok: true as const };
    });
  } catch (error) {
    const refusal = variantRefusal(error);
    if (refusal) return refuse(refusal);
    throw error;
  }
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
    if (!variant) return refuse({ form: "This variant no longer exists" });
    const [sold] = await tx
      .select({ id: orderItems.id })
      .from(orderItems)
      .where(eq(orderItems.variantId, input.variantId))
      .limit(1);
    const [held] = await tx.select({ id: holds.id }).from(holds).where(eq(holds.variantId, input.variantId)).limit(1);
    if (sold || held) {
      return refuse({ form: `${variant.sku} is on orders, so it cannot be deleted: take it off sale instead` });
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
