import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { liveHolds } from "~/features/commerce/live-holds.server";
import { placesForTheLine } from "~/features/places/line-state";
import { variantWaitingDemand } from "~/features/places/waiting-demand.server";
import { placesKeptForVouchers } from "~/features/vouchers/voucher-uses.server";
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
  /** Whether members may wait for the variant when it sells out. */
  waitingListEnabled: boolean;
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
  /**
   * Units the buyer cannot have: in active, unexpired holds (not counting the asking member's own
   * unpaid order), kept for others' waiting-list offers, and set aside for the waiting list.
   */
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
  waitingListEnabled: products.waitingListEnabled,
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

export type HeldOptions = {
  /** Leaves out the holds of this member's own unpaid order: starting checkout again replaces it. */
  exceptUserId?: string;
  /** The buyer's own voucher: the units it keeps (a waiting-list offer) are theirs to take. */
  voucherId?: string | null;
  /** Free units are not set aside for the waiting lists: the offer sweep, which hands them out. */
  forWaitingLists?: boolean;
};

/**
 * Units each variant has that the buyer cannot have, in three queries: those in active holds,
 * those kept for someone else's waiting-list offer, and, while people wait for the variant, the
 * free units set aside for them (docs/waiting-lists.md), so a unit that comes back is offered to
 * the line before it goes back on sale.
 */
export async function heldByVariant(
  db: Db,
  variants: readonly { id: string; stock: number }[],
  now: Date,
  options: HeldOptions = {},
): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  if (variants.length === 0) return result;
  const ids = variants.map((variant) => variant.id);
  const rows = await db
    .select({ variantId: holds.variantId, held: sql<number>`coalesce(sum(${holds.quantity}), 0)::int` })
    .from(holds)
    .where(and(inArray(holds.variantId, ids), liveHolds(db, now, options)))
    .groupBy(holds.variantId);
  const inHolds = new Map(rows.map((row) => [row.variantId!, Number(row.held)]));
  const kept = await placesKeptForVouchers(db, ids, now, { ownVoucherId: options.voucherId, of: "variants" });
  const waiting = options.forWaitingLists ? new Map<string, number>() : await variantWaitingDemand(db, ids);
  for (const variant of variants) {
    const { others = 0, own = 0 } = kept.get(variant.id) ?? {};
    const held = (inHolds.get(variant.id) ?? 0) + others;
    const line = placesForTheLine(waiting.get(variant.id) ?? 0, variant.stock - held - own);
    result.set(variant.id, held + line);
  }
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
  options: { lock: boolean } & HeldOptions,
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
    const held = await heldByVariant(db, rows, now, options);
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
