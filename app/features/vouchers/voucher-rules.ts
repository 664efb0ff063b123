import { formatEventInstant } from "~/features/dates/event-dates";
import { formatMoney } from "~/ui/money";
import { plural } from "~/ui/plural";
import type { vouchers } from "../../../db/schema";

/**
 * The rules of vouchers and discount codes, as pure functions: which items a code applies to,
 * what it takes off them, whether it can be used now, and what a refund gives back of it. The
 * cart reads them against counts taken without locks, for advice; checkout again under the
 * voucher's row lock, where they decide.
 */

export type VoucherTerms = Pick<
  typeof vouchers.$inferSelect,
  | "code"
  | "effect"
  | "value"
  | "kinds"
  | "eventIds"
  | "ticketTypeIds"
  | "productIds"
  | "variantIds"
  | "tierIds"
  | "drawIds"
  | "maxUses"
  | "maxUsesPerMember"
  | "validFrom"
  | "validUntil"
  | "minBasket"
  | "active"
  | "forUserId"
>;

/** An item of a basket as a voucher sees it: what it is, what it belongs to, its price. */
export type PricedLine = {
  /** Names the line to the caller (its ticket type, draw bundle, variant or tier). */
  ref: string;
  /** The item kind's name. */
  kind: string;
  eventId?: string | null;
  ticketTypeId?: string | null;
  productId?: string | null;
  variantId?: string | null;
  tierId?: string | null;
  drawId?: string | null;
  unitPrice: number;
  quantity: number;
};

/** Uses already made by other orders: in all, and by this member. */
export type VoucherUses = { all: number; member: number };

/** What a code is typed as: spaces and dashes are not part of it, nor is the case of its letters. */
export function normaliseCode(input: string) {
  return input.replace(/[\s-]+/g, "").toUpperCase();
}

/** A code staff may choose: 3 to 32 letters and digits. */
export function isWellFormedCode(code: string) {
  return /^[A-Z0-9]{3,32}$/.test(code);
}

function hasTargets(voucher: VoucherTerms) {
  return [
    voucher.kinds,
    voucher.eventIds,
    voucher.ticketTypeIds,
    voucher.productIds,
    voucher.variantIds,
    voucher.tierIds,
    voucher.drawIds,
  ].some((list) => list.length > 0);
}

/** Whether the code prices this item: every item when it names no targets, else one it names. */
export function appliesTo(voucher: VoucherTerms, line: PricedLine) {
  if (!hasTargets(voucher)) return true;
  const named = (list: readonly string[], id: string | null | undefined) => id != null && list.includes(id);
  return (
    (voucher.kinds as readonly string[]).includes(line.kind) ||
    (line.kind === "ticket" &&
      (named(voucher.eventIds, line.eventId) || named(voucher.ticketTypeIds, line.ticketTypeId))) ||
    (line.kind === "merch" &&
      (named(voucher.productIds, line.productId) || named(voucher.variantIds, line.variantId))) ||
    (line.kind === "membership" && named(voucher.tierIds, line.tierId)) ||
    (line.kind === "entry" && named(voucher.drawIds, line.drawId))
  );
}

/** What the code takes off one item of this price: never more than the price. */
export function unitDiscount(voucher: Pick<VoucherTerms, "effect" | "value">, unitPrice: number) {
  switch (voucher.effect) {
    case "amount_off":
      return Math.min(unitPrice, voucher.value);
    case "percent_off":
      return Math.min(unitPrice, Math.round((unitPrice * voucher.value) / 100));
    case "set_price":
      return Math.max(0, unitPrice - voucher.value);
  }
}

export type VoucherPricing = {
  /** Pence taken off each line it applies to, by the line's `ref`. */
  discounts: Map<string, number>;
  /** Items priced: the uses this basket makes. */
  units: number;
  amount: number;
};

/** What the code does to this basket, leaving aside whether it may be used. */
export function priceWithVoucher(voucher: VoucherTerms, lines: readonly PricedLine[]): VoucherPricing {
  const discounts = new Map<string, number>();
  let units = 0;
  let amount = 0;
  for (const line of lines) {
    if (!appliesTo(voucher, line)) continue;
    const off = unitDiscount(voucher, line.unitPrice) * line.quantity;
    discounts.set(line.ref, off);
    units += line.quantity;
    amount += off;
  }
  return { discounts, units, amount };
}

/**
 * Why the code cannot be used on this basket now (null when it can). `uses` are other orders'
 * uses; `memberKnown` is false for a visitor, whose own uses are checked once they sign in.
 */
export function voucherProblem(
  voucher: VoucherTerms,
  basket: {
    lines: readonly PricedLine[];
    uses: VoucherUses;
    now: Date;
    currency: string;
    timeZone: string;
    /** The buyer, when signed in: a code made for one member is theirs alone. */
    userId?: string | null;
  },
): string | null {
  const { code } = voucher;
  if (!voucher.active) return `The code ${code} is no longer valid`;
  if (voucher.forUserId !== null && voucher.forUserId !== undefined && basket.userId !== voucher.forUserId) {
    return basket.userId ? `The code ${code} is for another member` : `Sign in to use the code ${code}`;
  }
  if (voucher.validFrom && basket.now < voucher.validFrom) {
    return `The code ${code} can be used from ${formatEventInstant(voucher.validFrom, basket.timeZone)}`;
  }
  if (voucher.validUntil && basket.now >= voucher.validUntil) {
    return `The code ${code} ended on ${formatEventInstant(voucher.validUntil, basket.timeZone)}`;
  }
  const pricing = priceWithVoucher(voucher, basket.lines);
  if (pricing.units === 0) return `The code ${code} does not apply to anything in your cart`;
  const subtotal = basket.lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0);
  if (voucher.minBasket !== null && subtotal < voucher.minBasket) {
    return `The code ${code} needs a basket of ${formatMoney(voucher.minBasket, basket.currency)} or more`;
  }
  const left = usesLeft(voucher, basket.uses);
  if (left === 0) {
    return voucher.maxUsesPerMember !== null && voucher.maxUsesPerMember - basket.uses.member <= 0
      ? `You have used the code ${code} as many times as it allows`
      : `The code ${code} has been used up`;
  }
  if (left !== null && pricing.units > left) {
    return `The code ${code} can take ${left} ${plural(left, "more item", "more items")} off: remove ${pricing.units - left} to use it`;
  }
  return null;
}

/** Items the code can still price for this member; null: no limit. */
export function usesLeft(voucher: Pick<VoucherTerms, "maxUses" | "maxUsesPerMember">, uses: VoucherUses) {
  const limits = [
    voucher.maxUses === null ? null : voucher.maxUses - uses.all,
    voucher.maxUsesPerMember === null ? null : voucher.maxUsesPerMember - uses.member,
  ].filter((left): left is number => left !== null);
  return limits.length === 0 ? null : Math.max(0, Math.min(...limits));
}

/**
 * The share of a line's discount that units refunded now take back: the same off each unit, so
 * refunding some units gives back their price less their share, and refunding the rest later
 * gives back exactly what is left of it.
 */
export function refundedDiscount(
  line: { discount: number; quantity: number; refundedQuantity: number },
  refundingNow: number,
) {
  const before = Math.floor((line.discount * line.refundedQuantity) / line.quantity);
  const after = Math.floor((line.discount * (line.refundedQuantity + refundingNow)) / line.quantity);
  return after - before;
}

/** How the code reads in a list: "£5.00 off", "10% off", "£0.00 each". */
export function describeEffect(voucher: Pick<VoucherTerms, "effect" | "value">, currency: string) {
  switch (voucher.effect) {
    case "amount_off":
      return `${formatMoney(voucher.value, currency)} off each item`;
    case "percent_off":
      return `${voucher.value}% off`;
    case "set_price":
      return `${formatMoney(voucher.value, currency)} each`;
  }
}
