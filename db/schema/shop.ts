import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts";

export const PRODUCT_CATEGORIES = ["apparel", "stickers", "models", "accessories"] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];

/** draft (staff only) → active (on sale) → archived (off the shop, kept for old orders). */
export const PRODUCT_STATUSES = ["draft", "active", "archived"] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** A stored product photo: the content hash of its renditions (media pipeline), colour and text. */
export type ProductImage = { hash: string; color: string; alt: string };

/**
 * A product in the shop (docs/shop.md). What is sold is always one of its variants; a product
 * without options has exactly one variant with no option values.
 */
export const products = pgTable(
  "products",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    category: text("category", { enum: PRODUCT_CATEGORIES }).notNull(),
    status: text("status", { enum: PRODUCT_STATUSES }).notNull().default("draft"),
    summary: text("summary").notNull().default(""),
    /** Markdown, rendered with raw HTML escaped. */
    description: text("description").notNull().default(""),
    /** Markdown: measurements per size, shown beside the size picker; empty when there is none. */
    sizeGuide: text("size_guide").notNull().default(""),
    images: jsonb("images").$type<ProductImage[]>().notNull().default([]),
    /** The names of the options its variants choose between, in order: ["Size", "Colour"]. */
    optionNames: text("option_names").array().notNull().default(sql`'{}'::text[]`),
    /** Staff are told when a variant's stock falls to this or below. */
    lowStockThreshold: integer("low_stock_threshold").notNull().default(5),
    /** Members may join a sold-out variant's waiting list (docs/waiting-lists.md). */
    waitingListEnabled: boolean("waiting_list_enabled").notNull().default(true),
    position: integer("position").notNull().default(0),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("products_slug_key").on(table.slug),
    index("products_listing_idx").on(table.status, table.category, table.position),
    check("products_low_stock_threshold_non_negative", sql`${table.lowStockThreshold} >= 0`),
  ],
);

/**
 * One thing that can be bought: a product in one size and colour. `stock` is what is on the
 * shelf: settlement takes from it and a refund gives back, in the transaction that holds this
 * row's lock, and the check keeps it from going below zero whatever happens. What can still be
 * sold is `stock` less the active holds (the same rule as ticket places, ADR 0007).
 */
export const productVariants = pgTable(
  "product_variants",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    sku: text("sku").notNull(),
    /** One value per product option name, in the same order: ["M", "Black"]. */
    options: text("options").array().notNull().default(sql`'{}'::text[]`),
    price: integer("price").notNull(),
    /** What members (a membership with its benefits) pay; null: the same as everyone. */
    memberPrice: integer("member_price"),
    /** What members of a tier pay, by tier id, over `memberPrice` for that tier (none: `memberPrice`). */
    tierPrices: jsonb("tier_prices").$type<Record<string, number>>().notNull().default({}),
    stock: integer("stock").notNull().default(0),
    /** Most of this variant one order may carry. */
    maxPerOrder: integer("max_per_order").notNull().default(10),
    /** Off sale without deleting it (it may be on old orders). */
    active: boolean("active").notNull().default(true),
    position: integer("position").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("product_variants_sku_key").on(table.sku),
    uniqueIndex("product_variants_product_options_key").on(table.productId, table.options),
    index("product_variants_product_idx").on(table.productId, table.position),
    check("product_variants_price_non_negative", sql`${table.price} >= 0`),
    check("product_variants_member_price", sql`${table.memberPrice} is null or ${table.memberPrice} >= 0`),
    check("product_variants_stock_non_negative", sql`${table.stock} >= 0`),
    check("product_variants_max_per_order_positive", sql`${table.maxPerOrder} > 0`),
  ],
);

/**
 * Every change of a variant's stock that was not a sale or a refund: staff counting the shelf,
 * a delivery arriving, damaged goods. Sales and refunds are on the orders themselves.
 */
export const stockAdjustments = pgTable(
  "stock_adjustments",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    variantId: uuid("variant_id")
      .notNull()
      .references(() => productVariants.id, { onDelete: "cascade" }),
    delta: integer("delta").notNull(),
    stockAfter: integer("stock_after").notNull(),
    reason: text("reason").notNull(),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("stock_adjustments_variant_idx").on(table.variantId, table.createdAt)],
);

/**
 * How merch reaches the buyer, set by staff in /admin/shop: one row (id 1). Delivery costs
 * `flat_fee` unless the merch in the order comes to `free_over` or more; collection at an event
 * the buyer has a ticket for costs nothing. Amounts are minor units of the site's currency.
 */
export const shopSettings = pgTable(
  "shop_settings",
  {
    id: integer("id").primaryKey().default(1),
    flatFee: integer("flat_fee").notNull().default(495),
    /** Null: delivery is never free. */
    freeOver: integer("free_over").default(5000),
    collectionEnabled: boolean("collection_enabled").notNull().default(true),
    /** ISO 3166-1 alpha-2 codes the shop delivers to. */
    countries: text("countries").array().notNull().default(sql`'{GB}'::text[]`),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("shop_settings_single_row", sql`${table.id} = 1`),
    check("shop_settings_amounts_non_negative", sql`${table.flatFee} >= 0 and coalesce(${table.freeOver}, 0) >= 0`),
  ],
);

/** A partner shown in the home page's LogoBanner, in `position` order, managed in /admin. */
export const partners = pgTable(
  "partners",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    name: text("name").notNull(),
    url: text("url").notNull(),
    logo: jsonb("logo").$type<ProductImage>(),
    active: boolean("active").notNull().default(true),
    position: integer("position").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("partners_position_idx").on(table.active, table.position)],
);
