import type { ProductCategory, ProductImage } from "../../../db/schema";

/** The shop's words and shapes a page needs in the browser too (client safe). */

export const CATEGORY_LABELS: Record<ProductCategory, string> = {
  apparel: "Apparel",
  stickers: "Stickers",
  models: "Models",
  accessories: "Accessories",
};

export function isProductCategory(value: unknown): value is ProductCategory {
  return typeof value === "string" && Object.hasOwn(CATEGORY_LABELS, value);
}

export type StockBadge = "Sold out" | "Few left" | null;

export type ShopTile = {
  id: string;
  slug: string;
  title: string;
  category: ProductCategory;
  image: ProductImage | null;
  /** The lowest price of its variants on sale. */
  fromPrice: number;
  /** Every variant costs the same: the tile says "£22", not "from £22". */
  onePrice: boolean;
  badge: StockBadge;
};

/** The /shop address for a category and page, leaving out defaults so links stay short. */
export function shopHref(filters: { category?: string; page?: number }) {
  const params = new URLSearchParams();
  if (filters.category) params.set("category", filters.category);
  if (filters.page && filters.page > 1) params.set("page", String(filters.page));
  const query = params.toString();
  return query ? `/shop?${query}` : "/shop";
}
