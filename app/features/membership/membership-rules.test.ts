import { describe, expect, it } from "vitest";
import {
  addMonths,
  coolingOffRefund,
  hasBenefits,
  joiningPeriod,
  joiningPrice,
  type MembershipTerm,
  membershipStatus,
  reminderAt,
  reminderInWindow,
  renewalPeriod,
  retryAt,
} from "./membership-rules";

const LONDON = "Europe/London";
const at = (iso: string) => new Date(iso);
const DAY = 24 * 60 * 60 * 1000;

const season: MembershipTerm = {
  kind: "season",
  startsOn: { month: 1, day: 1 },
  lateJoin: { from: { month: 10, day: 1 }, price: "pro-rata" },
};
const yearly: MembershipTerm = { kind: "rolling", months: 12 };
const monthly: MembershipTerm = { kind: "rolling", months: 1 };

describe("the period a payment buys", () => {
  it("runs a season to the start of the next, in the club's time zone", () => {
    expect(joiningPeriod(season, at("2027-03-15T12:00:00Z"), LONDON)).toEqual({
      startsAt: at("2027-03-15T12:00:00Z"),
      endsAt: at("2028-01-01T00:00:00Z"),
    });
    // A season starting 1 April ends at midnight British Summer Time.
    const april: MembershipTerm = { kind: "season", startsOn: { month: 4, day: 1 }, lateJoin: null };
    expect(joiningPeriod(april, at("2027-02-10T09:00:00Z"), LONDON).endsAt).toEqual(at("2027-03-31T23:00:00Z"));
    expect(joiningPeriod(april, at("2027-04-01T09:00:00Z"), LONDON).endsAt).toEqual(at("2028-03-31T23:00:00Z"));
  });

  it("runs a rolling year or month from the day of joining, at the same wall-clock time", () => {
    expect(joiningPeriod(yearly, at("2027-03-15T12:00:00Z"), LONDON).endsAt).toEqual(at("2028-03-15T12:00:00Z"));
    // 10:00 in London in winter is 09:00 UTC in summer.
    expect(joiningPeriod(monthly, at("2027-03-15T10:00:00Z"), LONDON).endsAt).toEqual(at("2027-04-15T09:00:00Z"));
  });

  it("keeps the day of the month, or the month's last when it has fewer", () => {
    expect(addMonths(at("2027-01-31T12:00:00Z"), 1, LONDON)).toEqual(at("2027-02-28T12:00:00Z"));
    expect(addMonths(at("2028-01-31T12:00:00Z"), 1, LONDON)).toEqual(at("2028-02-29T12:00:00Z"));
    expect(addMonths(at("2027-11-30T12:00:00Z"), 3, LONDON)).toEqual(at("2028-02-29T12:00:00Z"));
  });

  it("renews into the next season, or as long again", () => {
    const joinedAt = at("2027-03-15T12:00:00Z");
    const joined = joiningPeriod(season, joinedAt, LONDON);
    expect(renewalPeriod(season, joined, LONDON, joinedAt)).toEqual({
      startsAt: at("2028-01-01T00:00:00Z"),
      endsAt: at("2029-01-01T00:00:00Z"),
    });
    const year = joiningPeriod(yearly, joinedAt, LONDON);
    expect(renewalPeriod(yearly, year, LONDON, joinedAt)).toEqual({
      startsAt: at("2028-03-15T12:00:00Z"),
      endsAt: at("2029-03-15T12:00:00Z"),
    });
  });

  it("keeps a monthly member's day of the month where the month has it", () => {
    // Joined on 31 January at noon in London: 28 February, then 31 March (in summer time).
    const joinedAt = at("2027-01-31T12:00:00Z");
    const first = joiningPeriod(monthly, joinedAt, LONDON);
    expect(first.endsAt).toEqual(at("2027-02-28T12:00:00Z"));
    const second = renewalPeriod(monthly, first, LONDON, joinedAt);
    expect(second).toEqual({ startsAt: at("2027-02-28T12:00:00Z"), endsAt: at("2027-03-31T11:00:00Z") });
    expect(renewalPeriod(monthly, second, LONDON, joinedAt).endsAt).toEqual(at("2027-04-30T11:00:00Z"));
  });
});

describe("joining late in a season", () => {
  it("costs the full price before the late-join day", () => {
    expect(joiningPrice(season, 3000, at("2027-09-30T22:59:00Z"), LONDON)).toBe(3000);
  });

  it("costs the months left, the month of joining counted whole, from the late-join day", () => {
    // 1 October in London starts at 23:00 UTC on 30 September.
    expect(joiningPrice(season, 3000, at("2027-09-30T23:00:00Z"), LONDON)).toBe(750);
    expect(joiningPrice(season, 3000, at("2027-11-20T12:00:00Z"), LONDON)).toBe(500);
    expect(joiningPrice(season, 3000, at("2027-12-31T23:59:00Z"), LONDON)).toBe(250);
    // Rounded up to the penny.
    expect(joiningPrice(season, 1000, at("2027-12-01T12:00:00Z"), LONDON)).toBe(84);
  });

  it("costs the set late price where the tier has one, never more than the full price", () => {
    const late: MembershipTerm = { ...season, lateJoin: { from: { month: 10, day: 1 }, price: { pence: 1500 } } };
    expect(joiningPrice(late, 3000, at("2027-10-05T12:00:00Z"), LONDON)).toBe(1500);
    expect(joiningPrice(late, 1000, at("2027-10-05T12:00:00Z"), LONDON)).toBe(1000);
  });

  it("finds the late-join day in a season that crosses the new year", () => {
    const april: MembershipTerm = {
      kind: "season",
      startsOn: { month: 4, day: 1 },
      lateJoin: { from: { month: 1, day: 1 }, price: "pro-rata" },
    };
    expect(joiningPrice(april, 1200, at("2027-12-15T12:00:00Z"), LONDON)).toBe(1200);
    expect(joiningPrice(april, 1200, at("2028-01-15T12:00:00Z"), LONDON)).toBe(300);
  });

  it("always costs the full price on a rolling tier", () => {
    expect(joiningPrice(yearly, 3000, at("2027-12-31T12:00:00Z"), LONDON)).toBe(3000);
  });
});

describe("renewal reminders and retries", () => {
  const renewsAt = at("2028-01-01T00:00:00Z");

  it("reminds 14 days before the renewal, inside the 28-to-3-day window", () => {
    expect(reminderAt(renewsAt)).toEqual(new Date(renewsAt.getTime() - 14 * DAY));
    expect(reminderInWindow(reminderAt(renewsAt), renewsAt)).toBe(true);
    expect(reminderInWindow(new Date(renewsAt.getTime() - 28 * DAY), renewsAt)).toBe(true);
    expect(reminderInWindow(new Date(renewsAt.getTime() - 28 * DAY - 1), renewsAt)).toBe(false);
    expect(reminderInWindow(new Date(renewsAt.getTime() - 3 * DAY), renewsAt)).toBe(true);
    expect(reminderInWindow(new Date(renewsAt.getTime() - 3 * DAY + 1), renewsAt)).toBe(false);
  });

  it("tries a failed payment again after 1, 3 and 5 days, then stops", () => {
    expect(retryAt(renewsAt, 1)).toEqual(new Date(renewsAt.getTime() + DAY));
    expect(retryAt(renewsAt, 2)).toEqual(new Date(renewsAt.getTime() + 3 * DAY));
    expect(retryAt(renewsAt, 3)).toEqual(new Date(renewsAt.getTime() + 5 * DAY));
    expect(retryAt(renewsAt, 4)).toBeNull();
  });
});

describe("what a membership is at a moment", () => {
  const paidUntil = at("2028-01-01T00:00:00Z");
  const before = new Date(paidUntil.getTime() - 1);

  it("is active until the end of what was paid, renewing or not", () => {
    expect(membershipStatus({ paidUntil, renews: true }, before)).toEqual({
      state: "active",
      until: paidUntil,
      renews: true,
    });
    expect(membershipStatus({ paidUntil, renews: false }, before)).toEqual({
      state: "active",
      until: paidUntil,
      renews: false,
    });
  });

  it("runs a cancelled renewal to its paid end, then ends", () => {
    const status = membershipStatus({ paidUntil, renews: false }, paidUntil);
    expect(status).toEqual({ state: "ended", since: paidUntil });
    expect(hasBenefits(status)).toBe(false);
  });

  it("keeps the benefits for 7 days while a renewal is unpaid, then lapses", () => {
    const lapsesAt = new Date(paidUntil.getTime() + 7 * DAY);
    const grace = membershipStatus({ paidUntil, renews: true }, paidUntil);
    expect(grace).toEqual({ state: "grace", lapsesAt });
    expect(hasBenefits(grace)).toBe(true);
    expect(hasBenefits(membershipStatus({ paidUntil, renews: true }, new Date(lapsesAt.getTime() - 1)))).toBe(true);
    const lapsed = membershipStatus({ paidUntil, renews: true }, lapsesAt);
    expect(lapsed).toEqual({ state: "lapsed", since: lapsesAt });
    expect(hasBenefits(lapsed)).toBe(false);
  });

  it("is active again once a late renewal is paid", () => {
    const joinedAt = at("2027-01-01T00:00:00Z");
    const renewed = renewalPeriod(yearly, { startsAt: joinedAt, endsAt: paidUntil }, LONDON, joinedAt);
    expect(
      membershipStatus({ paidUntil: renewed.endsAt, renews: true }, new Date(paidUntil.getTime() + 3 * DAY)),
    ).toEqual({
      state: "active",
      until: renewed.endsAt,
      renews: true,
    });
  });
});

describe("cancelling within the cooling-off period", () => {
  const period = { startsAt: at("2027-03-01T00:00:00Z"), endsAt: at("2027-03-31T00:00:00Z") };
  const paidAt = period.startsAt;

  it("gives the payment back less the days already had, rounded in the club's favour", () => {
    expect(coolingOffRefund({ paidPence: 3000, paidAt, period }, paidAt)).toEqual({
      refundPence: 3000,
      valueUsedPence: 0,
    });
    expect(coolingOffRefund({ paidPence: 3000, paidAt, period }, new Date(paidAt.getTime() + 3 * DAY))).toEqual({
      refundPence: 2700,
      valueUsedPence: 300,
    });
    expect(coolingOffRefund({ paidPence: 1000, paidAt, period }, new Date(paidAt.getTime() + 1 * DAY))).toEqual({
      refundPence: 966,
      valueUsedPence: 34,
    });
  });

  it("ends 14 days after the payment", () => {
    const last = new Date(paidAt.getTime() + 14 * DAY - 1);
    // 13 whole days had, the 14th not yet over.
    expect(coolingOffRefund({ paidPence: 3000, paidAt, period }, last)?.refundPence).toBe(1700);
    expect(coolingOffRefund({ paidPence: 3000, paidAt, period }, new Date(paidAt.getTime() + 14 * DAY))).toBeNull();
  });

  it("gives a renewal paid before its period starts back whole", () => {
    const renewal = { startsAt: period.endsAt, endsAt: at("2027-04-30T23:00:00Z") };
    const paidEarly = new Date(period.endsAt.getTime() - 2 * DAY);
    expect(
      coolingOffRefund({ paidPence: 3000, paidAt: paidEarly, period: renewal }, new Date(paidEarly.getTime() + DAY)),
    ).toEqual({
      refundPence: 3000,
      valueUsedPence: 0,
    });
  });
});
