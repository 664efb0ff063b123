/**
 * Member prices, the same rule for every kind that has them (ticket types, merch variants, draw
 * bundles; docs/membership.md, "Member prices…"): a buyer who holds a membership with its benefits
 * pays their tier's price where the item has one, else the member price where there is one;
 * everyone else pays the price.
 */

/**
 * Something sold with an optional member price (null or absent: members pay the same) and
 * optional prices for members of one tier, by tier id (absent: the member price).
 */
export type MemberPriced = {
  price: number;
  memberPrice?: number | null;
  tierPrices?: Readonly<Record<string, number>> | null;
};

/** Who is buying, as prices see them: whether they hold a membership with its benefits, and its tier. */
export type PriceBuyer = { member: boolean; tierId?: string | null };

/** What `buyer` pays for one unit. */
export function buyerPrice(item: MemberPriced, buyer: PriceBuyer) {
  if (!buyer.member) return item.price;
  const tierPrice = buyer.tierId ? item.tierPrices?.[buyer.tierId] : undefined;
  if (tierPrice !== undefined) return tierPrice;
  return item.memberPrice !== null && item.memberPrice !== undefined ? item.memberPrice : item.price;
}

/**
 * What members pay, to show a buyer who is not one ("Members pay £15.00"): the price for members of
 * any tier; null when the buyer is a member, or there is no such price.
 */
export function memberOffer(item: MemberPriced, buyer: PriceBuyer) {
  return !buyer.member && item.memberPrice !== null && item.memberPrice !== undefined ? item.memberPrice : null;
}

/**
 * A cart line's price for `buyer`, what membership saves on its `quantity` units, and what members
 * pay when the buyer is not one (the cart page's `unitPrice`, `memberSaving` and `memberPrice`).
 */
export function memberLinePrice(item: MemberPriced, buyer: PriceBuyer, quantity: number) {
  const unitPrice = buyerPrice(item, buyer);
  return {
    unitPrice,
    memberSaving: (item.price - unitPrice) * quantity,
    memberPrice: memberOffer(item, buyer) ?? undefined,
  };
}
