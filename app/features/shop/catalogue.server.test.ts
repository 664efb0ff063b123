import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createBuyers, NOW } from "~/features/checkout/stock.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { holds, orders, products } from "../../../db/schema";
import { getProductPage, listProducts, SHOP_PAGE_SIZE, sitemapProducts } from "./catalogue.server";
import { productJsonLd } from "./json-ld";
import { createTestProduct } from "./products.test-support";

const database = freshDatabasePerFile();

async function hold(variantId: string, quantity: number) {
  const { db } = database();
  const [buyer] = await createBuyers(db, 1);
  const [order] = await db
    .insert(orders)
    .values({ userId: buyer!.id, email: buyer!.email, currency: "GBP", subtotal: 0, total: 0, provider: "test" })
    .returning({ id: orders.id });
  await db.insert(holds).values({
    orderId: order!.id,
    kind: "merch",
    variantId,
    quantity,
    expiresAt: new Date(NOW.getTime() + 60_000),
  });
}

describe("the shop's catalogue", () => {
  it("lists products on sale in staff's order with the lowest price and a stock badge counting holds", async () => {
    const { db } = database();
    const tee = await createTestProduct(db, {
      title: "Tee",
      position: 1,
      optionNames: ["Size"],
      variants: [
        { options: ["S"], price: 2400, stock: 10 },
        { options: ["M"], price: 2200, stock: 10 },
        { options: ["XL"], price: 1000, stock: 10, active: false },
      ],
    });
    const model = await createTestProduct(db, {
      title: "Model",
      category: "models",
      position: 2,
      lowStockThreshold: 5,
      variants: [{ price: 3499, stock: 7 }],
    });
    const gone = await createTestProduct(db, { title: "Gone", position: 3, variants: [{ price: 500, stock: 0 }] });
    await createTestProduct(db, { title: "Draft", status: "draft", position: 0 });
    await createTestProduct(db, { title: "Archived", status: "archived", position: 0 });
    await hold(model.variantIds[0]!, 2);

    const page = await listProducts(db, { now: NOW });
    expect(page.products.map((product) => [product.title, product.fromPrice, product.onePrice, product.badge])).toEqual(
      [
        ["Tee", 2200, false, null],
        ["Model", 3499, true, "Few left"],
        ["Gone", 500, true, "Sold out"],
      ],
    );
    expect(page.products[0]!.id).toBe(tee.id);
    expect(page.products[2]!.id).toBe(gone.id);
    expect(page.allCount).toBe(3);
    expect(page.categories.find((row) => row.value === "models")!.count).toBe(1);

    const models = await listProducts(db, { category: "models", now: NOW });
    expect(models.products.map((product) => product.title)).toEqual(["Model"]);
    expect(models.total).toBe(1);
    // Once the hold has expired, its units are back and the badge goes.
    const later = await listProducts(db, { category: "models", now: new Date(NOW.getTime() + 120_000) });
    expect(later.products[0]!.badge).toBeNull();
    expect(await sitemapProducts(db)).toHaveLength(3);
  });

  it("pages by 24, and any page number out of range shows the nearest page", async () => {
    const { db } = database();
    for (let i = 0; i < SHOP_PAGE_SIZE + 2; i++) {
      await createTestProduct(db, {
        title: `Sticker ${String(i).padStart(2, "0")}`,
        category: "stickers",
        position: i,
      });
    }
    const first = await listProducts(db, { category: "stickers", now: NOW });
    expect(first).toMatchObject({ page: 1, pageCount: 2, total: SHOP_PAGE_SIZE + 2 });
    expect(first.products).toHaveLength(SHOP_PAGE_SIZE);
    const second = await listProducts(db, { category: "stickers", page: 2, now: NOW });
    expect(second.products.map((product) => product.title)).toEqual(["Sticker 24", "Sticker 25"]);
    expect((await listProducts(db, { category: "stickers", page: 99, now: NOW })).page).toBe(2);
    expect((await listProducts(db, { category: "stickers", page: Number.NaN, now: NOW })).page).toBe(1);
  });

  it("gives a product page its variants on sale, option values, badges and escaped Markdown", async () => {
    const { db } = database();
    const tee = await createTestProduct(db, {
      title: "Page tee",
      slug: "page-tee",
      optionNames: ["Size", "Colour"],
      lowStockThreshold: 3,
      variants: [
        { options: ["S", "Black"], stock: 10 },
        { options: ["S", "White"], stock: 2 },
        { options: ["M", "Black"], stock: 0 },
        { options: ["M", "Red"], stock: 5, active: false },
      ],
    });
    await db
      .update(products)
      .set({ description: "**Soft** <script>alert(1)</script>", sizeGuide: "| S | M |\n| - | - |\n| 1 | 2 |" })
      .where(eq(products.id, tee.id));

    const page = await getProductPage(db, "page-tee", { staff: false, now: NOW });
    expect(page!.optionValues).toEqual([
      ["S", "M"],
      ["Black", "White"],
    ]);
    expect(page!.variants.map((variant) => [variant.options.join("/"), variant.available, variant.badge])).toEqual([
      ["S/Black", 10, null],
      ["S/White", 2, "Few left"],
      ["M/Black", 0, "Sold out"],
    ]);
    expect(page!.descriptionHtml).toContain("<strong>Soft</strong>");
    expect(page!.descriptionHtml).not.toContain("<script>");
    expect(page!.sizeGuideHtml).toContain("<table>");

    const jsonLd = productJsonLd(page!, { name: "Pitlane", url: "https://club.example", currency: "GBP" }, []);
    expect(jsonLd.offers.map((offer) => [offer.price, offer.availability])).toEqual([
      ["20.00", "https://schema.org/InStock"],
      ["20.00", "https://schema.org/LimitedAvailability"],
      ["20.00", "https://schema.org/OutOfStock"],
    ]);
    expect(jsonLd.offers[0]).toMatchObject({ priceCurrency: "GBP", sku: tee.skus[0] });

    await createTestProduct(db, { title: "Hidden", slug: "hidden", status: "draft" });
    expect(await getProductPage(db, "hidden", { staff: false, now: NOW })).toBeNull();
    expect((await getProductPage(db, "hidden", { staff: true, now: NOW }))?.status).toBe("draft");
    expect(await getProductPage(db, "x".repeat(300), { staff: true, now: NOW })).toBeNull();
  });
});
