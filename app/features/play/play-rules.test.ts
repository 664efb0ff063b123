import { describe, expect, it } from "vitest";
import {
  addMonths,
  breakProblem,
  changeLimits,
  coolOffEnd,
  exclusionEnd,
  extendedUntil,
  isStricter,
  leftToSpend,
  NO_PLAY_SETTINGS,
  type PlaySettings,
  settingsAt,
  spendProblem,
} from "./play-rules";

const NOW = new Date("2027-05-01T10:00:00Z");
const hours = (n: number) => new Date(NOW.getTime() + n * 3_600_000);
const withLimits = (weekly: number | null, monthly: number | null): PlaySettings => ({
  ...NO_PLAY_SETTINGS,
  weekly,
  monthly,
});

describe("spending limits", () => {
  it("orders limits from strictest: 0, then amounts, then none", () => {
    expect(isStricter(0, 500)).toBe(true);
    expect(isStricter(500, null)).toBe(true);
    expect(isStricter(null, 500)).toBe(false);
    expect(isStricter(500, 500)).toBe(false);
  });

  it("applies a lower limit at once, with nothing pending", () => {
    expect(changeLimits(withLimits(5000, null), { weekly: 2000, monthly: 6000 }, NOW)).toEqual({
      weekly: 2000,
      monthly: 6000,
      pending: null,
    });
    expect(changeLimits(withLimits(null, null), { weekly: 0, monthly: null }, NOW)).toMatchObject({
      weekly: 0,
      pending: null,
    });
  });

  it("makes a raise or a removal wait 24 hours, keeping the stricter limit meanwhile", () => {
    const next = changeLimits(withLimits(1000, 3000), { weekly: 5000, monthly: 2000 }, NOW);
    expect(next).toEqual({
      weekly: 1000,
      monthly: 2000,
      pending: { weekly: 5000, monthly: 2000, from: hours(24).toISOString() },
    });
    const removed = changeLimits(withLimits(0, null), { weekly: null, monthly: null }, NOW);
    expect(removed).toMatchObject({ weekly: 0, pending: { weekly: null, monthly: null } });
  });

  it("applies a pending raise only once its day has passed", () => {
    const settings = {
      ...withLimits(1000, null),
      pending: { weekly: 5000, monthly: null, from: hours(24).toISOString() },
    };
    expect(settingsAt(settings, hours(23))).toMatchObject({ weekly: 1000, raiseApplied: false });
    expect(settingsAt(settings, hours(24))).toMatchObject({ weekly: 5000, pending: null, raiseApplied: true });
  });

  it("keeps the time of a pending raise chosen again, and drops it when a lower limit replaces it", () => {
    const first = changeLimits(withLimits(1000, null), { weekly: 5000, monthly: null }, NOW);
    const settings = { ...withLimits(first.weekly, first.monthly), pending: first.pending };
    expect(changeLimits(settings, { weekly: 5000, monthly: null }, hours(5)).pending).toEqual(first.pending);
    expect(changeLimits(settings, { weekly: 500, monthly: null }, hours(5))).toEqual({
      weekly: 500,
      monthly: null,
      pending: null,
    });
  });

  it("refuses paid entries over a limit, naming it and what is left; £0 refuses any paid entry", () => {
    const spend = { week: 700, month: 2500 };
    expect(spendProblem({ weekly: 1000, monthly: null }, spend, 300)).toBeNull();
    expect(spendProblem({ weekly: 1000, monthly: null }, spend, 301)).toEqual({
      code: "spend_limit",
      message:
        "These entries (£3.01) would take you over your weekly limit of £10.00 for prize draws: £3.00 is left for the last 7 days",
    });
    expect(spendProblem({ weekly: null, monthly: 3000 }, spend, 600)?.message).toMatch(
      /monthly limit of £30\.00 .*£5\.00 is left for the last 30 days/,
    );
    expect(spendProblem({ weekly: 0, monthly: null }, { week: 0, month: 0 }, 1)?.message).toMatch(
      /weekly limit for prize draws is £0\.00, so paid entries are off/,
    );
    // Free entries are never refused by a limit.
    expect(spendProblem({ weekly: 0, monthly: 0 }, spend, 0)).toBeNull();
    expect(leftToSpend({ weekly: 1000, monthly: null }, { week: 1500, month: 0 })).toEqual({ week: 0, month: null });
  });
});

describe("cool-off and self-exclusion", () => {
  it("offers 24 hours, 7 and 30 days of cool-off, and 6 months, 1 and 5 years of exclusion", () => {
    expect(coolOffEnd("24h", NOW)).toEqual(hours(24));
    expect(coolOffEnd("7d", NOW)).toEqual(hours(7 * 24));
    expect(coolOffEnd("30d", NOW)).toEqual(hours(30 * 24));
    expect(exclusionEnd("6m", NOW).toISOString()).toBe("2027-11-01T10:00:00.000Z");
    expect(exclusionEnd("1y", NOW).toISOString()).toBe("2028-05-01T10:00:00.000Z");
    expect(exclusionEnd("5y", NOW).toISOString()).toBe("2032-05-01T10:00:00.000Z");
    expect(addMonths(new Date("2027-08-31T12:00:00Z"), 6).toISOString()).toBe("2028-02-29T12:00:00.000Z");
  });

  it("can only be extended, never shortened or ended early", () => {
    const current = hours(7 * 24);
    expect(extendedUntil(current, hours(24), NOW)).toBeNull();
    expect(extendedUntil(current, current, NOW)).toBeNull();
    expect(extendedUntil(current, hours(30 * 24), NOW)).toEqual(hours(30 * 24));
    // One that has ended is replaced by a new one.
    expect(extendedUntil(hours(-1), hours(24), NOW)).toEqual(hours(24));
    expect(extendedUntil(null, hours(24), NOW)).toEqual(hours(24));
  });

  it("stops entries until it ends, saying when; exclusion is named before a cool-off", () => {
    const coolOff = { coolOffUntil: hours(24), excludedUntil: null };
    expect(breakProblem(coolOff, NOW)).toEqual({
      code: "cool_off",
      message:
        "You are taking a break from prize draws until Sun 2 May 2027, 11:00 BST: you cannot enter or pay for entries until then",
    });
    expect(breakProblem(coolOff, hours(24))).toBeNull();
    expect(breakProblem({ coolOffUntil: hours(24), excludedUntil: hours(48) }, NOW)?.code).toBe("excluded");
  });
});
