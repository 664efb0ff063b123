import { and, asc, count, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { recordAudit } from "~/features/admin/audit.server";
import type { Db } from "~/server/db/client.server";
import type { Storage } from "~/server/storage/storage.server";
import {
  holds,
  orderItems,
  type ProductImage,
  products,
  productVariants,
  shopSettings,
  stockAdjustments,
  users,
} from "../../../db/schema";
import type { FieldErrors, ProductInput, SettingsInput, StockInput, VariantInput } from "./admin-forms";
import { stockBadge } from "./merch-rules";
import { PRODUCT_IMAGES_MAX, prepareProductImage, storeProductImage } from "./product-images.server";
import { availableUnits, heldByVariant, readVariantStock } from "./stock.server";

/**
 * Staff's side of the shop (docs/shop.md): the product list, the editor, variants, photos,
 * stock adjustments and the delivery settings. Every change is written to the audit log in the
 * transaction that makes it. Stock is only ever changed under the variant's lock, the same lock
 * checkout and settlement take, so an adjustment and a sale never both read the same count.
 */

export type Outcome<T = unknown> = ({ ok: true } & T) | { ok: false; errors: FieldErrors };

const refuse = (errors: FieldErrors) => ({ ok: false as const, errors });

export type AdminProductRow = {
  id: string;
  slug: string;
  title: string;
  category: string;
  status: "draft" | "active" | "archived";
  image: ProductImage | null;
  variantCount: number;
  stock: number;
  available: number;
  /** Variants on sale at or below the product's low-stock threshold (sold out included). */
  lowStock: { label: string; available: number }[];
  fromPrice: number | null;
};

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
  const held = await heldByVariant(
    db,
    variants.map((variant) => variant.id),
    now,
  );
  return rows.map((row) => {
    const own = variants.filter((variant) => variant.productId === row.id);
    const onSale = own.filter((variant) => variant.active);
    const lines = onSale.map((variant) => ({
      label: variant.options.join(" / ") || variant.sku,
      stock: variant.stock,
      price: variant.price,
      available: availableUnits({ stock: variant.stock, held: held.get(variant.id) ?? 0 }),
    }));
    return {
      id: row.id,
      slug: row.slug,
      title: row.title,
      category: row.category,
      status: row.status,
      image: row.images[0] ?? null,
      variantCount: own.length,
      stock: lines.reduce((sum, line) => sum + line.stock, 0),
      available: lines.reduce((sum, line) => sum + line.available, 0),
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
  const held = await heldByVariant(db, ids, now);
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
    const slug = n === 1 ? base : `${base.slice(0, 75)}-${n}`;
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
    return refuse({ slug: "Another product has this address: choose another" });
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
    if (!current) return refuse({ form: "This product no longer exists" });
    const slug = values.slug || current.slug;
    if (slug !== current.slug && (await slugTaken(tx, slug, input.productId))) {
      return refuse({ slug: "Another product has this address: choose another" });
    }
    const [{ variants, onSale } = { variants: 0, onSale: 0 }] = await tx
      .select({
        variants: count(),
        onSale: sql<number>`count(*) filter (where ${productVariants.active})::int`,
      })
      .from(productVariants)
      .where(eq(productVariants.productId, input.productId));
    if (Number(variants) > 0 && values.optionNames.length !== current.optionNames.length) {
      return refuse({
        optionNames: `Keep ${current.optionNames.length === 0 ? "no options" : `${current.optionNames.length} option${current.optionNames.length === 1 ? "" : "s"}`} while the product has variants; you can rename them`,
      });
    }
    if (values.status === "active" && Number(onSale) === 0) {
      return refuse({ status: "Add a variant on sale before putting the product on sale" });
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

function variantRefusal(error: unknown): FieldErrors | null {
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

function optionsProblem(names: string[], values: string[]): FieldErrors | null {
  const errors: FieldErrors = {};
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
    if (!line || line.productId !== input.productId) return refuse({ form: "This variant no longer exists" });
    const after = mode === "set" ? amount : line.stock + amount;
    if (after < 0) {
      return refuse({
        amount:
          mode === "set"
            ? "Stock cannot be below zero"
            : `Only ${line.stock} on the shelf: you can take away at most ${line.stock}`,
      });
    }
    const delta = after - line.stock;
    if (delta === 0) return refuse({ amount: `The stock is already ${line.stock}` });
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

async function lockedImages(db: Db, productId: string) {
  const [row] = await db
    .select({ images: products.images })
    .from(products)
    .where(eq(products.id, productId))
    .for("update");
  return row?.images ?? null;
}

async function saveImages(
  db: Db,
  input: { actorId: string; productId: string; images: ProductImage[]; action: string; details: object },
) {
  await db
    .update(products)
    .set({ images: input.images, updatedAt: new Date() })
    .where(eq(products.id, input.productId));
  await recordAudit(db, {
    actorId: input.actorId,
    action: input.action,
    subjectType: "product",
    subjectId: input.productId,
    details: { ...input.details },
  });
}

/** Adds an uploaded photo through the media pipeline (4:5, every width, no metadata). */
export async function addProductImage(
  db: Db,
  storage: Storage,
  input: { actorId: string; productId: string; bytes: Uint8Array; alt: string },
): Promise<Outcome> {
  const [current] = await db.select({ images: products.images }).from(products).where(eq(products.id, input.productId));
  if (!current) return refuse({ form: "This product no longer exists" });
  if (current.images.length >= PRODUCT_IMAGES_MAX) {
    return refuse({ image: `A product can have up to ${PRODUCT_IMAGES_MAX} photos: remove one first` });
  }
  const prepared = await prepareProductImage(input.bytes);
  if (!prepared.ok) return refuse({ image: prepared.message });
  const stored = await storeProductImage(storage, prepared);
  return db.transaction(async (tx) => {
    const images = await lockedImages(tx, input.productId);
    if (!images) return refuse({ form: "This product no longer exists" });
    if (images.some((image) => image.hash === stored.hash)) return refuse({ image: "This photo is already there" });
    if (images.length >= PRODUCT_IMAGES_MAX) {
      return refuse({ image: `A product can have up to ${PRODUCT_IMAGES_MAX} photos: remove one first` });
    }
    await saveImages(tx, {
      actorId: input.actorId,
      productId: input.productId,
      images: [...images, { ...stored, alt: input.alt }],
      action: "product.image.add",
      details: { hash: stored.hash },
    });
    return { ok: true as const };
  });
}

/** Describes, moves or removes one photo (files stay: content-addressed, they may be shared). */
export async function changeProductImage(
  db: Db,
  input: { actorId: string; productId: string; hash: string } & (
    | { change: "describe"; alt: string }
    | { change: "up" | "down" | "remove" }
  ),
): Promise<Outcome> {
  return db.transaction(async (tx) => {
    const images = await lockedImages(tx, input.productId);
    if (!images) return refuse({ form: "This product no longer exists" });
    const index = images.findIndex((image) => image.hash === input.hash);
    if (index < 0) return refuse({ form: "That photo is no longer on this product" });
    const next = [...images];
    if (input.change === "describe") next[index] = { ...next[index]!, alt: input.alt };
    else if (input.change === "remove") next.splice(index, 1);
    else {
      const to = index + (input.change === "up" ? -1 : 1);
      if (to < 0 || to >= next.length) return { ok: true as const };
      [next[index], next[to]] = [next[to]!, next[index]!];
    }
    await saveImages(tx, {
      actorId: input.actorId,
      productId: input.productId,
      images: next,
      action: `product.image.${input.change}`,
      details: { hash: input.hash },
    });
    return { ok: true as const };
  });
}

export async function getShopSettings(db: Db) {
  const [row] = await db.select().from(shopSettings).where(eq(shopSettings.id, 1));
  return (
    row ?? { id: 1, flatFee: 495, freeOver: 5000, collectionEnabled: true, countries: ["GB"], updatedAt: new Date() }
  );
}

/** Saves delivery settings, audited with what they were before. */
export async function saveShopSettings(db: Db, input: { actorId: string; values: SettingsInput; now: Date }) {
  await db.transaction(async (tx) => {
    const before = await getShopSettings(tx);
    await tx
      .insert(shopSettings)
      .values({ id: 1, ...input.values, updatedAt: input.now })
      .onConflictDoUpdate({ target: shopSettings.id, set: { ...input.values, updatedAt: input.now } });
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "shop.settings.update",
      subjectType: "shop_settings",
      subjectId: "1",
      details: {
        before: {
          flatFee: before.flatFee,
          freeOver: before.freeOver,
          collectionEnabled: before.collectionEnabled,
          countries: before.countries,
        },
        after: input.values,
      },
    });
  });
}
