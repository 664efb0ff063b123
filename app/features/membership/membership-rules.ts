import { wallTimeAt, wallTimeToInstant } from "~/features/dates/time-zones";

/**
 * A club membership's calendar and money rules: the period a payment buys, what joining late in
 * a season costs, when the renewal reminder goes and when a failed renewal is tried again, what a
 * member is at a given moment, and what cancelling within the cooling-off period gives back. Pure
 * functions of the tier's terms, the club's time zone and the time, so pages, jobs and tests
 * (on a test clock) agree.
 *
 * The subscription rules as the site applies them (UK, Digital Markets, Competition and Consumers
 * Act 2024):
 * - a reminder before every renewal, with its price and date, between 28 and 3 days before it;
 * - 14 days to cancel after joining and after each renewal, with the money back less the value of
 *   the days already had;
 * - a cancelled renewal lets the membership run to the end of what was paid for.
 */

/** A day of the year, as a season's start or the day late joining begins. */
export type CalendarDay = { month: number; day: number };

export type MembershipTerm =
  /** Every member's year starts on the same day (1 January, say); joining late may cost less. */
  | {
      kind: "season";
      startsOn: CalendarDay;
      lateJoin: { from: CalendarDay; price: "pro-rata" | { pence: number } } | null;
    }
  /** Each member's year (or month) runs from the day they joined. */
  | { kind: "rolling"; months: number };

/** What one payment buys: from `startsAt` until just before `endsAt`. */
export type Period = { startsAt: Date; endsAt: Date };

const DAY = 24 * 60 * 60 * 1000;

export const COOLING_OFF_DAYS = 14;
/** The renewal reminder goes this many days before the renewal… */
export const REMINDER_DAYS = 14;
/** …which must be within this window. */
const REMINDER_WINDOW = { earliestDays: 28, latestDays: 3 };
/** A renewal whose payment failed is tried again this many days after the renewal date. */
const RETRY_DAYS = [1, 3, 5] as const;
/** How long a membership whose renewal has not been paid keeps its benefits. */
export const GRACE_DAYS = 7;

type Wall = { year: number; month: number; day: number; hour: number; minute: number };

/**
 * The instant of a wall-clock time in `timeZone`; where the clocks skip that time (the hour they
 * go forward), the same time an hour on, which is the first that exists.
 */
function instantOf(wall: Wall, timeZone: string) {
  return wallTimeToInstant(wall, timeZone) ?? (wallTimeToInstant({ ...wall, hour: wall.hour + 1 }, timeZone) as Date);
}

/** Midnight at the start of a calendar day in `timeZone`. */
function startOfDay(year: number, month: number, day: number, timeZone: string) {
  return instantOf({ year, month, day, hour: 0, minute: 0 }, timeZone);
}

/** Whole calendar months from `from`'s month to `to`'s, in `timeZone`. */
function monthsBetween(from: Date, to: Date, timeZone: string) {
  const a = wallTimeAt(from, timeZone);
  const b = wallTimeAt(to, timeZone);
  return (b.year - a.year) * 12 + (b.month - a.month);
}

function daysInMonth(year: number, month: number) {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `instant` moved `months` calendar months on in `timeZone`, the day kept or cut to the month's last. */
export function addMonths(instant: Date, months: number, timeZone: string) {
  const wall = wallTimeAt(instant, timeZone);
  const index = wall.year * 12 + (wall.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const day = Math.min(wall.day, daysInMonth(year, month));
  return instantOf({ year, month, day, hour: wall.hour, minute: wall.minute }, timeZone);
}

/** The start of the season that `instant` falls in. */
function seasonStart(startsOn: CalendarDay, instant: Date, timeZone: string) {
  const { year } = wallTimeAt(instant, timeZone);
  const thisYear = startOfDay(year, startsOn.month, startsOn.day, timeZone);
  return thisYear.getTime() <= instant.getTime()
    ? thisYear
    : startOfDay(year - 1, startsOn.month, startsOn.day, timeZone);
}

/** The period a member joining at `joinedAt` pays for. */
export function joiningPeriod(term: MembershipTerm, joinedAt: Date, timeZone: string): Period {
  if (term.kind === "rolling") return { startsAt: joinedAt, endsAt: addMonths(joinedAt, term.months, timeZone) };
  const start = seasonStart(term.startsOn, joinedAt, timeZone);
  return { startsAt: joinedAt, endsAt: addMonths(start, 12, timeZone) };
}

/**
 * The period a renewal of `period` pays for: the next season, or as long again. A rolling
 * membership keeps the day of the month it was joined on (`joinedAt`), where the month has it:
 * joined on 31 January, it renews on 28 February, then 31 March.
 */
export function renewalPeriod(term: MembershipTerm, period: Period, timeZone: string, joinedAt: Date): Period {
  if (term.kind === "season") return { startsAt: period.endsAt, endsAt: addMonths(period.endsAt, 12, timeZone) };
  const monthsSoFar = monthsBetween(joinedAt, period.endsAt, timeZone);
  return { startsAt: period.endsAt, endsAt: addMonths(joinedAt, monthsSoFar + term.months, timeZone) };
}

/**
 * What joining at `joinedAt` costs, in pence. A season's late joiners (from its `lateJoin` day to
 * its end) pay the set late price, or the price for the months left, the month they join counted
 * whole, rounded up to the penny.
 */
export function joiningPrice(term: MembershipTerm, pricePence: number, joinedAt: Date, timeZone: string) {
  if (term.kind === "rolling" || !term.lateJoin) return pricePence;
  const start = seasonStart(term.startsOn, joinedAt, timeZone);
  let lateFrom = startOfDay(
    wallTimeAt(start, timeZone).year,
    term.lateJoin.from.month,
    term.lateJoin.from.day,
    timeZone,
  );
  if (lateFrom.getTime() < start.getTime()) lateFrom = addMonths(lateFrom, 12, timeZone);
  if (joinedAt.getTime() < lateFrom.getTime()) return pricePence;
  if (term.lateJoin.price !== "pro-rata") return Math.min(term.lateJoin.price.pence, pricePence);
  const monthsLeft = Math.max(1, 12 - monthsBetween(start, joinedAt, timeZone));
  return Math.ceil((pricePence * monthsLeft) / 12);
}

/** When the reminder of the renewal at `renewsAt` is due. */
export function reminderAt(renewsAt: Date) {
  return new Date(renewsAt.getTime() - REMINDER_DAYS * DAY);
}

/** Whether a reminder sent at `sentAt` is in time for the renewal at `renewsAt`. */
export function reminderInWindow(sentAt: Date, renewsAt: Date) {
  const before = renewsAt.getTime() - sentAt.getTime();
  return before <= REMINDER_WINDOW.earliestDays * DAY && before >= REMINDER_WINDOW.latestDays * DAY;
}

/** When to try a failed renewal's payment again, after `failures` failed tries; null once they are used up. */
export function retryAt(renewsAt: Date, failures: number) {
  const days = RETRY_DAYS[failures - 1];
  return days === undefined ? null : new Date(renewsAt.getTime() + days * DAY);
}

export type MembershipFacts = {
  /** The end of the last period paid for. */
  paidUntil: Date;
  /** Whether the member will be charged for the next period (false once they turn renewal off). */
  renews: boolean;
};

export type MembershipStatus =
  /** Paid for now; renews at the end. */
  | { state: "active"; until: Date; renews: true }
  /** Paid for now; ends at `until`, renewal turned off. */
  | { state: "active"; until: Date; renews: false }
  /** Renewal not paid yet: benefits go on until `lapsesAt`. */
  | { state: "grace"; lapsesAt: Date }
  /** Renewal never paid. */
  | { state: "lapsed"; since: Date }
  /** Ran to its end with renewal turned off. */
  | { state: "ended"; since: Date };

/** What a membership is at `now`, and whether its benefits hold (`active` and `grace` do). */
export function membershipStatus(facts: MembershipFacts, now: Date): MembershipStatus {
  const { paidUntil, renews } = facts;
  if (now.getTime() < paidUntil.getTime())
    return renews
      ? { state: "active", until: paidUntil, renews: true }
      : { state: "active", until: paidUntil, renews: false };
  if (!renews) return { state: "ended", since: paidUntil };
  const lapsesAt = new Date(paidUntil.getTime() + GRACE_DAYS * DAY);
  return now.getTime() < lapsesAt.getTime() ? { state: "grace", lapsesAt } : { state: "lapsed", since: lapsesAt };
}

/** Whether a membership in `status` gives its benefits (member prices, the card at the gate). */
export function hasBenefits(status: MembershipStatus) {
  return status.state === "active" || status.state === "grace";
}

/**
 * What a member who cancels at `cancelledAt` gets back of a payment of `paidPence` made at `paidAt`
 * for `period`: within the cooling-off days after the payment, the payment less the value of the
 * whole days of the period already had (a renewal paid before its period starts has used nothing);
 * after them, null (the membership runs to its end instead).
 */
export function coolingOffRefund(payment: { paidPence: number; paidAt: Date; period: Period }, cancelledAt: Date) {
  const { paidPence, paidAt, period } = payment;
  if (cancelledAt.getTime() >= paidAt.getTime() + COOLING_OFF_DAYS * DAY) return null;
  const length = period.endsAt.getTime() - period.startsAt.getTime();
  // Whole days had: a member who cancels an hour after paying keeps every penny.
  const days = Math.floor(Math.max(0, cancelledAt.getTime() - period.startsAt.getTime()) / DAY);
  const used = Math.min(length, days * DAY);
  const valueUsedPence = Math.ceil((paidPence * used) / length);
  return { refundPence: paidPence - valueUsedPence, valueUsedPence };
}

/** The most characters in the name of a person a family membership names. */
export const PERSON_NAME_MAX = 80;

export type JoinProblem = { code: "closed" | "full" | "member" | "people"; message: string };

/**
 * Why a member cannot join `tier` now, or null when they can: the tier must be on sale and have a
 * place left (`placesLeft` null: no cap), the member must not hold an active membership already
 * (one whose renewal is unpaid may join again, which renews it by hand), and a family membership
 * names no more people than the tier allows besides the member.
 */
export function joinProblem(input: {
  tier: { name: string; onSale: boolean; people: number };
  placesLeft: number | null;
  current: MembershipStatus | null;
  people: readonly string[];
  formatDate: (date: Date) => string;
}): JoinProblem | null {
  const { tier, current } = input;
  if (!tier.onSale) return { code: "closed", message: `${tier.name} is not open to new members` };
  // A member whose renewal is unpaid (in grace) may pay by joining again.
  if (current?.state === "active") {
    return { code: "member", message: `You are already a member, until ${input.formatDate(current.until)}` };
  }
  if (input.placesLeft !== null && input.placesLeft < 1) {
    return { code: "full", message: `${tier.name} is full: every place has been taken` };
  }
  const others = tier.people - 1;
  if (input.people.length > others) {
    return {
      code: "people",
      message:
        others === 0
          ? `${tier.name} is for one person`
          : `${tier.name} names up to ${others} ${others === 1 ? "person" : "people"} besides you`,
    };
  }
  return null;
}
