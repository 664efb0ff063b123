/**
 * Member prices, the same rule for every kind that has them (ticket types, merch variants, draw
 * bundles; docs/membership.md, "Member prices…"): a buyer who holds a membership with its benefits
 * pays the member price where there is one; everyone else pays the price.
 */

/** Something sold with an optional member price (null or absent: members pay the same). */
type MemberPriced = { price: number; memberPrice?: number | null };

/** What `buyer` pays for one unit. */
export function buyerPrice(item: MemberPriced, buyer: { member: boolean }) {
  return buyer.member && item.memberPrice !== null && item.memberPrice !== undefined ? item.memberPrice : item.price;
}

/** What members pay, to show a buyer who is not one ("Members pay £15.00"); null when they are, or it is the same. */
export function memberOffer(item: MemberPriced, buyer: { member: boolean }) {
  return !buyer.member && item.memberPrice !== null && item.memberPrice !== undefined ? item.memberPrice : null;
}

/**
 * A cart line's price for `buyer`, what membership saves on its `quantity` units, and what members
 * pay when the buyer is not one (the cart page's `unitPrice`, `memberSaving` and `memberPrice`).
 */
export function memberLinePrice(item: MemberPriced, buyer: { member: boolean }, quantity: number) {
  const unitPrice = buyerPrice(item, buyer);
  return {
    unitPrice,
    memberSaving: (item.price - unitPrice) * quantity,
    memberPrice: memberOffer(item, buyer) ?? undefined,
  };
}
