import { eq } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import { prepareCover, storeCover } from "~/features/events/cover.server";
import type { Db } from "~/server/db/client.server";
import type { Storage } from "~/server/storage/storage.server";
import { type DrawImage, draws } from "../../../../db/schema";
import {
  changeRefusal,
  drawNotFound,
  lockChangeableDraw,
  type NotFound,
  type Refusal,
  refuse,
} from "./editable-draw.server";
import { DRAW_LIMITS } from "./schemas";

// The prize gallery: photos go through the event covers' pipeline (16:9 AVIF and WebP at every
// width, metadata removed) and are kept in `draws.images` as {hash, color, alt}. Photos are added,
// removed and reordered only while the draw is a draft; their descriptions may change while live.

type ImageChange = { ok: true; images: DrawImage[] };

async function changeImages(
  db: Db,
  input: { actorId: string; drawId: string; draftOnly: boolean; action: string },
  change: (images: DrawImage[]) => DrawImage[] | Refusal,
): Promise<ImageChange | Refusal | NotFound> {
  return db.transaction(async (tx) => {
    const locked = await lockChangeableDraw(tx, input.drawId, input);
    if (!locked.ok) return locked;
    const { draw } = locked;
    const images = change(draw.images);
    if (!Array.isArray(images)) return images;
    await tx.update(draws).set({ images, updatedAt: new Date() }).where(eq(draws.id, draw.id));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "draw.images",
      subjectType: "draw",
      subjectId: draw.id,
      details: {
        action: input.action,
        before: draw.images.map((image) => image.hash),
        after: images.map((i) => i.hash),
      },
    });
    return { ok: true as const, images };
  });
}

const GALLERY_FULL = `A draw can show at most ${DRAW_LIMITS.images} photos: remove one first.`;

/** Adds a photo at the end of the gallery, checked and stored before the row changes. */
export async function addDrawImage(
  db: Db,
  storage: Storage,
  input: { actorId: string; drawId: string; image: Uint8Array; alt: string },
): Promise<ImageChange | Refusal | NotFound> {
  // Checked before seconds of image work, and again under the lock.
  const [current] = await db
    .select({ status: draws.status, images: draws.images })
    .from(draws)
    .where(eq(draws.id, input.drawId));
  if (!current) return drawNotFound();
  const refusal = changeRefusal(current, { draftOnly: true });
  if (refusal) return refusal;
  if (current.images.length >= DRAW_LIMITS.images) return refuse("image", GALLERY_FULL);
  const prepared = await prepareCover(input.image);
  if (!prepared.ok) return refuse("image", prepared.message);
  const stored = await storeCover(storage, prepared);
  const image = { hash: stored.coverHash, color: stored.coverColor, alt: input.alt };
  return changeImages(db, { ...input, draftOnly: true, action: "add" }, (images) => {
    if (images.length >= DRAW_LIMITS.images) return refuse("image", GALLERY_FULL);
    if (images.some((known) => known.hash === image.hash))
      return refuse("image", "This photo is already in the gallery.");
    return [...images, image];
  });
}

const gone = () => refuse("", "That photo is no longer in the gallery. Reload the page.");

export function removeDrawImage(db: Db, input: { actorId: string; drawId: string; hash: string }) {
  return changeImages(db, { ...input, draftOnly: true, action: "remove" }, (images) =>
    images.some((image) => image.hash === input.hash) ? images.filter((image) => image.hash !== input.hash) : gone(),
  );
}

/** Moves a photo one place up or down; the first is the one on the draw's tile. */
export function moveDrawImage(db: Db, input: { actorId: string; drawId: string; hash: string; by: -1 | 1 }) {
  return changeImages(db, { ...input, draftOnly: true, action: input.by < 0 ? "move-up" : "move-down" }, (images) => {
    const from = images.findIndex((image) => image.hash === input.hash);
    if (from < 0) return gone();
    const to = from + input.by;
    if (to < 0 || to >= images.length) return images;
    const next = [...images];
    [next[from], next[to]] = [next[to]!, next[from]!];
    return next;
  });
}

export function describeDrawImage(db: Db, input: { actorId: string; drawId: string; hash: string; alt: string }) {
  return changeImages(db, { ...input, draftOnly: false, action: "describe" }, (images) =>
    images.some((image) => image.hash === input.hash)
      ? images.map((image) => (image.hash === input.hash ? { ...image, alt: input.alt } : image))
      : gone(),
  );
}
