import { and, eq, inArray, ne } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import { changesBetween } from "~/features/audit/changes";
import { numberedSlug, slugify } from "~/features/forms/slug";
import type { Db } from "~/server/db/client.server";
import { isUniqueViolation } from "~/server/db/retry.server";
import { draws } from "../../../../db/schema";
import { type DrawRow, lockChangeableDraw, type NotFound, type Refusal, refuse } from "./editable-draw.server";
import { DRAW_LIMITS, type DrawInput, isUsableDrawSlug, type SafeDrawInput } from "./schemas";

// The organizer's changes to a draw's details: create a draft, edit it whole while it is a
// draft, and only its words once it is live (docs/draws-organizer.md). Each change locks the
// draw's row first (editable-draw.server.ts) and is audited in the same transaction.

/** Fields whose old and new values the audit log keeps. */
const KEY_FIELDS = new Set([
  "title",
  "slug",
  "kind",
  "prize",
  "prizeValue",
  "cashAlternative",
  "price",
  "bundles",
  "totalEntries",
  "maxPerMember",
  "minEntries",
  "undersoldPolicy",
  "extendDays",
  "opensAt",
  "closesAt",
  "question",
  "options",
  "answer",
  "beaconSource",
  "allowPicks",
]);

function draftValues(input: DrawInput) {
  const { slug: _slug, ...values } = input;
  return values;
}

function safeValues(input: SafeDrawInput) {
  return {
    summary: input.summary,
    description: input.description,
    rules: input.rules,
    postalRoute: input.postalRoute,
  };
}

/** The first of base, base-2, base-3… that no other draw uses and no page under /giveaways needs. */
async function firstFreeSlug(db: Db, base: string, exceptDrawId?: string) {
  for (let start = 1; ; start += 50) {
    const candidates = Array.from({ length: 50 }, (_, i) => numberedSlug(base, start + i, DRAW_LIMITS.slug));
    const rows = await db
      .select({ slug: draws.slug })
      .from(draws)
      .where(and(inArray(draws.slug, candidates), exceptDrawId ? ne(draws.id, exceptDrawId) : undefined));
    const taken = new Set(rows.map((row) => row.slug));
    const free = candidates.find((slug) => !taken.has(slug) && isUsableDrawSlug(slug));
    if (free) return free;
  }
}

async function slugTaken(db: Db, slug: string, exceptDrawId?: string) {
  const [row] = await db
    .select({ id: draws.id })
    .from(draws)
    .where(and(eq(draws.slug, slug), exceptDrawId ? ne(draws.id, exceptDrawId) : undefined))
    .limit(1);
  return Boolean(row);
}

async function slugInUse(db: Db, slug: string, exceptDrawId?: string): Promise<Refusal> {
  return refuse(
    "slug",
    `Another draw already uses this address. Try “${await firstFreeSlug(db, slug, exceptDrawId)}”.`,
  );
}

/** Runs `write` again when another organizer took the generated address between look-up and write. */
async function retryingSlugConflicts<T>(write: () => Promise<T>, onConflict?: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (onConflict) return onConflict();
      if (attempt >= 25) throw error;
    }
  }
}

async function chooseSlug(db: Db, input: DrawInput, exceptDrawId?: string): Promise<string | Refusal> {
  if (input.slug) {
    if (await slugTaken(db, input.slug, exceptDrawId)) return slugInUse(db, input.slug, exceptDrawId);
    return input.slug;
  }
  return firstFreeSlug(db, slugify(input.title, { max: DRAW_LIMITS.slug, fallback: "draw" }), exceptDrawId);
}

export type SavedDraw = { ok: true; id: string; slug: string };

/** A new draw, as a draft, at the address chosen or one made from its title. */
export async function createDraw(
  db: Db,
  input: { actorId: string; draw: DrawInput; now: Date },
): Promise<SavedDraw | Refusal> {
  const chosen = input.draw.slug;
  const write = () =>
    db.transaction(async (tx): Promise<SavedDraw | Refusal> => {
      const slug = await chooseSlug(tx, input.draw);
      if (typeof slug !== "string") return slug;
      const [created] = await tx
        .insert(draws)
        .values({
          ...draftValues(input.draw),
          slug,
          status: "draft",
          createdBy: input.actorId,
          createdAt: input.now,
          updatedAt: input.now,
        })
        .returning({ id: draws.id, slug: draws.slug });
      if (!created) throw new Error("The draw was not created");
      await recordAudit(tx, {
        actorId: input.actorId,
        action: "draw.create",
        subjectType: "draw",
        subjectId: created.id,
        details: {
          title: input.draw.title,
          slug,
          kind: input.draw.kind,
          totalEntries: input.draw.totalEntries,
          closesAt: input.draw.closesAt.toISOString(),
        },
      });
      return { ok: true, ...created };
    });
  return retryingSlugConflicts(write, chosen ? () => slugInUse(db, chosen) : undefined);
}

/** A save from the draw form: the whole draft, or only the words of a live draw. */
export type DrawEdit = { scope: "draft"; draw: DrawInput } | { scope: "wording"; draw: SafeDrawInput };

export type UpdatedDraw = { ok: true; changed: string[] };

/**
 * Saves the draw form. The draw's status is read under its row lock, so a publish that lands
 * first turns a whole-draft save into a refusal rather than a change to a live draw's terms.
 */
export async function updateDraw(
  db: Db,
  input: { actorId: string; drawId: string; edit: DrawEdit; now: Date },
): Promise<UpdatedDraw | Refusal | NotFound> {
  const { edit } = input;
  const write = () =>
    db.transaction(async (tx): Promise<UpdatedDraw | Refusal | NotFound> => {
      const locked = await lockChangeableDraw(tx, input.drawId, { draftOnly: edit.scope === "draft" });
      if (!locked.ok) return locked;
      const current = locked.draw;
      let next: Partial<DrawRow>;
      if (edit.scope === "draft") {
        const slug = await chooseSlug(tx, edit.draw, current.id);
        if (typeof slug !== "string") return slug;
        next = { ...draftValues(edit.draw), slug };
      } else {
        next = safeValues(edit.draw);
      }
      const { changed, values } = changesBetween(current, next, KEY_FIELDS);
      if (changed.length === 0) return { ok: true, changed };
      await tx
        .update(draws)
        .set({ ...next, updatedAt: input.now })
        .where(eq(draws.id, current.id));
      await recordAudit(tx, {
        actorId: input.actorId,
        action: "draw.update",
        subjectType: "draw",
        subjectId: current.id,
        details: { status: current.status, changed, ...values },
      });
      return { ok: true, changed };
    });
  const chosen = edit.scope === "draft" ? edit.draw.slug : null;
  return retryingSlugConflicts(write, chosen ? () => slugInUse(db, chosen, input.drawId) : undefined);
}
