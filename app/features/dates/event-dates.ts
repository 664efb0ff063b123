import { eventDays } from "~/features/dates/time-zones";
import { intlMemo } from "~/ui/intl-memo";

/**
 * How an event's dates read on tiles, pages, calendars and emails: always in the event's own
 * time zone, whatever zone the reader or server is in.
 */

type Parts = {
  weekday: string;
  day: string;
  month: string;
  monthShort: string;
  year: string;
  time: string;
  zone: string;
};

const partFormatters = new Map<string, Intl.DateTimeFormat[]>();

/**
 * The parts of the instants asked for lately: every page of an event asks for the same few
 * (its start, its end, its days), and formatToParts is among the dearest calls of a page.
 */
const recentParts = new Map<string, Parts>();
const RECENT_PARTS_LIMIT = 2000;

function partsOf(instant: Date, timeZone: string): Parts {
  const key = `${timeZone} ${instant.getTime()}`;
  // The recent answers sit inside the memo, never in front of it: every render must record the
  // parts it used, or a page rendered after another that asked for them first would carry none.
  return intlMemo(`parts ${key}`, () => {
    let parts = recentParts.get(key);
    if (!parts) {
      parts = formatParts(instant, timeZone);
      // Oldest first out: a Map keeps its insertion order.
      if (recentParts.size >= RECENT_PARTS_LIMIT) recentParts.delete(recentParts.keys().next().value!);
      recentParts.set(key, parts);
    }
    return parts;
  });
}

/**
 * The pieces of a date in `timeZone`, put together by hand below: ICU versions differ on
 * commas ("Sat, 12 June" against "Sat 12 June"), and the server's and the browser's must agree.
 */
function formatParts(instant: Date, timeZone: string): Parts {
  let cached = partFormatters.get(timeZone);
  if (!cached) {
    cached = [
      new Intl.DateTimeFormat("en-GB", { timeZone, weekday: "short", day: "numeric", month: "long", year: "numeric" }),
      new Intl.DateTimeFormat("en-GB", {
        timeZone,
        month: "short",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
        timeZoneName: "short",
      }),
    ];
    partFormatters.set(timeZone, cached);
  }
  const pick = (formatter: Intl.DateTimeFormat) =>
    Object.fromEntries(formatter.formatToParts(instant).map((part) => [part.type, part.value]));
  const long = pick(cached[0]!);
  const short = pick(cached[1]!);
  return {
    weekday: long.weekday ?? "",
    day: long.day ?? "",
    month: long.month ?? "",
    // "Sept" in some ICU versions; three letters everywhere.
    monthShort: (short.month ?? "").slice(0, 3),
    year: long.year ?? "",
    time: `${short.hour}:${short.minute}`,
    zone: short.timeZoneName ?? timeZone,
  };
}

export type EventDateLabels = {
  /** "Sat 12 June 2027" or "Sat 12 – Sun 13 June 2027". */
  dates: string;
  /** "10:00 – 16:00" for one day; "Starts 09:00 · ends 17:00" over several. */
  times: string;
  /** The zone's short name at the start, e.g. "BST", "GMT", "CEST". */
  zone: string;
  /** The date block on a tile: "12" over "Jun" (the first day for multi-day events). */
  day: string;
  month: string;
  multiDay: boolean;
  /** Number of calendar days the event touches. */
  dayCount: number;
};

export function eventDateLabels(startsAt: Date, endsAt: Date, timeZone: string): EventDateLabels {
  const days = eventDays(startsAt, endsAt, timeZone);
  const multiDay = days.length > 1;
  const from = partsOf(startsAt, timeZone);
  const to = partsOf(endsAt, timeZone);
  const dayMonth = (p: Parts) => `${p.weekday} ${p.day} ${p.month}`;

  let dates: string;
  if (!multiDay) dates = `${dayMonth(from)} ${from.year}`;
  else if (from.year !== to.year) dates = `${dayMonth(from)} ${from.year} – ${dayMonth(to)} ${to.year}`;
  else if (from.month !== to.month) dates = `${dayMonth(from)} – ${dayMonth(to)} ${to.year}`;
  else dates = `${from.weekday} ${from.day} – ${dayMonth(to)} ${to.year}`;

  return {
    dates,
    times: multiDay ? `Starts ${from.time} · ends ${to.time}` : `${from.time} – ${to.time}`,
    zone: from.zone,
    day: from.day,
    month: from.monthShort,
    multiDay,
    dayCount: days.length,
  };
}

/** One instant as a reader sees it in the event's zone: "Sat 12 Jun 2027, 10:00 BST". */
export function formatEventInstant(instant: Date, timeZone: string) {
  const p = partsOf(instant, timeZone);
  return `${p.weekday} ${p.day} ${p.monthShort} ${p.year}, ${p.time} ${p.zone}`;
}

/** A local date ("2027-06-12") as a day label ("Sat 12 June"). */
export function formatLocalDay(day: string) {
  const p = partsOf(new Date(`${day}T12:00:00Z`), "UTC");
  return `${p.weekday} ${p.day} ${p.month}`;
}
