import { and, eq, sql } from "drizzle-orm";
import type { CartLineView, CartRow, CartVoucher, KindCart } from "~/features/commerce/item-kind";
import { memberLinePrice } from "~/features/commerce/member-price";
import { cartVoucher } from "~/features/vouchers/voucher-uses.server";
import type { Db } from "~/server/db/client.server";
import { cartItems, carts, MAX_LINE_QUANTITY } from "../../../db/schema";
import { type MerchProblem, merchLineProblem } from "./merch-rules";
import { availableUnits, readVariantStock, variantDescription } from "./stock.server";

/**
 * Merch in the one cart (docs/shop.md). A line is one variant (size, colour) with a quantity;
 * adding the same variant again adds to that line. What is checked here is advice against the
 * live stock less everyone else's holds; checkout checks again under the variant's lock, which
 * is what actually keeps the shop from selling what it does not have.
 */

type MerchCartProblem = {
  code: MerchProblem["code"] | "quantity";
  message: string;
  variantId: string;
};

export type MerchCartChange =
  | { ok: true; variantId: string; added: number; quantity: number; name: string }
  | { ok: false; problem: MerchCartProblem };

async function touchCart(db: Db, cartId: string, now: Date) {
  await db.update(carts).set({ updatedAt: now }).where(eq(carts.id, cartId));
}

/** Rolls back a change the rules refused. */
class Refused extends Error {
  constructor(readonly problem: MerchCartProblem) {
    super(problem.message);
  }
}

/** Whether a quantity can go on one line: a whole number from 1 to the most a line holds. */
function isMerchQuantity(value: number) {
  return Number.isInteger(value) && value >= 1 && value <= MAX_LINE_QUANTITY;
}

/**
 * Adds `quantity` of a variant to the cart, on top of what the cart already has of it. The
 * line's row is written first, so two adds at once queue on it and each sees the other's units;
 * the new total must then pass the rules (on sale, per-order maximum, what is left), or nothing
 * is stored.
 */
export async function addVariantToCart(
  db: Db,
  input: { cartId: string; variantId: string; quantity: number; now: Date; userId?: string },
): Promise<MerchCartChange> {
  const { variantId } = input;
  if (!isMerchQuantity(input.quantity)) {
    return { ok: false, problem: { code: "quantity", message: "Choose how many you want", variantId } };
  }
  try {
    return await db.transaction(async (tx) => {
      // A waiting-list offer in the cart keeps its units for this buyer.
      const voucher = await cartVoucher(tx, input.cartId);
      const stock = await readVariantStock(tx, [variantId], input.now, {
        lock: false,
        exceptUserId: input.userId,
        voucherId: voucher?.id,
      });
      const line = stock.variants.get(variantId);
      // A variant that does not exist cannot be inserted (foreign key): refuse before writing.
      const missing = merchLineProblem(line, variantId, 1);
      if (missing && (missing.code === "not_found" || missing.code === "unavailable")) throw new Refused(missing);

      const [row] = await tx
        .insert(cartItems)
        .values({
          cartId: input.cartId,
          kind: "merch",
          variantId,
          quantity: Math.min(input.quantity, MAX_LINE_QUANTITY),
        })
        .onConflictDoUpdate({
          target: [cartItems.cartId, cartItems.variantId],
          set: {
            quantity: sql`least(${cartItems.quantity} + excluded.quantity, ${MAX_LINE_QUANTITY})`,
            updatedAt: input.now,
          },
        })
        .returning({ quantity: cartItems.quantity });
      const total = row!.quantity;
      const already = total - input.quantity;
      const problem = merchLineProblem(line, variantId, total);
      if (problem) {
        const message =
          already > 0 && (problem.code === "not_enough" || problem.code === "max_per_order")
            ? `${problem.message}; your cart already has ${already}`
            : problem.message;
        throw new Refused({ ...problem, message });
      }
      await touchCart(tx, input.cartId, input.now);
      return { ok: true as const, variantId, added: input.quantity, quantity: total, name: variantDescription(line!) };
    });
  } catch (error) {
    if (error instanceof Refused) return { ok: false, problem: error.problem };
    throw error;
  }
}

/**
 * Sets the quantity of a merch line already in the cart (the cart page's picker). Lowering is
 * always allowed; raising must pass the rules. Answers not_found when the cart has no such line.
 */
export async function setMerchLineQuantity(
  db: Db,
  input: { cartId: string; variantId: string; quantity: number; now: Date; userId?: string },
): Promise<MerchCartChange> {
  const { variantId } = input;
  if (!isMerchQuantity(input.quantity)) {
    return { ok: false, problem: { code: "quantity", message: "Choose how many you want", variantId } };
  }
  const [current] = await db
    .select({ quantity: cartItems.quantity })
    .from(cartItems)
    .where(and(eq(cartItems.cartId, input.cartId), eq(cartItems.variantId, variantId)));
  if (!current) {
    return { ok: false, problem: { code: "not_found", message: "That item is no longer in your cart", variantId } };
  }
  const voucher = await cartVoucher(db, input.cartId);
  const stock = await readVariantStock(db, [variantId], input.now, {
    lock: false,
    exceptUserId: input.userId,
    voucherId: voucher?.id,
  });
  const line = stock.variants.get(variantId);
  if (input.quantity > current.quantity) {
    const problem = merchLineProblem(line, variantId, input.quantity);
    if (problem) return { ok: false, problem };
  }
  await db
    .update(cartItems)
    .set({ quantity: input.quantity, updatedAt: input.now })
    .where(and(eq(cartItems.cartId, input.cartId), eq(cartItems.variantId, variantId)));
  await touchCart(db, input.cartId, input.now);
  return {
    ok: true,
    variantId,
    added: input.quantity - current.quantity,
    quantity: input.quantity,
    name: line ? variantDescription(line) : "",
  };
}

/** Takes a variant's line out of the cart; nothing happens when it is not there. */
export async function removeMerchLine(db: Db, input: { cartId: string; variantId: string; now: Date }) {
  await db.delete(cartItems).where(and(eq(cartItems.cartId, input.cartId), eq(cartItems.variantId, input.variantId)));
  await touchCart(db, input.cartId, input.now);
}

/**
 * On sign-in, a visitor cart's merch lines join the member's cart: quantities of the same
 * variant add up, capped at the per-order maximum and at what is left; lines that can no longer
 * be bought are dropped. Call it before the visitor's cart is deleted. Answers what had to change.
 */
export async function mergeVisitorMerch(
  db: Db,
  input: { visitorCartId: string; memberCartId: string; userId: string; now: Date },
): Promise<{ variantId: string; message: string }[]> {
  const visitorLines = await db
    .select({ variantId: cartItems.variantId, quantity: cartItems.quantity })
    .from(cartItems)
    .where(and(eq(cartItems.cartId, input.visitorCartId), eq(cartItems.kind, "merch")));
  if (visitorLines.length === 0) return [];
  const ids = visitorLines.map((line) => line.variantId!);
  const memberLines = await db
    .select({ variantId: cartItems.variantId, quantity: cartItems.quantity })
    .from(cartItems)
    .where(and(eq(cartItems.cartId, input.memberCartId), eq(cartItems.kind, "merch")));
  const mine = new Map(memberLines.map((line) => [line.variantId!, line.quantity]));
  const stock = await readVariantStock(db, ids, input.now, { lock: false, exceptUserId: input.userId });

  const adjustments: { variantId: string; message: string }[] = [];
  for (const { variantId, quantity: visitorQuantity } of visitorLines) {
    const id = variantId!;
    const line = stock.variants.get(id);
    const had = mine.get(id) ?? 0;
    const wanted = Math.min(had + visitorQuantity, MAX_LINE_QUANTITY);
    let quantity = line ? Math.min(wanted, line.maxPerOrder, Math.max(0, line.stock - line.held)) : 0;
    const problem = merchLineProblem(line, id, wanted);
    if (problem) {
      if (problem.code === "not_found" || problem.code === "unavailable") quantity = 0;
      adjustments.push({ variantId: id, message: problem.message });
    }
    if (quantity <= had) continue;
    await db
      .insert(cartItems)
      .values({ cartId: input.memberCartId, kind: "merch", variantId: id, quantity })
      .onConflictDoUpdate({
        target: [cartItems.cartId, cartItems.variantId],
        set: { quantity, updatedAt: input.now },
      });
  }
  await touchCart(db, input.memberCartId, input.now);
  return adjustments;
}

/** Merch on the cart page: each line one variant, its options, quantity and price. */
export const merchCart: KindCart = {
  sections: [{ id: "cart-merch", title: "Merch" }],
  lines: merchCartLines,
};

/**
 * The cart's merch lines (in the cart's order) with today's prices (a member's own) and what stands
 * in the way of each.
 */
async function merchCartLines(
  db: Db,
  rows: CartRow[],
  context: { userId?: string; now: Date; member?: boolean; tierId?: string | null; voucher?: CartVoucher | null },
): Promise<CartLineView[]> {
  const lines = rows.flatMap((row) => (row.variantId ? [{ variantId: row.variantId, quantity: row.quantity }] : []));
  if (lines.length === 0) return [];
  const stock = await readVariantStock(
    db,
    lines.map((line) => line.variantId),
    context.now,
    { lock: false, exceptUserId: context.userId, voucherId: context.voucher?.id },
  );
  return lines.flatMap((line) => {
    const variant = stock.variants.get(line.variantId);
    // A variant deleted with its product leaves the cart with it (the foreign key cascades).
    if (!variant) return [];
    const problem = merchLineProblem(variant, variant.id, line.quantity);
    const closed = problem?.code === "unavailable" || problem?.code === "not_found";
    const optionsLabel = variant.options
      .map((value, index) => (variant.optionNames[index] ? `${variant.optionNames[index]}: ${value}` : value))
      .join(" · ");
    const name = optionsLabel ? `${variant.productTitle}, ${optionsLabel}` : variant.productTitle;
    return [
      {
        section: "cart-merch",
        ref: variant.id,
        label: name,
        header: {
          href: `/shop/${variant.productSlug}`,
          of: "Shop",
          name: variant.productTitle,
          detail: optionsLabel || null,
        },
        ...memberLinePrice(variant, { member: context.member ?? false, tierId: context.tierId }, line.quantity),
        quantity: line.quantity,
        target: { variantId: variant.id },
        item: { kind: "merch", variantId: variant.id },
        problem: problem?.message ?? null,
        problemId: `merch-problem-${variant.id}`,
        closed,
        update: closed
          ? null
          : {
              id: `merch-${variant.id}`,
              intent: "update-merch",
              label: "Update",
              maxQuantity: Math.max(line.quantity, Math.min(variant.maxPerOrder, availableUnits(variant))),
            },
        remove: { intent: "remove-merch", label: `Remove ${name}` },
      },
    ];
  });
}
