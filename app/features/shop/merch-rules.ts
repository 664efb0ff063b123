import type { VariantStockLine } from "./stock.server";

/** Why a quantity of a variant cannot be bought now, in words for the buyer; null when it can. */
export type MerchProblem = {
  code: "not_found" | "unavailable" | "max_per_order" | "sold_out" | "not_enough";
  message: string;
  variantId: string;
};

type Line = Pick<
  VariantStockLine,
  "id" | "productTitle" | "productStatus" | "options" | "stock" | "held" | "maxPerOrder" | "active"
>;

const nameOf = (line: Line) =>
  line.options.length > 0 ? `${line.productTitle} (${line.options.join(" / ")})` : line.productTitle;

/**
 * The rules for `quantity` units of one variant in one order: on sale, within the per-order
 * maximum, and no more than the stock less everyone else's holds. Used by the cart for advice
 * and by checkout under the variant's lock for the decision.
 */
export function merchLineProblem(line: Line | undefined, variantId: string, quantity: number): MerchProblem | null {
  if (!line) return { code: "not_found", message: "An item in your cart is no longer in the shop", variantId };
  if (line.productStatus !== "active" || !line.active) {
    return { code: "unavailable", message: `${nameOf(line)} is no longer for sale`, variantId };
  }
  if (quantity > line.maxPerOrder) {
    return {
      code: "max_per_order",
      message: `You can buy at most ${line.maxPerOrder} of ${nameOf(line)} in one order`,
      variantId,
    };
  }
  const left = Math.max(0, line.stock - line.held);
  if (left === 0) return { code: "sold_out", message: `${nameOf(line)} is sold out`, variantId };
  if (quantity > left) {
    return { code: "not_enough", message: `Only ${left} of ${nameOf(line)} left`, variantId };
  }
  return null;
}

/** The badge a product or variant shows: "Sold out" at none, "Few left" at `threshold` or fewer. */
export function stockBadge(available: number, threshold: number): "Sold out" | "Few left" | null {
  if (available <= 0) return "Sold out";
  if (available <= threshold) return "Few left";
  return null;
}
