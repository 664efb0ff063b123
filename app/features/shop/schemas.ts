import { z } from "zod";
import {
  checkbox,
  line,
  MESSAGES,
  memberPriceField,
  moneyField,
  optionalLine,
  type PriceTier,
  prose,
  slugField,
  tierPriceIssues,
  tierPricesField,
  wholeNumber,
} from "~/features/forms/fields";
import { slugify as slugFromWords } from "~/features/forms/slug";
import type { ProductCategory, ProductStatus } from "../../../db/schema";
import { CATEGORY_LABELS } from "./catalogue-labels";
import { LIMITS } from "./limits";

// The shop editor's forms (docs/shop.md): one schema per form, run in the browser for instant
// feedback and again on the server as the authority. The variant form depends on the product
// (its option names) and the delivery settings on the site's currency, so those are made by the
// factories below.

/** A product's states as the editor offers them. */
export const PRODUCT_STATUS_LABELS = {
  draft: "Draft — only staff see it",
  active: "On sale",
  archived: "Archived — off the shop, kept for old orders",
} as const satisfies Record<ProductStatus, string>;

const categories = Object.keys(CATEGORY_LABELS) as [ProductCategory, ...ProductCategory[]];
const statuses = Object.keys(PRODUCT_STATUS_LABELS) as [ProductStatus, ...ProductStatus[]];

/** Nothing under /shop/ but product pages: no word is kept back, only ids are refused. */
const RESERVED_SLUGS: ReadonlySet<string> = new Set();

/** "Size, Colour" → ["Size", "Colour"]: up to three distinct names, each shown as a label. */
const optionNames = optionalLine(LIMITS.optionNames).transform((value, ctx) => {
  const names = value
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length > LIMITS.options) {
    ctx.addIssue({ code: "custom", message: `Up to ${LIMITS.options} options, such as Size and Colour` });
    return z.NEVER;
  }
  if (names.some((name) => name.length > LIMITS.optionName)) {
    ctx.addIssue({ code: "custom", message: `An option name can be up to ${LIMITS.optionName} characters` });
    return z.NEVER;
  }
  if (new Set(names.map((name) => name.toLowerCase())).size !== names.length) {
    ctx.addIssue({ code: "custom", message: "Each option needs a different name" });
    return z.NEVER;
  }
  return names;
});

/** The product form, on /admin/shop/new and at the top of a product's editor. */
export const productSchema = z.object({
  title: line(LIMITS.title, "Enter a title"),
  slug: slugField({ max: LIMITS.slug, reserved: RESERVED_SLUGS, example: "club-tee" }),
  category: z.enum(categories, { error: "Choose a category" }),
  // A new product is always a draft: its form has no status.
  status: z.enum(statuses, { error: "Choose a status" }).default("draft"),
  summary: prose(LIMITS.summary),
  description: prose(LIMITS.description),
  sizeGuide: prose(LIMITS.sizeGuide),
  optionNames,
  lowStockThreshold: wholeNumber(0, LIMITS.threshold, "the low-stock threshold")
    .optional()
    .transform((value) => value ?? 5),
});
export type ProductInput = z.output<typeof productSchema>;
export type ProductFormDefaults = { [Field in keyof z.input<typeof productSchema>]?: string };

const SKU = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** A variant's value for each of its product's options, in their order ("M", "Black"). */
function optionValues(names: string[]) {
  const values = names.map((name) => line(LIMITS.optionValue, `Enter the ${name.toLowerCase()}`));
  if (values.length === 0) {
    return z
      .tuple([])
      .optional()
      .transform((): string[] => []);
  }
  return z
    .tuple(values as [z.ZodString, ...z.ZodString[]], { error: `Enter the ${names[0]!.toLowerCase()}` })
    .transform((chosen): string[] => [...chosen]);
}

/**
 * The variant form (adding one, or changing one) of a product with these option names. A member
 * price, and one for each of `tiers`, is optional and no more than the price (docs/membership.md,
 * "Member prices…").
 */
export function variantSchema(product: { optionNames: string[]; currency: string; tiers?: readonly PriceTier[] }) {
  const tiers = product.tiers ?? [];
  return z
    .object({
      options: optionValues(product.optionNames),
      sku: line(LIMITS.sku, "Enter a SKU").regex(SKU, "Use letters, numbers, dots, dashes"),
      price: moneyField(product.currency, "Enter the price"),
      memberPrice: memberPriceField(product.currency),
      tierPrices: tierPricesField(product.currency, tiers),
      maxPerOrder: wholeNumber(1, LIMITS.maxPerOrder, "the most per order")
        .optional()
        .transform((value) => value ?? 10),
      active: checkbox,
    })
    .refine((value) => value.memberPrice === null || value.memberPrice <= value.price, {
      path: ["memberPrice"],
      message: MESSAGES.memberPriceAbove,
      // Checked once both amounts read, whatever else is wrong with the form.
      when: (payload) => !payload.issues.some((issue) => ["price", "memberPrice"].includes(String(issue.path?.[0]))),
    })
    .superRefine(
      (value, ctx) => {
        for (const issue of tierPriceIssues(value.price, value.tierPrices, tiers))
          ctx.addIssue({ code: "custom", ...issue });
      },
      { when: (payload) => !payload.issues.some((issue) => ["price", "tierPrices"].includes(String(issue.path?.[0]))) },
    );
}
export type VariantInput = z.output<ReturnType<typeof variantSchema>>;
export type VariantFormDefaults = {
  options?: string[];
  sku?: string;
  price?: string;
  memberPrice?: string;
  tierPrices?: Record<string, string>;
  maxPerOrder?: string;
  active?: "on";
};

/** The modes of a stock adjustment, as the form offers them. */
export const STOCK_MODE_LABELS = { add: "Add or take away", set: "Set the count to" } as const;

/** A stock adjustment of one variant: add (or take away) or set the count, with a reason. */
export const stockSchema = z.object({
  mode: z.enum(["add", "set"], { error: "Choose whether to set the count or add to it" }),
  amount: wholeNumber(-LIMITS.stock, LIMITS.stock, "the amount"),
  reason: line(LIMITS.reason, "Enter a reason"),
});
export type StockInput = z.output<typeof stockSchema>;

/** The delivery settings: the fee, free delivery from an amount (blank: never), collection, countries. */
export function shopSettingsSchema(site: { currency: string }) {
  return z.object({
    flatFee: moneyField(site.currency, "Enter the delivery fee"),
    freeOver: moneyField(site.currency, "Enter free delivery from, or leave it blank")
      .optional()
      .transform((value) => value ?? null),
    collectionEnabled: checkbox,
    countries: z
      .string({ error: "Enter at least one country code, such as GB" })
      .trim()
      .max(LIMITS.countries, MESSAGES.tooLong(LIMITS.countries))
      .toUpperCase()
      .transform((value, ctx) => {
        const codes = value.split(/[\s,]+/).filter(Boolean);
        const bad = codes.filter((code) => !/^[A-Z]{2}$/.test(code));
        if (bad.length > 0) {
          ctx.addIssue({
            code: "custom",
            message: `Use two-letter country codes such as GB, IE (not ${bad.join(", ")})`,
          });
          return z.NEVER;
        }
        if (codes.length === 0) {
          ctx.addIssue({ code: "custom", message: "Enter at least one country code, such as GB" });
          return z.NEVER;
        }
        return [...new Set(codes)];
      }),
  });
}
export type SettingsInput = z.output<ReturnType<typeof shopSettingsSchema>>;

export const PHOTO_ACCEPT = "image/jpeg,image/png,image/webp,image/heic,image/heif";

const photoDescription = line(LIMITS.alt, "Enter a description of the photo");

/** A new photo and its description. The file is checked by its content on the server. */
export const addPhotoSchema = z.object({
  image: z.file({ error: "Choose a photo to upload" }),
  alt: photoDescription,
});

/** A photo already on the product, named by its hash. */
export const PhotoHashSchema = z.string().regex(/^[0-9a-f]{32}$/);

/** A new description for one photo. */
export const describePhotoSchema = z.object({ alt: photoDescription });

/** "Club T-shirt: Black & White!" → "club-t-shirt-black-and-white"; "product" when nothing is left. */
export function productSlug(title: string) {
  return slugFromWords(title, { max: LIMITS.slug, fallback: "product" });
}
