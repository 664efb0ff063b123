import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { z } from "zod";
import { limitImageUploads } from "~/features/accounts/attempts.server";
import { tiersForPrices } from "~/features/membership/tiers.server";
import { createProduct, updateProduct } from "~/features/shop/admin.server";
import { addProductImage, changeProductImage } from "~/features/shop/product-photos.server";
import {
  addPhotoSchema,
  describePhotoSchema,
  PhotoHashSchema,
  productSchema,
  productSlug,
  shopSettingsSchema,
  stockSchema,
  variantSchema,
} from "~/features/shop/schemas";
import { saveShopSettings } from "~/features/shop/shop-settings.server";
import { adjustStock } from "~/features/shop/stock-adjustments.server";
import { addVariant, deleteVariant, productOptionNames, updateVariant } from "~/features/shop/variants.server";
import type { Db } from "~/server/db/client.server";
import { redirectWithFlash } from "~/server/flash.server";
import type { Storage } from "~/server/storage/storage.server";
import { notFound } from "~/ui/not-found";
import { withinAttemptLimits } from "~/web/account-call.server";
import { intentOf } from "~/web/form-data.server";
import { invalidReply, refusedReply } from "~/web/form-replies.server";

// The shop editor's forms (new product, a product's details and variants, its photos, the
// delivery settings): read the form, check it with its schema, call the shop's rule, and answer a
// redirect with a flash message or the form's errors (400). `target` names the variant or photo a
// form was about, so the page shows the messages beside it.

type Call = { db: Db; actorId: string; currency: string; now: Date };
type ProductCall = Call & { productId: string };

const uuid = z.uuid();

/** A product or variant id from the address or a form; anything else is a 404. */
export function idFrom(value: unknown) {
  const parsed = uuid.safeParse(value);
  if (!parsed.success) notFound();
  return parsed.data;
}

/** A message about the page rather than one of its forms: an unknown intent, a variant or photo not found. */
function pageProblem(formData: FormData, message: string) {
  const result = parseWithZod(formData, { schema: z.object({}) }).reply({ formErrors: [message] });
  return data({ intent: "", result, target: null as string | null }, { status: 400 });
}

const RELOAD = "Reload the page and try again";

/** The extra of a reply from a form about the whole product (its details, a new variant or photo). */
const WHOLE = { target: null as string | null };

export async function createProductAction(call: Call, formData: FormData) {
  const submission = parseWithZod(formData, { schema: productSchema });
  if (submission.status !== "success") return invalidReply("create", submission);
  const values = submission.value;
  const outcome = await createProduct(call.db, {
    actorId: call.actorId,
    values,
    slugFromTitle: productSlug(values.title),
    now: call.now,
  });
  if (!outcome.ok) return refusedReply("create", submission, outcome);
  return redirectWithFlash(`/admin/shop/${outcome.id}`, {
    kind: "success",
    message: "Product saved as a draft. Add its variants, stock and photos, then put it on sale.",
  });
}

/** The schema of this product's variant form, from its option names as they are now. */
async function variantSchemaOf(call: ProductCall) {
  const optionNames = await productOptionNames(call.db, call.productId);
  if (!optionNames) notFound();
  return variantSchema({ optionNames, currency: call.currency, tiers: await tiersForPrices(call.db) });
}

/** Every form on a product's editor page, by its `intent`. */
export async function productEditorAction(call: ProductCall, formData: FormData, here: string) {
  const intent = intentOf(formData);
  const done = (message: string) => redirectWithFlash(here, { kind: "success", message });
  const base = { actorId: call.actorId, productId: call.productId, now: call.now };
  if (intent === "save") {
    const submission = parseWithZod(formData, { schema: productSchema });
    if (submission.status !== "success") return invalidReply(intent, submission, WHOLE);
    const outcome = await updateProduct(call.db, { ...base, values: submission.value });
    if (!outcome.ok) return refusedReply(intent, submission, outcome, WHOLE);
    return done("Product saved.");
  }
  if (intent === "add-variant") {
    const submission = parseWithZod(formData, { schema: await variantSchemaOf(call) });
    if (submission.status !== "success") return invalidReply(intent, submission, WHOLE);
    const outcome = await addVariant(call.db, { ...base, values: submission.value });
    if (!outcome.ok) return refusedReply(intent, submission, outcome, WHOLE);
    return done("Variant added. Add its stock below.");
  }
  if (intent !== "update-variant" && intent !== "delete-variant" && intent !== "stock") {
    return pageProblem(formData, RELOAD);
  }
  const variant = uuid.safeParse(formData.get("variantId"));
  if (!variant.success) return pageProblem(formData, "That variant could not be found");
  const variantId = variant.data;
  const extra = { target: variantId as string | null };
  if (intent === "delete-variant") {
    const submission = parseWithZod(formData, { schema: z.object({}) });
    const outcome = await deleteVariant(call.db, { ...base, variantId });
    if (!outcome.ok) return refusedReply(intent, submission, outcome, extra);
    return done("Variant deleted.");
  }
  if (intent === "update-variant") {
    const submission = parseWithZod(formData, { schema: await variantSchemaOf(call) });
    if (submission.status !== "success") return invalidReply(intent, submission, extra);
    const outcome = await updateVariant(call.db, { ...base, variantId, values: submission.value });
    if (!outcome.ok) return refusedReply(intent, submission, outcome, extra);
    return done("Variant saved.");
  }
  const submission = parseWithZod(formData, { schema: stockSchema });
  if (submission.status !== "success") return invalidReply(intent, submission, extra);
  const outcome = await adjustStock(call.db, { ...base, variantId, values: submission.value });
  if (!outcome.ok) return refusedReply(intent, submission, outcome, extra);
  return done(`Stock is now ${outcome.stock} (${outcome.delta > 0 ? "+" : ""}${outcome.delta}).`);
}

/** The photos page's forms: add (a file), describe, up, down, remove. */
export async function productImagesAction(
  call: ProductCall & { storage: Storage; ip: string },
  formData: FormData,
  here: string,
) {
  const intent = intentOf(formData);
  const done = (message: string) => redirectWithFlash(here, { kind: "success", message });
  const base = { actorId: call.actorId, productId: call.productId };
  if (intent === "add") {
    const submission = parseWithZod(formData, { schema: addPhotoSchema });
    if (submission.status !== "success") return invalidReply(intent, submission, WHOLE);
    const { image, alt } = submission.value;
    await withinAttemptLimits(limitImageUploads(call.db, { userId: call.actorId, ip: call.ip }));
    const bytes = new Uint8Array(await image.arrayBuffer());
    const outcome = await addProductImage(call.db, call.storage, { ...base, bytes, alt });
    if (!outcome.ok) return refusedReply(intent, submission, outcome, WHOLE);
    return done("Photo added.");
  }
  if (intent !== "describe" && intent !== "up" && intent !== "down" && intent !== "remove") {
    return pageProblem(formData, RELOAD);
  }
  const photo = PhotoHashSchema.safeParse(formData.get("hash"));
  if (!photo.success) return pageProblem(formData, "That photo could not be found");
  const hash = photo.data;
  const extra = { target: hash as string | null };
  if (intent === "describe") {
    const submission = parseWithZod(formData, { schema: describePhotoSchema });
    if (submission.status !== "success") return invalidReply(intent, submission, extra);
    const outcome = await changeProductImage(call.db, { ...base, hash, change: "describe", alt: submission.value.alt });
    if (!outcome.ok) return refusedReply(intent, submission, outcome, extra);
    return done("Description saved.");
  }
  const submission = parseWithZod(formData, { schema: z.object({}) });
  const outcome = await changeProductImage(call.db, { ...base, hash, change: intent });
  if (!outcome.ok) return refusedReply(intent, submission, outcome, extra);
  return done(intent === "remove" ? "Photo removed." : "Order saved.");
}

export async function shopSettingsAction(call: Call, formData: FormData) {
  const submission = parseWithZod(formData, { schema: shopSettingsSchema({ currency: call.currency }) });
  if (submission.status !== "success") return invalidReply("settings", submission);
  await saveShopSettings(call.db, { actorId: call.actorId, values: submission.value, now: call.now });
  return redirectWithFlash("/admin/shop/settings", { kind: "success", message: "Shop settings saved." });
}
