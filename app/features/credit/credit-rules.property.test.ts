import { describe, expect, it } from "vitest";
import { seededRandom as generator } from "~/server/seeded-random";
import {
  availableAt,
  balanceOf,
  type CreditLine,
  creditToSpend,
  drawsFor,
  expiriesDue,
  refundSplit,
} from "./credit-rules";

const DAY = 86_400_000;

/**
 * The independent model: a plain mutable list of lots (what is left of each grant and when it
 * runs out), spent by taking from whichever live lot runs out first. Nothing in it uses the rules.
 */
type Lot = { left: number; expiresAt: number };

function modelSpend(lots: Lot[], wanted: number, now: number) {
  let spent = 0;
  while (spent < wanted) {
    let best: Lot | undefined;
    for (const lot of lots) {
      if (lot.left > 0 && lot.expiresAt > now && (!best || lot.expiresAt < best.expiresAt)) best = lot;
    }
    if (!best) break;
    const take = Math.min(best.left, wanted - spent);
    best.left -= take;
    spent += take;
  }
  return spent;
}

function run(seed: number, steps: number) {
  const random = generator(seed);
  const int = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  let now = Date.UTC(2027, 0, 1);
  let id = 0;
  const ledger: CreditLine[] = [];
  const lots: Lot[] = [];
  const lotOf = new Map<string, Lot>();
  const orders: { creditOutstanding: number }[] = [];
  const post = (line: Omit<CreditLine, "id" | "createdAt">) => {
    const written = { ...line, id: `e${String(++id).padStart(6, "0")}`, createdAt: new Date(now) };
    ledger.push(written);
    return written;
  };
  const grant = (amount: number, expiresAt: number | null) => {
    const line = post({ amount, expiresAt: expiresAt === null ? null : new Date(expiresAt), grantId: null });
    const lot = { left: amount, expiresAt: expiresAt ?? Number.POSITIVE_INFINITY };
    lots.push(lot);
    lotOf.set(line.id, lot);
  };

  for (let step = 0; step < steps; step++) {
    const roll = random();
    if (roll < 0.15) {
      // The clock moves on: up to 100 days.
      now += int(0, 100) * DAY + int(0, DAY);
    } else if (roll < 0.4) {
      // Staff refund an order to credit, kept for 1 to 18 months or for ever.
      const months = int(0, 18);
      grant(int(1, 20_000), months === 0 ? null : now + months * 30 * DAY);
    } else if (roll < 0.7) {
      // A purchase: credit first, up to the total.
      const total = int(0, 15_000);
      const spend = creditToSpend(total, availableAt(ledger, new Date(now)));
      const draws = drawsFor(ledger, spend, new Date(now));
      expect(draws.reduce((sum, part) => sum + part.amount, 0)).toBe(spend);
      for (const part of draws) post({ amount: -part.amount, expiresAt: null, grantId: part.grantId });
      expect(modelSpend(lots, total, now)).toBe(spend);
      orders.push({ creditOutstanding: spend });
    } else if (roll < 0.85 && orders.length > 0) {
      // A refund (or a cancellation) of an earlier purchase: its credit part comes back first.
      const order = orders[int(0, orders.length - 1)];
      if (!order) continue;
      const split = refundSplit(int(0, 15_000), order.creditOutstanding);
      if (split.credit > 0) {
        order.creditOutstanding -= split.credit;
        grant(split.credit, now + 365 * DAY);
      }
    } else {
      // The expiry sweep.
      for (const due of expiriesDue(ledger, new Date(now))) {
        post({ amount: -due.amount, expiresAt: null, grantId: due.grantId });
        const lot = lotOf.get(due.grantId);
        if (lot) lot.left -= due.amount;
      }
    }
    const balance = balanceOf(ledger);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(balance).toBe(ledger.reduce((sum, line) => sum + line.amount, 0));
    expect(balance).toBe(lots.reduce((sum, lot) => sum + lot.left, 0));
    expect(availableAt(ledger, new Date(now))).toBe(
      lots.filter((lot) => lot.expiresAt > now).reduce((sum, lot) => sum + lot.left, 0),
    );
    for (const lot of lots) expect(lot.left).toBeGreaterThanOrEqual(0);
  }
  return ledger.length;
}

describe("account credit under random purchases, refunds and expiries", () => {
  for (const seed of [1, 7, 42, 2027, 31337, 424242, 9_000_001, 123456789]) {
    it(`never goes below nothing and always matches the plain model (seed ${seed})`, () => {
      expect(run(seed, 400)).toBeGreaterThan(0);
    });
  }
});
