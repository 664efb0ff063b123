import { data } from "react-router";
import { z } from "zod";
import { limitImageUploads } from "~/features/accounts/attempts.server";
import { type FieldMessages, fieldMessages } from "~/features/forms/fields";
import { createProduct, updateProduct } from "~/features/shop/admin.server";
import {
  AltSchema,
  formText,
  ProductSchema,
  SettingsSchema,
  StockSchema,
  slugify,
  VariantSchema,
} from "~/features/shop/admin-forms";
import { addProductImage, changeProductImage } from "~/features/shop/product-photos.server";
import { saveShopSettings } from "~/features/shop/shop-settings.server";
import { adjustStock } from "~/features/shop/stock-adjustments.server";
import { addVariant, deleteVariant, updateVariant } from "~/features/shop/variants.server";
import type { Db } from "~/server/db/client.server";
import { redirectWithFlash } from "~/server/flash.server";
import type { Storage } from "~/server/storage/storage.server";
import { notFound } from "~/ui/not-found";
import { withinAttemptLimits } from "~/web/account-call.server";

/**
 * The shop editor's actions: read the form, hand it to the feature's functions, and answer with a
 * redirect and a message, or 400 with the messages per field and what was typed.
 */

type ShopFormReply = {
  intent: string;
  /** The variant or photo the form was about, so the page shows the messages beside it. */
  target: string | null;
  errors: FieldMessages;
  values: Record<string, string>;
};

type Call = { db: Db; actorId: string; now: Date };

const uuid = z.uuid();

/** A product or variant id from the address or a form; anything else is a 404. */
export function idFrom(value: unknown) {
  const parsed = uuid.safeParse(value);
  if (!parsed.success) notFound();
  return parsed.data;
}

function values(formData: FormData) {
  const result: Record<string, string> = {};
  for (const [key, value] of formData) if (typeof value === "string") result[key] = value;
  return result;
}

function reply(formData: FormData, intent: string, target: string | null, errors: FieldMessages) {
  return data({ intent, target, errors, values: values(formData) } satisfies ShopFormReply, { status: 400 });
}

function productFields(formData: FormData) {
  return {
    title: formText(formData, "title"),
    slug: formText(formData, "slug"),
    category: formText(formData, "category"),
    status: formText(formData, "status") || "draft",
    summary: formText(formData, "summary"),
    description: formText(formData, "description"),
    sizeGuide: formText(formData, "sizeGuide"),
    optionNames: formText(formData, "optionNames"),
    lowStockThreshold: formText(formData, "lowStockThreshold") || "5",
  };
}

export async function createProductAction(call: Call, formData: FormData) {
  const parsed = ProductSchema.safeParse(productFields(formData));
  if (!parsed.success) return reply(formData, "create", null, fieldMessages(parsed.error));
  const outcome = await createProduct(call.db, {
    actorId: call.actorId,
    values: parsed.data,
    slugFromTitle: slugify(parsed.data.title),
    now: call.now,
  });
  if (!outcome.ok) return reply(formData, "create", null, outcome.errors);
  return redirectWithFlash(`/admin/shop/${outcome.id}`, {
    kind: "success",
    message: "Product saved as a draft. Add its variants, stock and photos, then put it on sale.",
  });
}

function variantFields(formData: FormData) {
  const options: string[] = [];
  for (let index = 0; formData.has(`option-${index}`) && index < 10; index++) {
    options.push(formText(formData, `option-${index}`));
  }
  return {
    options,
    sku: formText(formData, "sku"),
    price: formText(formData, "price"),
    maxPerOrder: formText(formData, "maxPerOrder") || "10",
    active: formData.get("active") === "on",
  };
}

/** Every form on a product's editor page, by its `intent`. */
export async function productEditorAction(call: Call & { productId: string }, formData: FormData, here: string) {
  const intent = formText(formData, "intent").slice(0, 40);
  const done = (message: string) => redirectWithFlash(here, { kind: "success", message });
  const base = { actorId: call.actorId, productId: call.productId, now: call.now };
  switch (intent) {
    case "save": {
      const parsed = ProductSchema.safeParse(productFields(formData));
      if (!parsed.success) return reply(formData, intent, null, fieldMessages(parsed.error));
      const outcome = await updateProduct(call.db, { ...base, values: parsed.data });
      if (!outcome.ok) return reply(formData, intent, null, outcome.errors);
      return done("Product saved.");
    }
    case "add-variant": {
      const parsed = VariantSchema.safeParse(variantFields(formData));
      if (!parsed.success) return reply(formData, intent, null, fieldMessages(parsed.error));
      const outcome = await addVariant(call.db, { ...base, values: parsed.data });
      if (!outcome.ok) return reply(formData, intent, null, outcome.errors);
      return done("Variant added. Add its stock below.");
    }
    case "update-variant":
    case "delete-variant":
    case "stock": {
      const variantId = uuid.safeParse(formData.get("variantId"));
      if (!variantId.success) return reply(formData, intent, null, { form: "That variant could not be found" });
      const target = variantId.data;
      if (intent === "delete-variant") {
        const outcome = await deleteVariant(call.db, { ...base, variantId: target });
        if (!outcome.ok) return reply(formData, intent, target, outcome.errors);
        return done("Variant deleted.");
      }
      if (intent === "update-variant") {
        const parsed = VariantSchema.safeParse(variantFields(formData));
        if (!parsed.success) return reply(formData, intent, target, fieldMessages(parsed.error));
        const outcome = await updateVariant(call.db, { ...base, variantId: target, values: parsed.data });
        if (!outcome.ok) return reply(formData, intent, target, outcome.errors);
        return done("Variant saved.");
      }
      const parsed = StockSchema.safeParse({
        mode: formText(formData, "mode"),
        amount: formText(formData, "amount"),
        reason: formText(formData, "reason"),
      });
      if (!parsed.success) return reply(formData, intent, target, fieldMessages(parsed.error));
      const outcome = await adjustStock(call.db, { ...base, variantId: target, values: parsed.data });
      if (!outcome.ok) return reply(formData, intent, target, outcome.errors);
      return done(`Stock is now ${outcome.stock} (${outcome.delta > 0 ? "+" : ""}${outcome.delta}).`);
    }
    default:
      return reply(formData, intent, null, { form: "Reload the page and try again" });
  }
}

const HASH = /^[0-9a-f]{32}$/;

/** The photos page's forms: add (a file), describe, up, down, remove. */
export async function productImagesAction(
  call: Call & { productId: string; storage: Storage; ip: string },
  formData: FormData,
  here: string,
) {
  const intent = formText(formData, "intent").slice(0, 40);
  const done = (message: string) => redirectWithFlash(here, { kind: "success", message });
  const base = { actorId: call.actorId, productId: call.productId };
  if (intent === "add") {
    const alt = AltSchema.safeParse({ alt: formText(formData, "alt") });
    const file = formData.get("image");
    const errors: FieldMessages = alt.success ? {} : fieldMessages(alt.error);
    if (!(file instanceof File) || file.size === 0) errors.image = "Choose a photo to upload";
    if (!alt.success || Object.keys(errors).length > 0) return reply(formData, intent, null, errors);
    await withinAttemptLimits(limitImageUploads(call.db, { userId: call.actorId, ip: call.ip }));
    const bytes = new Uint8Array(await (file as File).arrayBuffer());
    const outcome = await addProductImage(call.db, call.storage, { ...base, bytes, alt: alt.data.alt });
    if (!outcome.ok) return reply(formData, intent, null, outcome.errors);
    return done("Photo added.");
  }
  const hash = formText(formData, "hash");
  if (!HASH.test(hash)) return reply(formData, intent, null, { form: "That photo could not be found" });
  if (intent === "describe") {
    const alt = AltSchema.safeParse({ alt: formText(formData, "alt") });
    if (!alt.success) return reply(formData, intent, hash, fieldMessages(alt.error));
    const outcome = await changeProductImage(call.db, { ...base, hash, change: "describe", alt: alt.data.alt });
    if (!outcome.ok) return reply(formData, intent, hash, outcome.errors);
    return done("Description saved.");
  }
  if (intent === "up" || intent === "down" || intent === "remove") {
    const outcome = await changeProductImage(call.db, { ...base, hash, change: intent });
    if (!outcome.ok) return reply(formData, intent, hash, outcome.errors);
    return done(intent === "remove" ? "Photo removed." : "Order saved.");
  }
  return reply(formData, intent, null, { form: "Reload the page and try again" });
}

export async function shopSettingsAction(call: Call, formData: FormData) {
  const parsed = SettingsSchema.safeParse({
    flatFee: formText(formData, "flatFee"),
    freeOver: formText(formData, "freeOver"),
    collectionEnabled: formData.get("collectionEnabled") === "on",
    countries: formText(formData, "countries"),
  });
  if (!parsed.success) return reply(formData, "settings", null, fieldMessages(parsed.error));
  await saveShopSettings(call.db, { actorId: call.actorId, values: parsed.data, now: call.now });
  return redirectWithFlash("/admin/shop/settings", { kind: "success", message: "Shop settings saved." });
}
