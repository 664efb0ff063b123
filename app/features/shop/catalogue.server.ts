import { and, asc, count, eq, inArray } from "drizzle-orm";
import { buyerPrice, memberOffer } from "~/features/commerce/member-price";
import { renderMarkdown } from "~/features/content/markdown.server";
import type { Db } from "~/server/db/client.server";
import { formatMoney } from "~/ui/money";
import {
  PRODUCT_CATEGORIES,
  type ProductCategory,
  type ProductImage,
  products,
  productVariants,
} from "../../../db/schema";
import { CATEGORY_LABELS, type ShopTile, type StockBadge } from "./catalogue-labels";
import { stockBadge } from "./merch-rules";
import { availableUnits, heldByVariant } from "./stock.server";

/**
 * The shop as buyers see it (docs/shop.md): products on sale, in staff's order, with the lowest
 * price of their variants and what is left now (stock less everyone's active holds). Drafts and
 * archived products are not in the shop; staff may open a draft's page to preview it.
 */

export const SHOP_PAGE_SIZE = 24;

type VariantSummary = { productId: string; price: number; available: number };

/** The variants on sale of these products with what is left of each, in two queries. */
async function variantsOnSale(db: Db, productIds: string[], now: Date): Promise<VariantSummary[]> {
  if (productIds.length === 0) return [];
  const rows = await db
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      price: productVariants.price,
      stock: productVariants.stock,
    })
    .from(productVariants)
    .where(and(inArray(productVariants.productId, productIds), eq(productVariants.active, true)));
  const held = await heldByVariant(db, rows, now);
  return rows.map((row) => ({
    productId: row.productId,
    price: row.price,
    available: availableUnits({ stock: row.stock, held: held.get(row.id) ?? 0 }),
  }));
}

/** A product's tile figures from its variants on sale; no variant on sale reads as sold out. */
function summarise(variants: VariantSummary[], threshold: number) {
  const prices = variants.map((variant) => variant.price);
  const fromPrice = prices.length > 0 ? Math.min(...prices) : 0;
  const available = variants.reduce((sum, variant) => sum + variant.available, 0);
  return {
    fromPrice,
    onePrice: prices.every((price) => price === fromPrice),
    badge: stockBadge(available, threshold),
  };
}

export type ShopPage = {
  products: ShopTile[];
  total: number;
  page: number;
  pageCount: number;
  /** Products on sale per category, for the filter. */
  categories: { value: ProductCategory; label: string; count: number }[];
  allCount: number;
};

/** One page of the shop, optionally one category, with the counts the filter shows. */
export async function listProducts(
  db: Db,
  input: { category?: ProductCategory; page?: number; now: Date },
): Promise<ShopPage> {
  const onSale = eq(products.status, "active");
  const where = input.category ? and(onSale, eq(products.category, input.category)) : onSale;
  const counts = await db
    .select({ category: products.category, count: count() })
    .from(products)
    .where(onSale)
    .groupBy(products.category);
  const byCategory = new Map(counts.map((row) => [row.category, Number(row.count)]));
  const allCount = counts.reduce((sum, row) => sum + Number(row.count), 0);
  const total = input.category ? (byCategory.get(input.category) ?? 0) : allCount;
  const pageCount = Math.max(1, Math.ceil(total / SHOP_PAGE_SIZE));
  const requested = Number.isFinite(input.page) ? Math.trunc(input.page ?? 1) : 1;
  const page = Math.min(Math.max(1, requested), pageCount);

  const rows = await db
    .select({
      id: products.id,
      slug: products.slug,
      title: products.title,
      category: products.category,
      images: products.images,
      lowStockThreshold: products.lowStockThreshold,
    })
    .from(products)
    .where(where)
    .orderBy(asc(products.position), asc(products.title), asc(products.id))
    .limit(SHOP_PAGE_SIZE)
    .offset((page - 1) * SHOP_PAGE_SIZE);
  const variants = await variantsOnSale(
    db,
    rows.map((row) => row.id),
    input.now,
  );
  const tiles = rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    title: row.title,
    category: row.category,
    image: row.images[0] ?? null,
    ...summarise(
      variants.filter((variant) => variant.productId === row.id),
      row.lowStockThreshold,
    ),
  }));
  return {
    products: tiles,
    total,
    page,
    pageCount,
    allCount,
    categories: PRODUCT_CATEGORIES.map((value) => ({
      value,
      label: CATEGORY_LABELS[value],
      count: byCategory.get(value) ?? 0,
    })),
  };
}

type PageVariant = {
  id: string;
  sku: string;
  options: string[];
  /** What the buyer pays: the member price (or their tier's) for a member. */
  price: number;
  /** What members pay, for a buyer who is not one; null when it is the same or they are one. */
  memberPrice: number | null;
  /** The buyer pays a member price (or their tier's). */
  memberPriced: boolean;
  available: number;
  maxPerOrder: number;
  badge: StockBadge;
};

export type ProductPage = {
  id: string;
  slug: string;
  title: string;
  category: ProductCategory;
  status: "draft" | "active" | "archived";
  summary: string;
  descriptionHtml: string;
  sizeGuideHtml: string;
  images: ProductImage[];
  optionNames: string[];
  /** Each option's values in the order staff listed the variants. */
  optionValues: string[][];
  variants: PageVariant[];
  lowStockThreshold: number;
  /** Whether members may join a sold-out variant's waiting list. */
  waitingListEnabled: boolean;
  updatedAt: Date;
};

/**
 * A product's page: on sale for everyone; a draft or archived one only when `staff` (to
 * preview). Only variants on sale are offered, at the buyer's prices (a `member`'s own, their tier's where set). Markdown
 * is rendered here with raw HTML escaped.
 */
export async function getProductPage(
  db: Db,
  slug: string,
  input: { staff: boolean; now: Date; member?: boolean; tierId?: string | null },
): Promise<ProductPage | null> {
  const buyer = { member: input.member ?? false, tierId: input.tierId };
  if (!slug || slug.length > 200) return null;
  const [product] = await db.select().from(products).where(eq(products.slug, slug));
  if (!product) return null;
  if (product.status !== "active" && !input.staff) return null;
  const rows = await db
    .select()
    .from(productVariants)
    .where(and(eq(productVariants.productId, product.id), eq(productVariants.active, true)))
    .orderBy(asc(productVariants.position), asc(productVariants.sku));
  const held = await heldByVariant(db, rows, input.now);
  const variants = rows.map((row) => {
    const available = availableUnits({ stock: row.stock, held: held.get(row.id) ?? 0 });
    return {
      id: row.id,
      sku: row.sku,
      options: row.options,
      price: buyerPrice(row, buyer),
      memberPrice: memberOffer(row, buyer),
      memberPriced: buyerPrice(row, buyer) !== row.price,
      available,
      maxPerOrder: row.maxPerOrder,
      badge: stockBadge(available, product.lowStockThreshold),
    };
  });
  const optionValues = product.optionNames.map((_, index) => [
    ...new Set(variants.map((variant) => variant.options[index]).filter((value): value is string => Boolean(value))),
  ]);
  return {
    id: product.id,
    slug: product.slug,
    title: product.title,
    category: product.category,
    status: product.status,
    summary: product.summary,
    descriptionHtml: product.description ? renderMarkdown(product.description) : "",
    sizeGuideHtml: product.sizeGuide ? renderMarkdown(product.sizeGuide) : "",
    images: product.images,
    optionNames: product.optionNames,
    optionValues,
    variants,
    lowStockThreshold: product.lowStockThreshold,
    waitingListEnabled: product.waitingListEnabled,
    updatedAt: product.updatedAt,
  };
}

/**
 * What membership changes on a product's page, in words (docs/membership.md, "Member prices…"):
 * "Member price" for a member who pays it; for anyone else what members pay, the lowest when
 * variants differ, with an offer to join. Null when no variant has a member price.
 */
export function memberPriceNote(
  variants: readonly Pick<PageVariant, "memberPrice" | "memberPriced">[],
  currency: string,
): { text: string; join: boolean } | null {
  if (variants.some((variant) => variant.memberPriced)) return { text: "Member price", join: false };
  const offers = variants.flatMap((variant) => (variant.memberPrice === null ? [] : [variant.memberPrice]));
  if (offers.length === 0) return null;
  const lowest = Math.min(...offers);
  const one = offers.length === variants.length && offers.every((offer) => offer === lowest);
  return { text: `Members pay ${one ? "" : "from "}${formatMoney(lowest, currency)}.`, join: true };
}

/** The product on sale (or any, for staff) a slug names, with its variants' ids and options. */
export async function productVariantsBySlug(db: Db, slug: string, staff: boolean) {
  if (!slug || slug.length > 200) return null;
  const [product] = await db
    .select({ id: products.id, slug: products.slug, status: products.status, optionNames: products.optionNames })
    .from(products)
    .where(eq(products.slug, slug));
  if (!product || (product.status !== "active" && !staff)) return null;
  const variants = await db
    .select({ id: productVariants.id, options: productVariants.options, active: productVariants.active })
    .from(productVariants)
    .where(eq(productVariants.productId, product.id));
  return { ...product, variants };
}

/** Products on sale for the sitemap. */
export async function sitemapProducts(db: Db) {
  return db
    .select({ slug: products.slug, updatedAt: products.updatedAt })
    .from(products)
    .where(eq(products.status, "active"))
    .orderBy(asc(products.position), asc(products.slug));
}
