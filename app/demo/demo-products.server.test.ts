import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { asc } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { stockBadge } from "~/features/shop/merch-rules";
import { PRODUCT_IMAGE_WIDTHS, productImageKey } from "~/features/shop/product-image-urls";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { runSeeders } from "~/server/seed.server";
import { localStorage } from "~/server/storage/storage.server";
import { products, productVariants } from "../../db/schema";
import { demoProductsSeeder } from "./demo-products.server";

const database = freshDatabasePerFile();
const storage = localStorage(mkdtempSync(path.join(tmpdir(), "pitlane-demo-products-")));

type Seeded = typeof products.$inferSelect & { variants: (typeof productVariants.$inferSelect)[] };
let seeded: Seeded[] = [];

beforeAll(async () => {
  const { db } = database();
  await runSeeders(db, [demoProductsSeeder], { demo: true, storage });
  // Running again does nothing: the seeder is claimed once.
  await runSeeders(db, [demoProductsSeeder], { demo: true, storage });
  const rows = await db.select().from(products).orderBy(asc(products.position));
  const variants = await db.select().from(productVariants).orderBy(asc(productVariants.position));
  seeded = rows.map((row) => ({ ...row, variants: variants.filter((variant) => variant.productId === row.id) }));
});

const bySlug = (slug: string) => {
  const product = seeded.find((row) => row.slug === slug);
  if (!product) throw new Error(`No demo product ${slug}`);
  return product;
};

describe("demo products", () => {
  it("fills every category with about a dozen products on sale, and one draft", () => {
    const active = seeded.filter((product) => product.status === "active");
    expect(active.length).toBeGreaterThanOrEqual(12);
    expect(new Set(active.map((product) => product.category))).toEqual(
      new Set(["apparel", "stickers", "models", "accessories"]),
    );
    expect(seeded.filter((product) => product.status === "draft")).toHaveLength(1);
    for (const product of seeded) {
      expect(product.variants.length, product.slug).toBeGreaterThan(0);
      expect(product.images.length, product.slug).toBeGreaterThan(0);
      for (const image of product.images) expect(image.alt, product.slug).not.toBe("");
      for (const variant of product.variants) {
        expect(variant.options, variant.sku).toHaveLength(product.optionNames.length);
        expect(variant.price, variant.sku).toBeGreaterThan(0);
      }
    }
  });

  it("has the club tee in five sizes and two colours, a sticker pack, a sold-out hoodie and a few-left product", () => {
    const tee = bySlug("club-tee");
    expect(tee.optionNames).toEqual(["Size", "Colour"]);
    expect(new Set(tee.variants.map((variant) => variant.options[0]))).toEqual(new Set(["S", "M", "L", "XL", "XXL"]));
    expect(new Set(tee.variants.map((variant) => variant.options[1]))).toEqual(new Set(["Black", "White"]));
    expect(tee.variants.find((v) => v.options.join() === "XXL,White")?.stock).toBe(0);

    expect(bySlug("sticker-pack").variants).toHaveLength(1);
    const soldOut = bySlug("track-day-hoodie-sold-out");
    expect(soldOut.status).toBe("active");
    expect(soldOut.variants.every((variant) => variant.stock === 0)).toBe(true);

    const hoodie = bySlug("paddock-hoodie");
    expect(
      hoodie.variants.some((v) => stockBadge(v.stock, hoodie.lowStockThreshold) === "Few left" && v.stock <= 3),
    ).toBe(true);
  });

  it("stores every photo at every width in AVIF and WebP, 4:5", async () => {
    const hash = bySlug("club-tee").images[0]!.hash;
    for (const width of PRODUCT_IMAGE_WIDTHS) {
      for (const format of ["avif", "webp"] as const) {
        expect(await storage.exists(productImageKey(hash, width, format)), `${width} ${format}`).toBe(true);
      }
    }
    const file = await storage.get(productImageKey(hash, 800, "webp"));
    const meta = await sharp(file!.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([800, 1000]);
  });
});
