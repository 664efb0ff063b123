import { describe, expect, it } from "vitest";
import {
  availableAt,
  balanceOf,
  type CreditLine,
  creditToSpend,
  drawsFor,
  expiriesDue,
  grantsLeft,
  latestExpiry,
  monthsAfter,
  refundSplit,
} from "./credit-rules";

const NOW = new Date("2027-05-01T10:00:00Z");
const days = (n: number) => new Date(NOW.getTime() + n * 86_400_000);

let next = 0;
const grant = (amount: number, expiresAt: Date | null, createdAt = NOW): CreditLine => ({
  id: `g${++next}`,
  amount,
  expiresAt,
  grantId: null,
  createdAt,
});
const draw = (from: CreditLine, amount: number): CreditLine => ({
  id: `d${++next}`,
  amount: -amount,
  expiresAt: null,
  grantId: from.id,
  createdAt: NOW,
});

describe("the balance", () => {
  it("is the sum of the ledger's lines", () => {
    const a = grant(1500, days(30));
    expect(balanceOf([a, draw(a, 400)])).toBe(1100);
    expect(balanceOf([])).toBe(0);
  });

  it("counts credit that has run out as spendable no more, even before its expiry is written", () => {
    const a = grant(1500, days(30));
    const b = grant(500, null);
    expect(availableAt([a, b], NOW)).toBe(2000);
    expect(availableAt([a, b], days(30))).toBe(500);
    expect(balanceOf([a, b])).toBe(2000);
  });
});

describe("which credit a spend uses", () => {
  it("uses the credit that runs out first, and credit that never runs out last", () => {
    const never = grant(1000, null);
    const late = grant(1000, days(90));
    const soon = grant(300, days(10));
    expect(drawsFor([never, late, soon], 1500, NOW)).toEqual([
      { grantId: soon.id, amount: 300 },
      { grantId: late.id, amount: 1000 },
      { grantId: never.id, amount: 200 },
    ]);
  });

  it("takes what is left of a grant after earlier spends, and no more than there is", () => {
    const a = grant(1000, days(10));
    expect(drawsFor([a, draw(a, 700)], 5000, NOW)).toEqual([{ grantId: a.id, amount: 300 }]);
    expect(drawsFor([a, draw(a, 1000)], 5000, NOW)).toEqual([]);
  });

  it("never uses credit that has run out", () => {
    const gone = grant(1000, days(-1));
    const kept = grant(200, days(1));
    expect(drawsFor([gone, kept], 1000, NOW)).toEqual([{ grantId: kept.id, amount: 200 }]);
  });

  it("uses the older of two grants that run out together", () => {
    const older = grant(100, days(5), days(-2));
    const newer = grant(100, days(5), days(-1));
    expect(drawsFor([newer, older], 150, NOW)).toEqual([
      { grantId: older.id, amount: 100 },
      { grantId: newer.id, amount: 50 },
    ]);
  });

  it("covers an order up to its total, and only what is available", () => {
    expect(creditToSpend(2500, 1000)).toBe(1000);
    expect(creditToSpend(800, 1000)).toBe(800);
    expect(creditToSpend(800, 0)).toBe(0);
  });

  it("refuses a spend that is not a whole number of pence", () => {
    expect(() => drawsFor([], -1, NOW)).toThrow();
    expect(() => drawsFor([], 1.5, NOW)).toThrow();
  });
});

describe("what runs out", () => {
  it("is what is left of each grant whose expiry has come, at that very moment", () => {
    const a = grant(1000, days(10));
    const b = grant(500, days(20));
    const lines = [a, b, draw(a, 600)];
    expect(expiriesDue(lines, days(9))).toEqual([]);
    expect(expiriesDue(lines, days(10))).toEqual([{ grantId: a.id, amount: 400 }]);
    expect(expiriesDue(lines, days(20))).toEqual([
      { grantId: a.id, amount: 400 },
      { grantId: b.id, amount: 500 },
    ]);
  });

  it("is nothing once the expiry is written, or for credit spent in full", () => {
    const a = grant(1000, days(10));
    const spent = grant(300, days(10));
    expect(expiriesDue([a, draw(a, 1000), spent, draw(spent, 300)], days(11))).toEqual([]);
  });

  it("lists each grant with something left in the order it would be spent", () => {
    const a = grant(1000, null);
    const b = grant(500, days(20));
    expect(grantsLeft([a, b]).map((left) => left.grantId)).toEqual([b.id, a.id]);
  });

  it("gives credit given back the latest expiry of the grants it came from", () => {
    expect(latestExpiry([{ expiresAt: days(3) }, { expiresAt: days(9) }])).toEqual(days(9));
    expect(latestExpiry([{ expiresAt: days(3) }, { expiresAt: null }])).toBeNull();
  });

  it("keeps a refund to credit for whole calendar months", () => {
    expect(monthsAfter(new Date("2027-01-31T12:00:00Z"), 1)).toEqual(new Date("2027-02-28T12:00:00Z"));
    expect(monthsAfter(new Date("2027-05-01T10:00:00Z"), 12)).toEqual(new Date("2028-05-01T10:00:00Z"));
  });
});

describe("refunding an order that spent credit", () => {
  it("gives the credit back first, then the rest", () => {
    expect(refundSplit(1500, 1000)).toEqual({ credit: 1000, rest: 500 });
    expect(refundSplit(600, 1000)).toEqual({ credit: 600, rest: 0 });
    expect(refundSplit(600, 0)).toEqual({ credit: 0, rest: 600 });
  });
});
