import type { MembershipPeriodKind } from "../../../db/schema";

/** The words pages, emails and cart lines use for a tier's terms and a membership's dates. */

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "1 January". */
export function dayOfYear(month: number, day: number) {
  return `${day} ${MONTHS[month - 1] ?? ""}`;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** "31 December 2027", in the club's time zone. */
export function membershipDate(date: Date | string, timeZone: string) {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone });
    dateFormats.set(timeZone, format);
  }
  return format.format(new Date(date));
}

export type TierTerms = {
  period: MembershipPeriodKind;
  rollingMonths: number | null;
  seasonStartMonth: number | null;
  seasonStartDay: number | null;
};

/** How long a period runs, in a few words: "a year from the day you join", "the season from 1 January". */
export function periodWords(tier: TierTerms) {
  if (tier.period === "rolling") {
    const months = tier.rollingMonths ?? 12;
    if (months === 1) return "a month at a time, from the day you join";
    if (months === 12) return "a year from the day you join";
    return `${months} months from the day you join`;
  }
  return `the club year from ${dayOfYear(tier.seasonStartMonth ?? 1, tier.seasonStartDay ?? 1)}`;
}

/** "per year", "per month", "per 6 months": what the price is for. */
export function priceUnit(tier: TierTerms) {
  const months = tier.period === "season" ? 12 : (tier.rollingMonths ?? 12);
  if (months === 12) return "a year";
  if (months === 1) return "a month";
  return `every ${months} months`;
}
