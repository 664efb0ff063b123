import { formatEventInstant } from "~/features/dates/event-dates";
import { formatMoney } from "~/ui/money";
import type { PendingSpendLimits } from "../../../db/schema";

/**
 * Responsible play for paid prize draws, as pure rules (docs/responsible-play.md): spending
 * limits over the last 7 and 30 days, a cool-off and a self-exclusion. A limit is in minor units;
 * `null` is no limit and 0 stops paid entries. Lowering a limit applies at once; raising or
 * removing one waits a day. A cool-off or a self-exclusion can only ever be made longer.
 */

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** How long a raised or removed limit waits before it applies. */
const LIMIT_RAISE_WAIT_MS = DAY;
export const WEEK_MS = 7 * DAY;
export const MONTH_MS = 30 * DAY;

/** UK draws: times and amounts in refusals that reach the member from the cart or a draw page. */
export const PLAY_TIME_ZONE = "Europe/London";
const PLAY_CURRENCY = "GBP";

/** Credit cards may pay at most this much for entries in one calendar month (UK time). */
export const CREDIT_CARD_MONTHLY_CAP = 25_000;

export const COOL_OFF_CHOICES = {
  "24h": { label: "24 hours", ms: DAY },
  "7d": { label: "7 days", ms: 7 * DAY },
  "30d": { label: "30 days", ms: 30 * DAY },
} as const;
export type CoolOffChoice = keyof typeof COOL_OFF_CHOICES;

export const EXCLUSION_CHOICES = {
  "6m": { label: "6 months", months: 6 },
  "1y": { label: "1 year", months: 12 },
  "5y": { label: "5 years", months: 60 },
} as const;
export type ExclusionChoice = keyof typeof EXCLUSION_CHOICES;

export type SpendLimits = { weekly: number | null; monthly: number | null };

export type PlaySettings = SpendLimits & {
  pending: PendingSpendLimits | null;
  coolOffUntil: Date | null;
  excludedUntil: Date | null;
  limitsOfferedAt: Date | null;
};

export const NO_PLAY_SETTINGS: PlaySettings = {
  weekly: null,
  monthly: null,
  pending: null,
  coolOffUntil: null,
  excludedUntil: null,
  limitsOfferedAt: null,
};

/** Whether limit `a` allows less than limit `b` (null is no limit). */
export function isStricter(a: number | null, b: number | null) {
  if (a === null) return false;
  return b === null || a < b;
}

/** The settings as they stand at `now`: a pending raise whose day has passed has applied. */
export function settingsAt(settings: PlaySettings, now: Date): PlaySettings & { raiseApplied: boolean } {
  const pending = settings.pending;
  if (pending && new Date(pending.from) <= now) {
    return { ...settings, weekly: pending.weekly, monthly: pending.monthly, pending: null, raiseApplied: true };
  }
  return { ...settings, raiseApplied: false };
}

/**
 * What a member's new choice of limits does: each limit made stricter applies at once; if either
 * is raised or removed, the whole choice waits a day in `pending` (a new choice replaces an
 * earlier pending one; choosing the same again keeps its time).
 */
export function changeLimits(current: PlaySettings, wanted: SpendLimits, now: Date) {
  const settled = settingsAt(current, now);
  const limits: SpendLimits = {
    weekly: isStricter(wanted.weekly, settled.weekly) ? wanted.weekly : settled.weekly,
    monthly: isStricter(wanted.monthly, settled.monthly) ? wanted.monthly : settled.monthly,
  };
  const waits = limits.weekly !== wanted.weekly || limits.monthly !== wanted.monthly;
  const same =
    settled.pending && settled.pending.weekly === wanted.weekly && settled.pending.monthly === wanted.monthly;
  const pending: PendingSpendLimits | null = waits
    ? same
      ? settled.pending
      : { ...wanted, from: new Date(now.getTime() + LIMIT_RAISE_WAIT_MS).toISOString() }
    : null;
  return { ...limits, pending };
}

/** The end of a self-exclusion of `months` from `now` (the same day of the month, or the month's last). */
export function addMonths(now: Date, months: number) {
  const end = new Date(now);
  const day = end.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
}

export function coolOffEnd(choice: CoolOffChoice, now: Date) {
  return new Date(now.getTime() + COOL_OFF_CHOICES[choice].ms);
}

export function exclusionEnd(choice: ExclusionChoice, now: Date) {
  return addMonths(now, EXCLUSION_CHOICES[choice].months);
}

/**
 * A new cool-off or self-exclusion end: it can only make the current one longer, never end it
 * early. `null` when the current one already runs at least that long.
 */
export function extendedUntil(current: Date | null, wanted: Date, now: Date) {
  if (current && current > now && current >= wanted) return null;
  return wanted;
}

export function formatPlayInstant(instant: Date, timeZone = PLAY_TIME_ZONE) {
  return formatEventInstant(instant, timeZone);
}

export function formatPlayMoney(minor: number, currency = PLAY_CURRENCY) {
  return formatMoney(minor, currency);
}

export type PlayProblem = { code: "excluded" | "cool_off" | "spend_limit"; message: string };

/** Whether a self-exclusion or cool-off stops every entry now, with when it ends. */
export function breakProblem(
  settings: Pick<PlaySettings, "coolOffUntil" | "excludedUntil">,
  now: Date,
  timeZone = PLAY_TIME_ZONE,
): PlayProblem | null {
  if (settings.excludedUntil && settings.excludedUntil > now) {
    return {
      code: "excluded",
      message: `You have excluded yourself from prize draws until ${formatPlayInstant(settings.excludedUntil, timeZone)}: you cannot enter or pay for entries until then`,
    };
  }
  if (settings.coolOffUntil && settings.coolOffUntil > now) {
    return {
      code: "cool_off",
      message: `You are taking a break from prize draws until ${formatPlayInstant(settings.coolOffUntil, timeZone)}: you cannot enter or pay for entries until then`,
    };
  }
  return null;
}

/** What the member has spent on paid entries over the last 7 and 30 days. */
export type Spend = { week: number; month: number };

/** What is left under each limit (null: no limit). */
export function leftToSpend(limits: SpendLimits, spend: Spend) {
  return {
    week: limits.weekly === null ? null : Math.max(0, limits.weekly - spend.week),
    month: limits.monthly === null ? null : Math.max(0, limits.monthly - spend.month),
  };
}

/**
 * Whether paying `adding` more for entries takes the member over a limit. A limit of 0 refuses
 * any paid entry; free entries (adding 0) are never refused by a limit.
 */
export function spendProblem(
  limits: SpendLimits,
  spend: Spend,
  adding: number,
  currency = PLAY_CURRENCY,
): PlayProblem | null {
  if (adding <= 0) return null;
  const left = leftToSpend(limits, spend);
  for (const [limit, remaining, name, period] of [
    [limits.weekly, left.week, "weekly", "7 days"],
    [limits.monthly, left.month, "monthly", "30 days"],
  ] as const) {
    if (limit === null || remaining === null || adding <= remaining) continue;
    const money = (minor: number) => formatMoney(minor, currency);
    return {
      code: "spend_limit",
      message:
        limit === 0
          ? `Your ${name} limit for prize draws is ${money(0)}, so paid entries are off: nothing is left to spend. You can change the limit in Responsible play settings; a raise applies after 24 hours`
          : `These entries (${money(adding)}) would take you over your ${name} limit of ${money(limit)} for prize draws: ${money(remaining)} is left for the last ${period}`,
    };
  }
  return null;
}
