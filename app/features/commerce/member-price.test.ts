import { describe, expect, it } from "vitest";
import { buyerPrice, memberLinePrice, memberOffer } from "./member-price";

const FAMILY = "tier-family";
const ANNUAL = "tier-annual";
const ticket = { price: 14900, memberPrice: 12900, tierPrices: { [FAMILY]: 11900 } };
const visitor = { member: false, tierId: null };
const family = { member: true, tierId: FAMILY };
const annual = { member: true, tierId: ANNUAL };

describe("member prices", () => {
  it("charges a member of a tier with its own price that price", () => {
    expect(buyerPrice(ticket, family)).toBe(11900);
  });

  it("charges a member of any other tier the member price", () => {
    expect(buyerPrice(ticket, annual)).toBe(12900);
    expect(buyerPrice(ticket, { member: true })).toBe(12900);
  });

  it("charges everyone else the price", () => {
    expect(buyerPrice(ticket, visitor)).toBe(14900);
    expect(buyerPrice(ticket, { member: false })).toBe(14900);
  });

  it("gives a tier's price only to a buyer whose membership has its benefits", () => {
    expect(buyerPrice(ticket, { member: false, tierId: FAMILY })).toBe(14900);
  });

  it("charges a tier's price even where members of other tiers pay the price", () => {
    const item = { price: 2200, memberPrice: null, tierPrices: { [FAMILY]: 1500 } };
    expect(buyerPrice(item, family)).toBe(1500);
    expect(buyerPrice(item, annual)).toBe(2200);
  });

  it("charges members the price of an item without member prices", () => {
    expect(buyerPrice({ price: 800 }, family)).toBe(800);
    expect(buyerPrice({ price: 800, memberPrice: null, tierPrices: {} }, annual)).toBe(800);
  });

  it("counts a tier's price of nothing as a price", () => {
    expect(buyerPrice({ price: 800, memberPrice: 600, tierPrices: { [FAMILY]: 0 } }, family)).toBe(0);
  });

  it("shows a buyer who is not a member what members of any tier pay, and a member nothing", () => {
    expect(memberOffer(ticket, visitor)).toBe(12900);
    expect(memberOffer(ticket, family)).toBeNull();
    expect(memberOffer({ price: 800, tierPrices: { [FAMILY]: 600 } }, visitor)).toBeNull();
  });

  it("makes a cart line's saving what the buyer's own price saves", () => {
    expect(memberLinePrice(ticket, family, 2)).toEqual({
      unitPrice: 11900,
      memberSaving: 6000,
      memberPrice: undefined,
    });
    expect(memberLinePrice(ticket, annual, 2)).toEqual({
      unitPrice: 12900,
      memberSaving: 4000,
      memberPrice: undefined,
    });
    expect(memberLinePrice(ticket, visitor, 2)).toEqual({ unitPrice: 14900, memberSaving: 0, memberPrice: 12900 });
  });
});
