import { eq } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import { refuse } from "~/features/forms/refusal";
import type { Db } from "~/server/db/client.server";
import { productVariants, stockAdjustments } from "../../../db/schema";
import type { Outcome } from "./outcome";
import type { StockInput } from "./schemas";
import { readVariantStock } from "./stock.server";

/**
 * Staff's stock adjustments (docs/shop.md): counting the shelf, a delivery, damaged goods. Always
 * under the variant's lock, the one checkout, settlement and refunds take, so an adjustment and a
 * sale never both read the same count.
 */

/**
 * Sets a variant's shelf count, or adds to it (a negative amount takes away), with a reason:
 * under the variant's lock, never below zero, recorded in the stock history and the audit log.
 */
export async function adjustStock(
  db: Db,
  input: { actorId: string; productId: string; variantId: string; values: StockInput; now: Date },
): Promise<Outcome<{ stock: number; delta: number }>> {
  const { mode, amount, reason } = input.values;
  return db.transaction(async (tx) => {
    const stock = await readVariantStock(tx, [input.variantId], input.now, { lock: true });
    const line = stock.variants.get(input.variantId);
    if (!line || line.productId !== input.productId) return refuse("", "This variant no longer exists");
    const after = mode === "set" ? amount : line.stock + amount;
    if (after < 0) {
      return refuse(
        "amount",
        mode === "set"
          ? "Stock cannot be below zero"
          : `Only ${line.stock} on the shelf: you can take away at most ${line.stock}`,
      );
    }
    const delta = after - line.stock;
    if (delta === 0) return refuse("amount", `The stock is already ${line.stock}`);
    await tx
      .update(productVariants)
      .set({ stock: after, updatedAt: input.now })
      .where(eq(productVariants.id, input.variantId));
    await tx.insert(stockAdjustments).values({
      variantId: input.variantId,
      delta,
      stockAfter: after,
      reason,
      actorId: input.actorId,
      createdAt: input.now,
    });
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "product.stock.adjust",
      subjectType: "product_variant",
      subjectId: input.variantId,
      details: { productId: input.productId, sku: line.sku, before: line.stock, after, delta, reason },
    });
    return { ok: true as const, stock: after, delta };
  });
}
