import { and, eq } from "drizzle-orm";
import { getOrCreateCart } from "~/features/cart/cart.server";
import type { CartLineView, CartRow, KindCart } from "~/features/commerce/item-kind";
import type { Db } from "~/server/db/client.server";
import { cartItems, carts } from "../../../db/schema";
import { membershipDate } from "./membership-labels";
import { type JoinProblem, joiningPrice, joinProblem } from "./membership-rules";
import { membershipOf, statusOf } from "./memberships.server";
import { placesLeft, readTierPlaces, termOf } from "./tier-places.server";

/**
 * Memberships in the one cart (docs/membership.md). Joining needs an account (the membership is
 * the member's), so only a member's cart holds one; the line is one tier with the people it
 * names, and putting a tier in the cart takes out any other tier (one membership at a time).
 * What is checked here is advice; checkout checks again under the tier's lock.
 */

export type MembershipCartChange =
  | { ok: true; tierName: string }
  | { ok: false; problem: JoinProblem | { code: "not_found"; message: string } };

/** Puts joining `tierId` in the member's cart, replacing any membership line already there. */
export async function addMembershipToCart(
  db: Db,
  input: { userId: string; tierId: string; people: string[]; now: Date },
): Promise<MembershipCartChange> {
  const { userId, tierId, now } = input;
  const places = await readTierPlaces(db, [tierId], now, { lock: false, exceptUserId: userId });
  const tier = places.tiers.get(tierId);
  if (!tier?.onSale) {
    return { ok: false, problem: { code: "not_found", message: "That membership tier is not open to new members" } };
  }
  const own = await membershipOf(db, userId);
  const problem = joinProblem({
    tier,
    placesLeft: placesLeft(tier),
    current: own ? statusOf(own.membership, now) : null,
    people: input.people,
    formatDate: (date) => membershipDate(date, tier.timeZone),
  });
  if (problem) return { ok: false, problem };
  await db.transaction(async (tx) => {
    const cartId = await getOrCreateCart(tx, { userId });
    await tx.delete(cartItems).where(and(eq(cartItems.cartId, cartId), eq(cartItems.kind, "membership")));
    await tx.insert(cartItems).values({ cartId, kind: "membership", tierId, quantity: 1, attendeeNames: input.people });
    await tx.update(carts).set({ updatedAt: now }).where(eq(carts.id, cartId));
  });
  return { ok: true, tierName: tier.name };
}

/** Takes a tier's line out of the cart; nothing happens when it is not there. */
export async function removeMembershipLine(db: Db, input: { cartId: string; tierId: string; now: Date }) {
  await db.delete(cartItems).where(and(eq(cartItems.cartId, input.cartId), eq(cartItems.tierId, input.tierId)));
  await db.update(carts).set({ updatedAt: input.now }).where(eq(carts.id, input.cartId));
}

/** Memberships on the cart page: the tier, the people it names, and what joining today costs. */
export const membershipCart: KindCart = {
  sections: [{ id: "cart-membership", title: "Membership" }],
  lines: membershipCartLines,
};

async function membershipCartLines(
  db: Db,
  rows: CartRow[],
  context: { userId?: string; now: Date },
): Promise<CartLineView[]> {
  const { now } = context;
  const places = await readTierPlaces(
    db,
    rows.flatMap((row) => (row.tierId ? [row.tierId] : [])),
    now,
    { lock: false, exceptUserId: context.userId },
  );
  const own = context.userId ? await membershipOf(db, context.userId) : null;
  return rows.flatMap((row, index) => {
    const tier = row.tierId ? places.tiers.get(row.tierId) : undefined;
    if (!tier) return [];
    const problem =
      index > 0
        ? { message: "A member holds one membership at a time: keep one tier in your cart" }
        : joinProblem({
            tier,
            placesLeft: placesLeft(tier),
            current: own ? statusOf(own.membership, now) : null,
            people: row.attendeeNames,
            formatDate: (date) => membershipDate(date, tier.timeZone),
          });
    const name = `${tier.name} membership`;
    return [
      {
        section: "cart-membership",
        ref: tier.id,
        label: name,
        header: {
          href: "/membership",
          of: "Membership",
          name: tier.name,
          detail: row.attendeeNames.length > 0 ? `With ${row.attendeeNames.join(", ")}` : null,
        },
        unitPrice: joiningPrice(termOf(tier), tier.price, now, tier.timeZone),
        quantity: 1,
        target: { tierId: tier.id },
        item: { kind: "membership", tierId: tier.id },
        problem: problem?.message ?? null,
        problemId: `membership-problem-${tier.id}`,
        closed: !tier.onSale,
        update: null,
        remove: { intent: "remove-membership", label: `Remove ${name}` },
      },
    ];
  });
}
