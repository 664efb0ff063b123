import { and, asc, count, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import { refuse } from "~/features/forms/refusal";
import { numberedSlug } from "~/features/forms/slug";
import type { Db } from "~/server/db/client.server";
import { countOf } from "~/ui/plural";
import {
  orderItems,
  type ProductCategory,
  type ProductImage,
  type ProductStatus,
  products,
  productVariants,
  stockAdjustments,
  users,
} from "../../../db/schema";
import { LIMITS } from "./limits";
import { stockBadge } from "./merch-rules";
import type { Outcome } from "./outcome";
import type { ProductInput } from "./schemas";
import { availableUnits, heldByVariant } from "./stock.server";

/**
 * Staff's side of the shop (docs/shop.md): the product list, the editor and variants; stock
 * adjustments, photos and delivery settings are in their own modules beside this one. Every
 * change is written to the audit log in the transaction that makes it.
 */

/** What the product list and the top of a product's editor pages show of a product. */
export type ProductFacts = {
  id: string;
  slug: string;
  title: string;
  category: ProductCategory;
  status: ProductStatus;
  image: ProductImage | null;
  variantCount: number;
  /** Units on the shelf of the variants on sale, and what is left of them once holds are counted. */
  stock: number;
  available: number;
};

export type AdminProductRow = ProductFacts & {
  /** Variants on sale at or below the product's low-stock threshold (sold out included). */
  lowStock: { label: string; available: number }[];
  /** Every variant on sale with what is left of it, in staff's order ("M: 2"). */
  variants: { label: string; available: number }[];
  fromPrice: number | null;
};

/** A product's facts from its row and its variants (with their held units). */
function productFacts(
  product: Pick<typeof products.$inferSelect, "id" | "slug" | "title" | "category" | "status" | "images">,
  variants: { active: boolean; stock: number; held: number }[],
): ProductFacts {
  const onSale = variants.filter((variant) => variant.active);
  return {
    id: product.id,
    slug: product.slug,
    title: product.title,
    category: product.category,
    status: product.status,
    image: product.images[0] ?? null,
    variantCount: variants.length,
    stock: onSale.reduce((sum, variant) => sum + variant.stock, 0),
    available: onSale.reduce((sum, variant) => sum + availableUnits(variant), 0),
  };
}

/** Every product, drafts first by position, with its variants' stock summed, in three queries. */
export async function listProductsForAdmin(db: Db, now: Date): Promise<AdminProductRow[]> {
  const rows = await db
    .select({
      id: products.id,
      slug: products.slug,
      title: products.title,
      category: products.category,
      status: products.status,
      images: products.images,
      lowStockThreshold: products.lowStockThreshold,
    })
    .from(products)
    .orderBy(
      sql`case ${products.status} when 'active' then 0 when 'draft' then 1 else 2 end`,
      asc(products.position),
      asc(products.title),
    );
  if (rows.length === 0) return [];
  const variants = await db
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      options: productVariants.options,
      sku: productVariants.sku,
      price: productVariants.price,
      stock: productVariants.stock,
      active: productVariants.active,
    })
    .from(productVariants)
    .where(
      inArray(
        productVariants.productId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(productVariants.position), asc(productVariants.sku));
  const held = await heldByVariant(db, variants, now);
  return rows.map((row) => {
    const own = variants
      .filter((variant) => variant.productId === row.id)
      .map((variant) => ({ ...variant, held: held.get(variant.id) ?? 0 }));
    const lines = own
      .filter((variant) => variant.active)
      .map((variant) => ({
        label: variant.options.join(" / ") || variant.sku,
        price: variant.price,
        available: availableUnits(variant),
      }));
    return {
      ...productFacts(row, own),
      variants: lines.map(({ label, available }) => ({ label, available })),
      lowStock: lines
        .filter((line) => stockBadge(line.available, row.lowStockThreshold) !== null)
        .map(({ label, available }) => ({ label, available })),
      fromPrice: lines.length > 0 ? Math.min(...lines.map((line) => line.price)) : null,
    };
  });
}

export type AdminVariant = {
  id: string;
  sku: string;
  options: string[];
  price: number;
  /** What members pay; null: the same as everyone. */
  memberPrice: number | null;
  /** What members of a tier pay, by tier id, over `memberPrice`. */
  tierPrices: Record<string, number>;
  stock: number;
  held: number;
  maxPerOrder: number;
  active: boolean;
  /** Sold at least once: it can only be deactivated, never deleted. */
  hasOrders: boolean;
  history: { id: string; delta: number; stockAfter: number; reason: string; actor: string | null; createdAt: Date }[];
};

/** The editor's product: its fields, variants with held units and order use, and stock history. */
export async function getProductForAdmin(db: Db, productId: string, now: Date) {
  const [product] = await db.select().from(products).where(eq(products.id, productId));
  if (!product) return null;
  const variants = await db
    .select()
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.position), asc(productVariants.sku));
  const ids = variants.map((variant) => variant.id);
  const held = await heldByVariant(db, variants, now);
  const used =
    ids.length === 0
      ? []
      : await db
          .selectDistinct({ variantId: orderItems.variantId })
          .from(orderItems)
          .where(inArray(orderItems.variantId, ids));
  const usedSet = new Set(used.map((row) => row.variantId));
  const history =
    ids.length === 0
      ? []
      : await db
          .select({
            id: stockAdjustments.id,
            variantId: stockAdjustments.variantId,
            delta: stockAdjustments.delta,
            stockAfter: stockAdjustments.stockAfter,
            reason: stockAdjustments.reason,
            actor: users.name,
            createdAt: stockAdjustments.createdAt,
          })
          .from(stockAdjustments)
          .leftJoin(users, eq(users.id, stockAdjustments.actorId))
          .where(inArray(stockAdjustments.variantId, ids))
          .orderBy(desc(stockAdjustments.createdAt), desc(stockAdjustments.id))
          .limit(200);
  const adminVariants: AdminVariant[] = variants.map((variant) => ({
    id: variant.id,
    sku: variant.sku,
    options: variant.options,
    price: variant.price,
    memberPrice: variant.memberPrice,
    tierPrices: variant.tierPrices,
    stock: variant.stock,
    held: held.get(variant.id) ?? 0,
    maxPerOrder: variant.maxPerOrder,
    active: variant.active,
    hasOrders: usedSet.has(variant.id),
    history: history
      .filter((row) => row.variantId === variant.id)
      .slice(0, 10)
      .map(({ variantId: _, ...row }) => row),
  }));
  return { product, variants: adminVariants };
}

/** What the top of a product's editor pages shows. */
export function productHeader({ product, variants }: NonNullable<Awaited<ReturnType<typeof getProductForAdmin>>>) {
  return productFacts(product, variants);
}

async function slugTaken(db: Db, slug: string, exceptId?: string) {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(exceptId ? and(eq(products.slug, slug), ne(products.id, exceptId)) : eq(products.slug, slug));
  return Boolean(row);
}

/** A free address from the title: "club-tee", then "club-tee-2"… */
async function freeSlug(db: Db, base: string) {
  for (let n = 1; n < 100; n++) {
    const slug = numberedSlug(base, n, LIMITS.slug);
    if (!(await slugTaken(db, slug))) return slug;
  }
  return `${base.slice(0, 70)}-${crypto.randomUUID().slice(0, 8)}`;
}

function productValues(input: ProductInput) {
  return {
    title: input.title,
    category: input.category,
    status: input.status,
    summary: input.summary,
    description: input.description,
    sizeGuide: input.sizeGuide,
    optionNames: input.optionNames,
    lowStockThreshold: input.lowStockThreshold,
  };
}

/**
 * A new product. It needs a variant before it can go on sale, so a new product with options is
 * saved as a draft whatever was chosen; one without options gets its single variant later too.
 */
export async function createProduct(
  db: Db,
  input: { actorId: string; values: ProductInput; slugFromTitle: string; now: Date },
): Promise<Outcome<{ id: string }>> {
  const { values } = input;
  if (values.slug && (await slugTaken(db, values.slug))) {
    return refuse("slug", "Another product has this address: choose another");
  }
  return db.transaction(async (tx) => {
    const slug = values.slug || (await freeSlug(tx, input.slugFromTitle));
    const [{ position } = { position: 0 }] = await tx
      .select({ position: sql<number>`coalesce(max(${products.position}), -1)::int + 1` })
      .from(products);
    const [row] = await tx
      .insert(products)
      .values({
        ...productValues(values),
        // Nothing can be bought until it has a variant: it starts as a draft.
        status: "draft",
        slug,
        position,
        createdBy: input.actorId,
        createdAt: input.now,
        updatedAt: input.now,
      })
      .returning({ id: products.id });
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "product.create",
      subjectType: "product",
      subjectId: row!.id,
      details: { title: values.title, slug },
    });
    return { ok: true as const, id: row!.id };
  });
}

/**
 * Saves the editor's fields. Going on sale needs at least one variant on sale; option names can
 * only change in number while the product has no variants (each variant has one value per name).
 */
export async function updateProduct(
  db: Db,
  input: { actorId: string; productId: string; values: ProductInput; now: Date },
): Promise<Outcome> {
  const { values } = input;
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ slug: products.slug, optionNames: products.optionNames, status: products.status })
      .from(products)
      .where(eq(products.id, input.productId))
      .for("update");
    if (!current) return refuse("", "This product no longer exists");
    const slug = values.slug || current.slug;
    if (slug !== current.slug && (await slugTaken(tx, slug, input.productId))) {
      return refuse("slug", "Another product has this address: choose another");
    }
    const [{ variants, onSale } = { variants: 0, onSale: 0 }] = await tx
      .select({
        variants: count(),
        onSale: sql<number>`count(*) filter (where ${productVariants.active})::int`,
      })
      .from(productVariants)
      .where(eq(productVariants.productId, input.productId));
    if (Number(variants) > 0 && values.optionNames.length !== current.optionNames.length) {
      const keep =
        current.optionNames.length === 0 ? "no options" : countOf(current.optionNames.length, "option", "options");
      return refuse("optionNames", `Keep ${keep} while the product has variants; you can rename them`);
    }
    if (values.status === "active" && Number(onSale) === 0) {
      return refuse("status", "Add a variant on sale before putting the product on sale");
    }
    await tx
      .update(products)
      .set({ ...productValues(values), slug, updatedAt: input.now })
      .where(eq(products.id, input.productId));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: current.status !== values.status ? `product.${values.status}` : "product.update",
      subjectType: "product",
      subjectId: input.productId,
      details: { title: values.title, slug, status: values.status },
    });
    return { ok: true as const };
  });
}
