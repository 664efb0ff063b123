import { parseWithZod } from "@conform-to/zod/v4";
import { and, asc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { createBuyers, NOW } from "~/features/checkout/stock.test-support";
import type { Db } from "~/server/db/client.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import * as schema from "../../../db/schema";
import {
  auditLog,
  holds,
  orderItems,
  orders,
  products,
  productVariants,
  shopSettings,
  stockAdjustments,
} from "../../../db/schema";
import { createProduct, getProductForAdmin, listProductsForAdmin, updateProduct } from "./admin.server";
import { createTestProduct } from "./products.test-support";
import { productSchema, shopSettingsSchema, stockSchema, variantSchema } from "./schemas";
import { saveShopSettings } from "./shop-settings.server";
import { adjustStock } from "./stock-adjustments.server";
import { addVariant, deleteVariant, updateVariant } from "./variants.server";

const database = freshDatabasePerFile();

async function staff() {
  const [actor] = await createBuyers(database().db, 1);
  return actor!.id;
}

/** A form as the browser sends it, read by its schema as the server reads it. */
function submit<Schema extends z.ZodType>(schema: Schema, fields: Record<string, string>) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.append(name, value);
  return parseWithZod(formData, { schema });
}

function valuesOf<Schema extends z.ZodType>(schema: Schema, fields: Record<string, string>): z.output<Schema> {
  const submission = submit(schema, fields);
  if (submission.status !== "success") throw new Error(JSON.stringify(submission.error));
  return submission.value;
}

const stock = (mode: "set" | "add", amount: number, reason = "Stock count") =>
  valuesOf(stockSchema, { mode, amount: String(amount), reason });

async function stockOf(db: Db, variantId: string) {
  const [row] = await db
    .select({ stock: productVariants.stock })
    .from(productVariants)
    .where(eq(productVariants.id, variantId));
  return row!.stock;
}

describe("stock adjustments", () => {
  it("sets or adds stock with a reason, recorded in the history and the audit log", async () => {
    const { db } = database();
    const actorId = await staff();
    const mug = await createTestProduct(db, { title: "Mug", variants: [{ stock: 4 }] });
    const variantId = mug.variantIds[0]!;
    const base = { actorId, productId: mug.id, variantId, now: NOW };

    expect(await adjustStock(db, { ...base, values: stock("add", 10, "Delivery from the printer") })).toEqual({
      ok: true,
      stock: 14,
      delta: 10,
    });
    const later = new Date(NOW.getTime() + 60_000);
    expect(await adjustStock(db, { ...base, now: later, values: stock("set", 9, "Shelf count") })).toEqual({
      ok: true,
      stock: 9,
      delta: -5,
    });
    expect(await stockOf(db, variantId)).toBe(9);

    const history = await db
      .select({ delta: stockAdjustments.delta, after: stockAdjustments.stockAfter, reason: stockAdjustments.reason })
      .from(stockAdjustments)
      .where(eq(stockAdjustments.variantId, variantId))
      .orderBy(asc(stockAdjustments.stockAfter));
    expect(history).toEqual([
      { delta: -5, after: 9, reason: "Shelf count" },
      { delta: 10, after: 14, reason: "Delivery from the printer" },
    ]);
    const audited = await db
      .select({ action: auditLog.action, details: auditLog.details, actorId: auditLog.actorId })
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, variantId), eq(auditLog.action, "product.stock.adjust")));
    expect(audited).toHaveLength(2);
    expect(audited.every((row) => row.actorId === actorId)).toBe(true);
    expect(audited.map((row) => row.details)).toContainEqual(
      expect.objectContaining({ before: 14, after: 9, delta: -5, reason: "Shelf count" }),
    );

    const editor = await getProductForAdmin(db, mug.id, NOW);
    expect(editor!.variants[0]!.history.map((row) => row.reason)).toEqual(["Shelf count", "Delivery from the printer"]);
  });

  it("never goes below zero, and says how much can be taken away", async () => {
    const { db } = database();
    const actorId = await staff();
    const cap = await createTestProduct(db, { title: "Cap", variants: [{ stock: 3 }] });
    const base = { actorId, productId: cap.id, variantId: cap.variantIds[0]!, now: NOW };
    expect(await adjustStock(db, { ...base, values: stock("add", -4) })).toEqual({
      ok: false,
      field: "amount",
      message: "Only 3 on the shelf: you can take away at most 3",
    });
    expect(await adjustStock(db, { ...base, values: stock("set", -1) })).toEqual({
      ok: false,
      field: "amount",
      message: "Stock cannot be below zero",
    });
    expect(await adjustStock(db, { ...base, values: stock("set", 3) })).toEqual({
      ok: false,
      field: "amount",
      message: "The stock is already 3",
    });
    // A variant of another product, named from this product's page, is not found.
    const other = await createTestProduct(db, { title: "Other" });
    expect(await adjustStock(db, { ...base, variantId: other.variantIds[0]!, values: stock("add", 1) })).toMatchObject({
      ok: false,
      field: "",
      message: "This variant no longer exists",
    });
    expect(await stockOf(db, cap.variantIds[0]!)).toBe(3);
    expect(await db.select().from(stockAdjustments).where(eq(stockAdjustments.variantId, cap.variantIds[0]!))).toEqual(
      [],
    );
  });

  it("reads the forms' words for a bad amount or a missing reason", () => {
    expect(submit(stockSchema, { mode: "add", amount: "1.5", reason: "" }).reply().error).toEqual({
      amount: ["Enter the amount as a whole number"],
      reason: ["Enter a reason"],
    });
  });
});

describe("products and variants", () => {
  it("creates a draft, refuses to put it on sale without a variant, then sells it once it has one", async () => {
    const { db } = database();
    const actorId = await staff();
    const values = valuesOf(productSchema, {
      title: "Rain jacket",
      slug: "",
      category: "apparel",
      status: "active",
      summary: "",
      description: "",
      sizeGuide: "",
      optionNames: "Size, Colour",
      lowStockThreshold: "3",
    });
    const created = await createProduct(db, { actorId, values, slugFromTitle: "rain-jacket", now: NOW });
    expect(created.ok).toBe(true);
    const productId = (created as { id: string }).id;
    const [row] = await db.select().from(products).where(eq(products.id, productId));
    expect(row).toMatchObject({ slug: "rain-jacket", status: "draft", optionNames: ["Size", "Colour"] });

    // The same title again gets the next free address.
    const again = await createProduct(db, { actorId, values, slugFromTitle: "rain-jacket", now: NOW });
    const [second] = await db
      .select({ slug: products.slug })
      .from(products)
      .where(eq(products.id, (again as { id: string }).id));
    expect(second!.slug).toBe("rain-jacket-2");

    expect(await updateProduct(db, { actorId, productId, values, now: NOW })).toEqual({
      ok: false,
      field: "status",
      message: "Add a variant on sale before putting the product on sale",
    });
    const variant = valuesOf(variantSchema({ optionNames: ["Size", "Colour"], currency: "GBP" }), {
      "options[0]": "M",
      "options[1]": "Navy",
      sku: "JKT-M-NVY",
      price: "89.00",
      maxPerOrder: "2",
      active: "on",
    });
    const added = await addVariant(db, { actorId, productId, values: variant, now: NOW });
    expect(added.ok).toBe(true);
    expect(await addVariant(db, { actorId, productId, values: variant, now: NOW })).toEqual({
      ok: false,
      field: "sku",
      message: "Another variant has this SKU",
    });
    expect(await addVariant(db, { actorId, productId, values: { ...variant, sku: "JKT-OTHER" }, now: NOW })).toEqual({
      ok: false,
      field: "options",
      message: "This product already has a variant with these options",
    });
    // The options changed since the form was shown: a value is missing for one of them.
    expect(
      await addVariant(db, { actorId, productId, values: { ...variant, options: ["M"], sku: "JKT-X" }, now: NOW }),
    ).toEqual({ ok: false, field: "options[1]", message: "Enter the colour" });

    expect(await updateProduct(db, { actorId, productId, values, now: NOW })).toEqual({ ok: true });
    // Variants have two values each: the number of options cannot change now.
    expect(
      await updateProduct(db, { actorId, productId, values: { ...values, optionNames: ["Size"] }, now: NOW }),
    ).toMatchObject({ ok: false, field: "optionNames", message: expect.stringContaining("Keep 2 options") });

    const [saved] = await db.select().from(productVariants).where(eq(productVariants.productId, productId));
    expect(saved).toMatchObject({ price: 8900, stock: 0, maxPerOrder: 2, active: true });
    const actions = await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.actorId, actorId));
    expect(actions.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(["product.create", "product.variant.create", "product.active"]),
    );
  });

  it("deletes a variant never sold, but one on an order can only be taken off sale", async () => {
    const { db } = database();
    const actorId = await staff();
    const [buyer] = await createBuyers(db, 1);
    const tee = await createTestProduct(db, {
      title: "Tee",
      optionNames: ["Size"],
      variants: [{ options: ["S"] }, { options: ["M"] }],
    });
    const [sold, unsold] = tee.variantIds as [string, string];
    const [order] = await db
      .insert(orders)
      .values({
        userId: buyer!.id,
        email: buyer!.email,
        currency: "GBP",
        subtotal: 2000,
        total: 2000,
        provider: "test",
      })
      .returning({ id: orders.id });
    await db.insert(orderItems).values({
      orderId: order!.id,
      kind: "merch",
      variantId: sold,
      description: "Tee — S",
      unitPrice: 2000,
      quantity: 1,
    } as typeof orderItems.$inferInsert);

    expect(await deleteVariant(db, { actorId, productId: tee.id, variantId: sold })).toEqual({
      ok: false,
      field: "",
      message: `${tee.skus[0]} is on orders, so it cannot be deleted: take it off sale instead`,
    });
    // "On sale" left unticked.
    const off = valuesOf(variantSchema({ optionNames: ["Size"], currency: "GBP" }), {
      "options[0]": "S",
      sku: tee.skus[0]!,
      price: "20",
      maxPerOrder: "10",
    });
    expect(await updateVariant(db, { actorId, productId: tee.id, variantId: sold, values: off, now: NOW })).toEqual({
      ok: true,
    });
    expect(await deleteVariant(db, { actorId, productId: tee.id, variantId: unsold })).toEqual({ ok: true });
    const left = await db.select().from(productVariants).where(eq(productVariants.productId, tee.id));
    expect(left).toEqual([expect.objectContaining({ id: sold, active: false })]);
    const editor = await getProductForAdmin(db, tee.id, NOW);
    expect(editor!.variants[0]!.hasOrders).toBe(true);
  });

  it("lists products with stock less holds and highlights variants at or below the threshold", async () => {
    const { db } = database();
    const [buyer] = await createBuyers(db, 1);
    const hoodie = await createTestProduct(db, {
      title: "Listed hoodie",
      optionNames: ["Size"],
      lowStockThreshold: 2,
      variants: [
        { options: ["S"], stock: 10, price: 4000 },
        { options: ["M"], stock: 3, price: 4200 },
      ],
    });
    const [order] = await db
      .insert(orders)
      .values({ userId: buyer!.id, email: buyer!.email, currency: "GBP", subtotal: 0, total: 0, provider: "test" })
      .returning({ id: orders.id });
    await db.insert(holds).values({
      orderId: order!.id,
      kind: "merch",
      variantId: hoodie.variantIds[1]!,
      quantity: 2,
      expiresAt: new Date(NOW.getTime() + 60_000),
    });
    const rows = await listProductsForAdmin(db, NOW);
    const row = rows.find((product) => product.id === hoodie.id)!;
    expect(row).toMatchObject({
      stock: 13,
      available: 11,
      fromPrice: 4000,
      variantCount: 2,
      variants: [
        { label: "S", available: 10 },
        { label: "M", available: 1 },
      ],
      lowStock: [{ label: "M", available: 1 }],
    });
  });
});

describe("shop settings", () => {
  it("saves the delivery fee, the free threshold (blank is never), collection and countries, audited", async () => {
    const { db } = database();
    const actorId = await staff();
    const settings = shopSettingsSchema({ currency: "GBP" });
    const values = valuesOf(settings, { flatFee: "3.50", freeOver: "", countries: "gb, ie ie" });
    expect(values).toEqual({ flatFee: 350, freeOver: null, collectionEnabled: false, countries: ["GB", "IE"] });
    await saveShopSettings(db, { actorId, values, now: NOW });
    const [row] = await db.select().from(shopSettings);
    expect(row).toMatchObject({ flatFee: 350, freeOver: null, collectionEnabled: false, countries: ["GB", "IE"] });
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "shop.settings.update"));
    expect(entry!.details).toMatchObject({ before: { flatFee: 495, freeOver: 5000 }, after: { flatFee: 350 } });

    const bad = submit(settings, { flatFee: "-1", freeOver: "lots", collectionEnabled: "on", countries: "" });
    expect(Object.keys(bad.reply().error ?? {})).toEqual(["flatFee", "freeOver", "countries"]);
  });
});

/**
 * Adjustments from two members of staff at once. PGlite runs one transaction at a time, so only
 * PostgreSQL can show a race: this runs when DATABASE_URL is set.
 */
describe.skipIf(!process.env.DATABASE_URL)("stock adjustments at once (PostgreSQL only)", () => {
  let pool: pg.Pool | undefined;
  afterAll(async () => {
    await pool?.end();
  });

  it("keeps the sum right: every adjustment is applied to the count the previous one left", async () => {
    pool = new pg.Pool({ connectionString: database().url, max: 10 });
    const db = drizzle(pool, { schema }) as unknown as Db;
    const actorId = await staff();
    // The changes take their lock in no set order: the stock starts high enough that every order
    // of them stays at or above zero (the takings-away come to 39), so each must be accepted.
    const start = 40;
    const box = await createTestProduct(database().db, { title: "Box", variants: [{ stock: start }] });
    const base = { actorId, productId: box.id, variantId: box.variantIds[0]!, now: NOW };
    const deltas = [5, -3, 7, -10, 4, -2, 6, -8, 3, -1, 9, -4, 2, -6, 1, -5];
    expect(start + deltas.filter((delta) => delta < 0).reduce((sum, delta) => sum + delta, 0)).toBeGreaterThanOrEqual(
      0,
    );
    const results = await Promise.all(
      deltas.map((delta) => adjustStock(db, { ...base, values: stock("add", delta, `Change ${delta}`) })),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    const expected = start + deltas.reduce((sum, delta) => sum + delta, 0);
    expect(await stockOf(database().db, box.variantIds[0]!)).toBe(expected);
    // The history is a chain: each row's count is the one before plus its change.
    const history = await database()
      .db.select({ delta: stockAdjustments.delta, after: stockAdjustments.stockAfter })
      .from(stockAdjustments)
      .where(eq(stockAdjustments.variantId, box.variantIds[0]!));
    expect(history).toHaveLength(deltas.length);
    // Serialised on the variant's lock, the counts before each change are the start and every
    // count left by another change but the last: no two changes read the same count.
    const before = history.map((row) => row.after - row.delta).sort((a, b) => a - b);
    const left = history.map((row) => row.after);
    left.splice(left.indexOf(expected), 1);
    expect(before).toEqual([start, ...left].sort((a, b) => a - b));

    // Many taking away at once can never go below zero: some are refused instead.
    const takes = await Promise.all(
      Array.from({ length: 12 }, () => adjustStock(db, { ...base, values: stock("add", -5, "Damaged") })),
    );
    const accepted = takes.filter((take) => take.ok).length;
    expect(accepted).toBe(Math.floor(expected / 5));
    expect(await stockOf(database().db, box.variantIds[0]!)).toBe(expected - accepted * 5);
  });
});
