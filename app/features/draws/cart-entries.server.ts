import { and, asc, eq, ne, sql } from "drizzle-orm";
import { getOrCreateCart } from "~/features/cart/cart.server";
import type { CartLineView, KindCart } from "~/features/commerce/item-kind";
import { buyerPrice, memberLinePrice } from "~/features/commerce/member-price";
import type { PlayProblem } from "~/features/play/play-rules";
import { entryPlayProblem } from "~/features/play/play-settings.server";
import type { Db } from "~/server/db/client.server";
import { countOf } from "~/ui/plural";
import { cartItems, carts, draws, MAX_LINE_QUANTITY, users } from "../../../db/schema";
import {
  bundleFor,
  type Entrant,
  type EntryProblem,
  entrantProblem,
  entryLineProblem,
  picksProblem,
  takenProblem,
} from "./draw-rules";
import { readDrawStock, takenNumbers } from "./entries.server";

/**
 * Competition entries in the one cart. Only members add entries: a draw needs to know who enters
 * before anything is held. Each line is one bundle of one draw, with the answer chosen; all of a
 * draw's lines carry the same answer. What is checked here is advice against live counts; checkout
 * checks again under the draw's lock.
 */

/** The member as a draw sees them: staff or not, date of birth, and whether their phone is verified. */
export async function entrantOf(db: Db, userId: string) {
  const [user] = await db
    .select({ role: users.role, dateOfBirth: users.dateOfBirth, phoneVerified: users.phoneNumberVerified })
    .from(users)
    .where(eq(users.id, userId));
  return {
    staff: user?.role === "organizer" || user?.role === "admin",
    dateOfBirth: user?.dateOfBirth ?? null,
    phoneVerified: Boolean(user?.phoneVerified),
  };
}

/** The cart's line of one bundle of a draw (the draw's lines are one per bundle size). */
function bundleLine(cartId: string, drawId: string, entriesPerUnit: number) {
  return and(eq(cartItems.cartId, cartId), eq(cartItems.drawId, drawId), eq(cartItems.entriesPerUnit, entriesPerUnit));
}

/** The cart's lines of a draw's other bundles. */
function otherBundleLines(cartId: string, drawId: string, entriesPerUnit: number) {
  return and(eq(cartItems.cartId, cartId), eq(cartItems.drawId, drawId), ne(cartItems.entriesPerUnit, entriesPerUnit));
}

/** Numbers chosen on this draw's other lines in the cart. */
async function cartPicks(db: Db, cartId: string, drawId: string, exceptEntriesPerUnit: number) {
  const rows = await db
    .select({ picks: cartItems.pickedNumbers })
    .from(cartItems)
    .where(otherBundleLines(cartId, drawId, exceptEntriesPerUnit));
  return rows.flatMap((row) => row.picks);
}

/** Entries of this draw already in the cart, except the line being changed. */
async function otherCartEntries(db: Db, cartId: string, drawId: string, exceptEntriesPerUnit: number) {
  const [row] = await db
    .select({ entries: sql<number>`coalesce(sum(${cartItems.quantity} * ${cartItems.entriesPerUnit}), 0)::int` })
    .from(cartItems)
    .where(otherBundleLines(cartId, drawId, exceptEntriesPerUnit));
  return Number(row?.entries ?? 0);
}

/** Responsible play refuses entries for the member, whatever the draw (docs/responsible-play.md). */
export type EntrantPlayProblem = PlayProblem & { drawId: string };

export type AddEntriesResult =
  | { ok: true; entries: number; title: string }
  | { ok: false; problem: EntryProblem | EntrantPlayProblem };

/**
 * Adds one bundle of entries, with the answer, to the member's cart. Nothing is stored when it
 * is refused, not even a new cart.
 */
export async function addEntriesToCart(
  db: Db,
  input: {
    userId: string;
    drawId: string;
    entriesPerUnit: number;
    answer: number;
    confirmedAdult: boolean;
    /** Numbers the member chose, for a draw that allows it. */
    picks?: readonly number[];
    /** The member holds a club membership with its benefits: they pay a bundle's member price. */
    member?: boolean;
    /** That membership's tier: a bundle's price for the tier is theirs. */
    tierId?: string | null;
    now: Date;
  },
): Promise<AddEntriesResult> {
  const { drawId } = input;
  try {
    return await db.transaction(async (tx) => {
      const stock = await readDrawStock(tx, [drawId], input.now, {
        lock: false,
        userId: input.userId,
        exceptUserId: input.userId,
      });
      const draw = stock.draws.get(drawId);
      if (!draw || draw.status === "draft") {
        throw new Refused({ code: "not_found", message: "This draw could not be found", drawId });
      }
      if (draw.kind !== "competition") {
        throw new Refused({ code: "bundle", message: "Giveaways are entered from their page, free", drawId });
      }
      const entrant: Entrant = { ...(await entrantOf(tx, input.userId)), confirmedAdult: input.confirmedAdult };
      const notAllowed = entrantProblem(draw, entrant, input.now);
      if (notAllowed) throw new Refused(notAllowed);
      const bundle = bundleFor(draw, input.entriesPerUnit);
      const adding = bundle ? buyerPrice(bundle, { member: input.member ?? false, tierId: input.tierId }) : 0;
      const play = await entryPlayProblem(tx, { userId: input.userId, adding, now: input.now });
      if (play) throw new Refused({ ...play, drawId });

      const cartId = await getOrCreateCart(tx, { userId: input.userId });
      const [line] = await tx
        .select({ quantity: cartItems.quantity, picks: cartItems.pickedNumbers })
        .from(cartItems)
        .where(bundleLine(cartId, drawId, input.entriesPerUnit));
      const quantity = (line?.quantity ?? 0) + 1;
      const others = await otherCartEntries(tx, cartId, drawId, input.entriesPerUnit);
      const problem =
        quantity > MAX_LINE_QUANTITY
          ? ({ code: "limit", message: "That is as many as one cart can hold", drawId } as const)
          : entryLineProblem(
              draw,
              stock.counts(drawId),
              { entriesPerUnit: input.entriesPerUnit, quantity, answer: input.answer },
              input.now,
              others,
            );
      if (problem) throw new Refused(problem);
      const picks = [...(line?.picks ?? []), ...(input.picks ?? [])];
      if (input.picks?.length) {
        const inCart = await cartPicks(tx, cartId, drawId, input.entriesPerUnit);
        const pickProblem =
          picksProblem(draw, [...inCart, ...picks], Number.POSITIVE_INFINITY) ??
          picksProblem(draw, picks, quantity * input.entriesPerUnit) ??
          takenProblem(
            drawId,
            await takenNumbers(tx, drawId, input.picks, { now: input.now, exceptUserId: input.userId }),
          );
        if (pickProblem) throw new Refused(pickProblem);
      }

      await tx
        .insert(cartItems)
        .values({
          cartId,
          kind: "entry",
          drawId,
          entriesPerUnit: input.entriesPerUnit,
          answer: input.answer,
          quantity,
          pickedNumbers: picks,
        })
        .onConflictDoUpdate({
          target: [cartItems.cartId, cartItems.drawId, cartItems.entriesPerUnit],
          set: { quantity, answer: input.answer, pickedNumbers: picks, updatedAt: input.now },
        });
      // One answer per draw: the latest one goes with every bundle of it.
      await tx
        .update(cartItems)
        .set({ answer: input.answer, updatedAt: input.now })
        .where(and(eq(cartItems.cartId, cartId), eq(cartItems.drawId, drawId)));
      await tx.update(carts).set({ updatedAt: input.now }).where(eq(carts.id, cartId));
      return { ok: true as const, entries: input.entriesPerUnit, title: draw.title };
    });
  } catch (error) {
    if (error instanceof Refused) return { ok: false, problem: error.problem };
    throw error;
  }
}

class Refused extends Error {
  constructor(readonly problem: EntryProblem | EntrantPlayProblem) {
    super(problem.message);
  }
}

/** Changes how many of one bundle the cart holds, checked like adding. */
export async function setEntryLineQuantity(
  db: Db,
  input: { cartId: string; userId: string; drawId: string; entriesPerUnit: number; quantity: number; now: Date },
): Promise<{ ok: true } | { ok: false; problem: EntryProblem }> {
  const { drawId } = input;
  const [line] = await db
    .select({ answer: cartItems.answer, picks: cartItems.pickedNumbers })
    .from(cartItems)
    .where(bundleLine(input.cartId, drawId, input.entriesPerUnit));
  if (!line)
    return { ok: false, problem: { code: "not_found", message: "Those entries are no longer in your cart", drawId } };
  const stock = await readDrawStock(db, [drawId], input.now, {
    lock: false,
    userId: input.userId,
    exceptUserId: input.userId,
  });
  const draw = stock.draws.get(drawId);
  if (!draw) return { ok: false, problem: { code: "not_found", message: "This draw could not be found", drawId } };
  const others = await otherCartEntries(db, input.cartId, drawId, input.entriesPerUnit);
  const problem = entryLineProblem(
    draw,
    stock.counts(drawId),
    { entriesPerUnit: input.entriesPerUnit, quantity: input.quantity, answer: line.answer ?? -1 },
    input.now,
    others,
  );
  if (problem) return { ok: false, problem };
  await db
    .update(cartItems)
    // Fewer entries keep the first numbers chosen.
    .set({
      quantity: input.quantity,
      pickedNumbers: line.picks.slice(0, input.quantity * input.entriesPerUnit),
      updatedAt: input.now,
    })
    .where(bundleLine(input.cartId, drawId, input.entriesPerUnit));
  return { ok: true };
}

export async function removeEntryLine(
  db: Db,
  input: { cartId: string; drawId: string; entriesPerUnit: number; now: Date },
) {
  await db.delete(cartItems).where(bundleLine(input.cartId, input.drawId, input.entriesPerUnit));
  await db.update(carts).set({ updatedAt: input.now }).where(eq(carts.id, input.cartId));
}

/** Competition entries on the cart page: each bundle with the answer that goes with it. */
export const entryCart: KindCart = {
  sections: [
    { id: "cart-competitions", title: "Competition entries", intro: "Your entry numbers are given when you pay." },
  ],
  lines: (db, _rows, context) => entryCartLines(db, context),
};

/**
 * The cart's entry lines with today's bundle prices (a member's own) and whatever stands in the way
 * of paying. The answer shows as the option chosen, as text: the right answer itself is never
 * shown before close.
 */
async function entryCartLines(
  db: Db,
  input: { cartId: string; userId?: string; now: Date; member?: boolean; tierId?: string | null },
): Promise<CartLineView[]> {
  const rows = await db
    .select({
      drawId: draws.id,
      drawSlug: draws.slug,
      drawTitle: draws.title,
      options: draws.options,
      entriesPerUnit: cartItems.entriesPerUnit,
      quantity: cartItems.quantity,
      answer: cartItems.answer,
      picks: cartItems.pickedNumbers,
    })
    .from(cartItems)
    .innerJoin(draws, eq(draws.id, cartItems.drawId))
    .where(and(eq(cartItems.cartId, input.cartId), eq(cartItems.kind, "entry")))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.id));
  if (rows.length === 0) return [];
  const stock = await readDrawStock(
    db,
    rows.map((row) => row.drawId),
    input.now,
    { lock: false, userId: input.userId, exceptUserId: input.userId },
  );
  const inCart = new Map<string, number>();
  for (const row of rows) inCart.set(row.drawId, (inCart.get(row.drawId) ?? 0) + row.quantity * row.entriesPerUnit);
  return rows.map((row) => {
    const draw = stock.draws.get(row.drawId)!;
    const counts = stock.counts(row.drawId);
    const own = row.quantity * row.entriesPerUnit;
    const others = inCart.get(row.drawId)! - own;
    const line = { entriesPerUnit: row.entriesPerUnit, quantity: row.quantity, answer: row.answer ?? -1 };
    const problem = entryLineProblem(draw, counts, line, input.now, others);
    const room = Math.min(
      draw.maxPerMember - counts.mine - others,
      draw.totalEntries - counts.allocated - counts.held - others,
    );
    const closed = ["closed", "not_found", "bundle"].includes(problem?.code ?? "");
    const bundle = countOf(row.entriesPerUnit, "entry", "entries");
    const key = `${row.drawId}-${row.entriesPerUnit}`;
    const answer = row.options[row.answer ?? -1] ?? "";
    return {
      section: "cart-competitions",
      ref: row.drawId,
      label: `${row.drawTitle}, ${bundle}`,
      header: {
        href: `/giveaways/${row.drawSlug}`,
        of: row.drawTitle,
        name: bundle,
        detail: `Your answer: ${answer}${row.picks.length > 0 ? ` · Your numbers: ${row.picks.join(", ")}` : ""}`,
      },
      // The bundle's price today; the order copies it when checkout starts.
      ...memberLinePrice(
        bundleFor(draw, row.entriesPerUnit) ?? { price: 0 },
        { member: input.member ?? false, tierId: input.tierId },
        row.quantity,
      ),
      quantity: row.quantity,
      target: { drawId: row.drawId, bundle: String(row.entriesPerUnit) },
      item: { kind: "entry", drawId: row.drawId },
      problem: problem?.message ?? null,
      problemId: `entry-problem-${key}`,
      closed,
      update: closed
        ? null
        : {
            id: `entries-${key}`,
            intent: "update-entries",
            label: "Update",
            // Entries left to the member in this draw, beyond what the rest of the cart holds.
            maxQuantity: Math.max(row.quantity, Math.floor(room / row.entriesPerUnit)),
          },
      remove: { intent: "remove-entries", label: `Remove ${bundle} for ${row.drawTitle}` },
    };
  });
}
