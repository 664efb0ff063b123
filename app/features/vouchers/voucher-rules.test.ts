import { describe, expect, it } from "vitest";
import {
  appliesTo,
  describeEffect,
  isWellFormedCode,
  normaliseCode,
  type PricedLine,
  priceWithVoucher,
  refundedDiscount,
  unitDiscount,
  usesLeft,
  type VoucherTerms,
  voucherProblem,
} from "./voucher-rules";

const NOW = new Date("2027-03-01T12:00:00Z");

function voucher(terms: Partial<VoucherTerms> = {}): VoucherTerms {
  return {
    code: "SPRING10",
    effect: "percent_off",
    value: 10,
    kinds: [],
    eventIds: [],
    ticketTypeIds: [],
    productIds: [],
    variantIds: [],
    tierIds: [],
    drawIds: [],
    maxUses: null,
    maxUsesPerMember: null,
    validFrom: null,
    validUntil: null,
    minBasket: null,
    active: true,
    forUserId: null,
    ...terms,
  };
}

const ticket: PricedLine = {
  ref: "t",
  kind: "ticket",
  eventId: "e1",
  ticketTypeId: "tt1",
  unitPrice: 2500,
  quantity: 2,
};
const tee: PricedLine = { ref: "m", kind: "merch", productId: "p1", variantId: "v-m", unitPrice: 1800, quantity: 1 };
const tier: PricedLine = { ref: "j", kind: "membership", tierId: "annual", unitPrice: 3000, quantity: 1 };
const entries: PricedLine = { ref: "d", kind: "entry", drawId: "d1", unitPrice: 500, quantity: 3 };

const basket = (lines: PricedLine[], uses = { all: 0, member: 0 }) => ({
  lines,
  uses,
  now: NOW,
  currency: "GBP",
  timeZone: "Europe/London",
});

describe("a code as typed", () => {
  it("ignores case, spaces and dashes", () => {
    expect(normaliseCode(" spring-10 ")).toBe("SPRING10");
    expect(normaliseCode("ab cd ef")).toBe("ABCDEF");
  });

  it("is 3 to 32 letters and digits", () => {
    expect(isWellFormedCode("AB")).toBe(false);
    expect(isWellFormedCode("ABC")).toBe(true);
    expect(isWellFormedCode("A".repeat(33))).toBe(false);
    expect(isWellFormedCode("CREW_2027")).toBe(false);
  });
});

describe("what a code applies to", () => {
  it("is everything when it names nothing", () => {
    for (const line of [ticket, tee, tier, entries]) expect(appliesTo(voucher(), line)).toBe(true);
  });

  it("is any item it names: a kind, an event, a ticket type, a product, a tier or a draw", () => {
    expect(appliesTo(voucher({ kinds: ["membership"] }), tier)).toBe(true);
    expect(appliesTo(voucher({ kinds: ["membership"] }), ticket)).toBe(false);
    expect(appliesTo(voucher({ eventIds: ["e1"] }), ticket)).toBe(true);
    expect(appliesTo(voucher({ ticketTypeIds: ["tt2"] }), ticket)).toBe(false);
    expect(appliesTo(voucher({ productIds: ["p1"] }), tee)).toBe(true);
    expect(appliesTo(voucher({ tierIds: ["annual"] }), tier)).toBe(true);
    expect(appliesTo(voucher({ drawIds: ["d1"] }), entries)).toBe(true);
    expect(appliesTo(voucher({ drawIds: ["d1"], productIds: ["p1"] }), tee)).toBe(true);
  });

  it("is one variant of a product when it names that variant (a waiting-list offer)", () => {
    expect(appliesTo(voucher({ variantIds: [tee.variantId!] }), tee)).toBe(true);
    expect(appliesTo(voucher({ variantIds: ["another-size"] }), tee)).toBe(false);
    expect(appliesTo(voucher({ variantIds: [tee.variantId!] }), ticket)).toBe(false);
  });

  it("never matches an id of one kind against another kind's line", () => {
    expect(appliesTo(voucher({ eventIds: ["p1"] }), tee)).toBe(false);
  });
});

describe("what a code takes off one item", () => {
  it("takes an amount off, never below nothing", () => {
    expect(unitDiscount({ effect: "amount_off", value: 500 }, 2500)).toBe(500);
    expect(unitDiscount({ effect: "amount_off", value: 5000 }, 2500)).toBe(2500);
  });

  it("takes a percentage off, to the nearest penny", () => {
    expect(unitDiscount({ effect: "percent_off", value: 10 }, 2499)).toBe(250);
    expect(unitDiscount({ effect: "percent_off", value: 100 }, 2499)).toBe(2499);
  });

  it("sets the price, never raising it", () => {
    expect(unitDiscount({ effect: "set_price", value: 0 }, 2500)).toBe(2500);
    expect(unitDiscount({ effect: "set_price", value: 1000 }, 2500)).toBe(1500);
    expect(unitDiscount({ effect: "set_price", value: 3000 }, 2500)).toBe(0);
  });

  it("reads as staff and buyers see it", () => {
    expect(describeEffect({ effect: "amount_off", value: 500 }, "GBP")).toBe("£5.00 off each item");
    expect(describeEffect({ effect: "percent_off", value: 15 }, "GBP")).toBe("15% off");
    expect(describeEffect({ effect: "set_price", value: 0 }, "GBP")).toBe("£0.00 each");
  });
});

describe("pricing a basket", () => {
  it("discounts each line it applies to, each unit the same, and counts the items as uses", () => {
    const pricing = priceWithVoucher(voucher({ kinds: ["ticket", "entry"] }), [ticket, tee, entries]);
    expect(Object.fromEntries(pricing.discounts)).toEqual({ t: 500, d: 150 });
    expect(pricing.units).toBe(5);
    expect(pricing.amount).toBe(650);
  });
});

describe("whether a code can be used now", () => {
  it("can on a basket it applies to, within its limits", () => {
    expect(voucherProblem(voucher(), basket([ticket]))).toBeNull();
  });

  it("cannot once staff switch it off", () => {
    expect(voucherProblem(voucher({ active: false }), basket([ticket]))).toBe("The code SPRING10 is no longer valid");
  });

  it("cannot before it starts or from the moment it ends, saying when in the club's time", () => {
    const from = new Date("2027-03-02T09:00:00Z");
    expect(voucherProblem(voucher({ validFrom: from }), basket([ticket]))).toBe(
      "The code SPRING10 can be used from Tue 2 Mar 2027, 09:00 GMT",
    );
    expect(voucherProblem(voucher({ validUntil: NOW }), basket([ticket]))).toMatch(/^The code SPRING10 ended on /);
    expect(voucherProblem(voucher({ validUntil: new Date(NOW.getTime() + 1) }), basket([ticket]))).toBeNull();
  });

  it("cannot on a basket it does not apply to", () => {
    expect(voucherProblem(voucher({ kinds: ["membership"] }), basket([ticket]))).toBe(
      "The code SPRING10 does not apply to anything in your cart",
    );
  });

  it("needs the basket, before any discount, to reach its minimum", () => {
    expect(voucherProblem(voucher({ minBasket: 5001 }), basket([ticket]))).toBe(
      "The code SPRING10 needs a basket of £50.01 or more",
    );
    expect(voucherProblem(voucher({ minBasket: 5000 }), basket([ticket]))).toBeNull();
  });

  it("cannot once its uses are gone, or the member's own", () => {
    expect(voucherProblem(voucher({ maxUses: 5 }), basket([ticket], { all: 5, member: 0 }))).toBe(
      "The code SPRING10 has been used up",
    );
    expect(voucherProblem(voucher({ maxUsesPerMember: 1 }), basket([tier], { all: 40, member: 1 }))).toBe(
      "You have used the code SPRING10 as many times as it allows",
    );
  });

  it("made for one member (a waiting-list offer), is theirs alone, and asks a visitor to sign in", () => {
    const offer = voucher({ forUserId: "user-ann" });
    expect(voucherProblem(offer, { ...basket([ticket]), userId: "user-ann" })).toBeNull();
    expect(voucherProblem(offer, { ...basket([ticket]), userId: "user-bob" })).toBe(
      "The code SPRING10 is for another member",
    );
    expect(voucherProblem(offer, basket([ticket]))).toBe("Sign in to use the code SPRING10");
  });

  it("cannot price more items than it has uses left, saying how many it can", () => {
    expect(voucherProblem(voucher({ maxUses: 50 }), basket([ticket], { all: 49, member: 0 }))).toBe(
      "The code SPRING10 can take 1 more item off: remove 1 to use it",
    );
  });
});

describe("uses left", () => {
  it("is the tighter of the two limits, never below nothing; null without limits", () => {
    expect(usesLeft({ maxUses: null, maxUsesPerMember: null }, { all: 9, member: 9 })).toBeNull();
    expect(usesLeft({ maxUses: 10, maxUsesPerMember: 2 }, { all: 3, member: 1 })).toBe(1);
    expect(usesLeft({ maxUses: 10, maxUsesPerMember: null }, { all: 12, member: 0 })).toBe(0);
  });
});

describe("a refund's share of the discount", () => {
  it("gives back each refunded unit's share, and the rest exactly with the last units", () => {
    const line = { discount: 1000, quantity: 3, refundedQuantity: 0 };
    const first = refundedDiscount(line, 1);
    const rest = refundedDiscount({ ...line, refundedQuantity: 1 }, 2);
    expect(first).toBe(333);
    expect(first + rest).toBe(1000);
  });

  it("is nothing for a line the code did not touch", () => {
    expect(refundedDiscount({ discount: 0, quantity: 4, refundedQuantity: 1 }, 2)).toBe(0);
  });
});
