import { z } from "zod";
import { amountText, MESSAGES, tooLong, wholeNumberText } from "~/features/forms/fields";
import { SLUG_PATTERN, slugify as slugFromWords } from "~/features/forms/slug";
import { MAX_PRICE_MINOR, parseMoney } from "~/ui/money";
import { PRODUCT_CATEGORIES, PRODUCT_STATUSES } from "../../../db/schema";
import { LIMITS } from "./limits";

/**
 * The shop editor's forms, read on the server (docs/shop.md). Every message names what to fix
 * and is shown beside its field; what was typed is sent back with it.
 */

const text = (max: number) => z.string().trim().max(max, tooLong(max));

const required = (max: number, label: string) => text(max).min(1, `Enter ${label.toLowerCase()}`);

const wholeNumber = (label: string, min: number, max: number) => wholeNumberText(min, max, label.toLowerCase());

const money = (label: string) => amountText(`Enter ${label.toLowerCase()}`);

/** "Size, Colour" → ["Size", "Colour"]: up to three distinct names. */
const optionNames = z
  .string()
  .trim()
  .max(200, "Option names are too long")
  .transform((value, ctx) => {
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

export const ProductSchema = z.object({
  title: required(LIMITS.title, "A title"),
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .max(LIMITS.slug, tooLong(LIMITS.slug))
    .refine((value) => value === "" || SLUG_PATTERN.test(value), MESSAGES.slug("club-tee")),
  category: z.enum(PRODUCT_CATEGORIES, { message: "Choose a category" }),
  status: z.enum(PRODUCT_STATUSES, { message: "Choose a status" }),
  summary: text(LIMITS.summary),
  description: text(LIMITS.description),
  sizeGuide: text(LIMITS.sizeGuide),
  optionNames,
  lowStockThreshold: wholeNumber("The low-stock threshold", 0, LIMITS.threshold),
});
export type ProductInput = z.output<typeof ProductSchema>;

export const VariantSchema = z.object({
  options: z.array(text(LIMITS.optionValue)),
  sku: required(LIMITS.sku, "A SKU").regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "Use letters, numbers, dots, dashes"),
  price: money("The price"),
  maxPerOrder: wholeNumber("The most per order", 1, LIMITS.maxPerOrder),
  active: z.boolean(),
});
export type VariantInput = z.output<typeof VariantSchema>;

export const StockSchema = z.object({
  mode: z.enum(["set", "add"], { message: "Choose whether to set the count or add to it" }),
  amount: wholeNumber("The amount", -LIMITS.stock, LIMITS.stock),
  reason: required(LIMITS.reason, "A reason"),
});
export type StockInput = z.output<typeof StockSchema>;

export const SettingsSchema = z.object({
  flatFee: money("The delivery fee"),
  freeOver: z
    .string()
    .trim()
    .transform((value, ctx) => {
      if (value === "") return null;
      const parsed = parseMoney(value);
      if (parsed === null || parsed > MAX_PRICE_MINOR) {
        ctx.addIssue({ code: "custom", message: "Free delivery from must be an amount like 50, or blank" });
        return z.NEVER;
      }
      return parsed;
    }),
  collectionEnabled: z.boolean(),
  countries: z
    .string()
    .trim()
    .toUpperCase()
    .transform((value, ctx) => {
      const codes = value
        .split(/[\s,]+/)
        .map((code) => code.trim())
        .filter(Boolean);
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
export type SettingsInput = z.output<typeof SettingsSchema>;

export const AltSchema = z.object({ alt: required(LIMITS.alt, "A description of the photo") });

/** "Club T-shirt: Black & White!" → "club-t-shirt-black-and-white"; "product" when nothing is left. */
export function slugify(title: string) {
  return slugFromWords(title, { max: LIMITS.slug, fallback: "product" });
}

/** The form's text fields as strings (a missing field reads as ""). */
export function formText(formData: FormData, name: string) {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}
