import { eq } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import { refuse } from "~/features/forms/refusal";
import type { Db } from "~/server/db/client.server";
import type { Storage } from "~/server/storage/storage.server";
import { type ProductImage, products } from "../../../db/schema";
import { LIMITS } from "./limits";
import type { Outcome } from "./outcome";
import { prepareProductImage, storeProductImage } from "./product-images.server";

/** A product's photos in the editor: add through the media pipeline, describe, reorder, remove; audited. */

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
  if (!current) return refuse("", "This product no longer exists");
  if (current.images.length >= LIMITS.photos) {
    return refuse("image", `A product can have up to ${LIMITS.photos} photos: remove one first`);
  }
  const prepared = await prepareProductImage(input.bytes);
  if (!prepared.ok) return refuse("image", prepared.message);
  const stored = await storeProductImage(storage, prepared);
  return db.transaction(async (tx) => {
    const images = await lockedImages(tx, input.productId);
    if (!images) return refuse("", "This product no longer exists");
    if (images.some((image) => image.hash === stored.hash)) return refuse("image", "This photo is already there");
    if (images.length >= LIMITS.photos) {
      return refuse("image", `A product can have up to ${LIMITS.photos} photos: remove one first`);
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
    if (!images) return refuse("", "This product no longer exists");
    const index = images.findIndex((image) => image.hash === input.hash);
    if (index < 0) return refuse("", "That photo is no longer on this product");
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
