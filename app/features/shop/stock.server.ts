import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { liveHolds } from "~/features/commerce/live-holds.server";
import type { Db } from "~/server/db/client.server";
import { holds, products, productVariants } from "../../../db/schema";

/**
 * Merch stock (docs/shop.md). `stock` is what is on the shelf; a hold counts while it is active
 * and its `expires_at` is still ahead, so an expired hold gives its units back at read time,
 * whether or not the expiry job has run. What can be sold is stock − held (ADR 0007).
 */
export type VariantStockLine = {
  id: string;
  productId: string;
  productSlug: string;
  productTitle: string;
  productStatus: "draft" | "active" | "archived";
  optionNames: string[];
  options: string[];
  sku: string;
  price: number;
  /** What members pay; null: the same as everyone. */
  memberPrice: number | null;
  /** What members of a tier pay, by tier id, over `memberPrice`. */
  tierPrices: Record<string, number>;
  stock: number;
  maxPerOrder: number;
  active: boolean;
  /** Units in active, unexpired holds (not counting the asking member's own unpaid order). */
  held: number;
};

/** Units of one variant a buyer can still have: never below zero. */
export function availableUnits(line: Pick<VariantStockLine, "stock" | "held">) {
  return Math.max(0, line.stock - line.held);
}

/** Variant in "Size / Colour" words for a cart line or an order: "T-shirt — M / Black". */
export function variantDescription(line: Pick<VariantStockLine, "productTitle" | "options">) {
  return line.options.length > 0 ? `${line.productTitle} — ${line.options.join(" / ")}` : line.productTitle;
}

export type VariantStock = {
  variants: Map<string, VariantStockLine>;
  /** Counts units as taken by the order being made, so its next line sees them gone. */
  take(variantId: string, quantity: number): void;
};

const variantColumns = {
  id: productVariants.id,
  productId: productVariants.productId,
  productSlug: products.slug,
  productTitle: products.title,
  productStatus: products.status,
  optionNames: products.optionNames,
  options: productVariants.options,
  sku: productVariants.sku,
  price: productVariants.price,
  memberPrice: productVariants.memberPrice,
  tierPrices: productVariants.tierPrices,
  stock: productVariants.stock,
  maxPerOrder: productVariants.maxPerOrder,
  active: productVariants.active,
};

/**
 * Units in active holds per variant, in one query. `exceptUserId` leaves out the holds of that
 * member's own unpaid order: starting checkout again replaces it, so those units are theirs.
 */
export async function heldByVariant(
  db: Db,
  variantIds: readonly string[],
  now: Date,
  options: { exceptUserId?: string } = {},
): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  if (variantIds.length === 0) return result;
  const rows = await db
    .select({ variantId: holds.variantId, held: sql<number>`coalesce(sum(${holds.quantity}), 0)::int` })
    .from(holds)
    .where(and(inArray(holds.variantId, [...variantIds]), liveHolds(db, now, options)))
    .groupBy(holds.variantId);
  for (const row of rows) result.set(row.variantId!, Number(row.held));
  return result;
}

/**
 * Reads these variants with their held units. With `lock: true` the variant rows are locked
 * (`FOR NO KEY UPDATE`, sorted by id) for a decision that must not race: checkout, settlement,
 * refunds and stock adjustments. In the one lock order every money path uses (ADR 0007) variants
 * come after draws and before orders.
 */
export async function readVariantStock(
  db: Db,
  variantIds: readonly string[],
  now: Date,
  options: { lock: boolean; exceptUserId?: string },
): Promise<VariantStock> {
  const ids = [...new Set(variantIds)].sort();
  const variants = new Map<string, VariantStockLine>();
  if (ids.length > 0) {
    if (options.lock) {
      await db
        .select({ id: productVariants.id })
        .from(productVariants)
        .where(inArray(productVariants.id, ids))
        .orderBy(asc(productVariants.id))
        .for("no key update");
    }
    const rows = await db
      .select(variantColumns)
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(inArray(productVariants.id, ids));
    const held = await heldByVariant(db, ids, now, options);
    for (const row of rows) variants.set(row.id, { ...row, held: held.get(row.id) ?? 0 });
  }
  return {
    variants,
    take(variantId, quantity) {
      const line = variants.get(variantId);
      if (line) line.held += quantity;
    },
  };
}
