import { intlMemo } from "~/ui/intl-memo";

/**
 * Wall-clock times in a named time zone, with nothing but Intl: times are stored as instants
 * and shown and edited in the event's own zone, across daylight-saving changes.
 */

type WallTime = { year: number; month: number; day: number; hour: number; minute: number };

const partFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string) {
  let cached = partFormatters.get(timeZone);
  if (!cached) {
    cached = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    partFormatters.set(timeZone, cached);
  }
  return cached;
}

export function isValidTimeZone(timeZone: string) {
  if (!timeZone || timeZone.length > 64) return false;
  try {
    partsFormatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time at `instant` in `timeZone`. */
export function wallTimeAt(instant: Date, timeZone: string): WallTime & { second: number } {
  return intlMemo(`wall ${timeZone} ${instant.getTime()}`, () => {
    const parts: Record<string, number> = {};
    for (const part of partsFormatter(timeZone).formatToParts(instant)) {
      if (part.type !== "literal") parts[part.type] = Number(part.value);
    }
    return {
      year: parts.year!,
      month: parts.month!,
      day: parts.day!,
      hour: parts.hour!,
      minute: parts.minute!,
      second: parts.second!,
    };
  });
}

/** How far `timeZone` is ahead of UTC at `utcMs`, in milliseconds. */
function offsetAt(utcMs: number, timeZone: string) {
  const wall = wallTimeAt(new Date(utcMs), timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/**
 * The instant a wall-clock time names in `timeZone`. In the hour clocks go back, the earlier of
 * the two instants; in the hour clocks go forward, null, because no such time exists there.
 */
export function wallTimeToInstant(wall: WallTime, timeZone: string): Date | null {
  const naive = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const day = 24 * 60 * 60 * 1000;
  const candidates = [naive - offsetAt(naive - day, timeZone), naive - offsetAt(naive + day, timeZone)]
    .filter((utc) => {
      const back = wallTimeAt(new Date(utc), timeZone);
      return (
        back.year === wall.year &&
        back.month === wall.month &&
        back.day === wall.day &&
        back.hour === wall.hour &&
        back.minute === wall.minute
      );
    })
    .sort((a, b) => a - b);
  return candidates.length > 0 ? new Date(candidates[0]!) : null;
}

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d{1,3})?)?$/;

export type LocalTimeResult = { ok: true; instant: Date } | { ok: false; reason: "format" | "missing" };

/** A form's problem with one field, as a schema's cross-field check collects them. */
export type FieldIssue = { path: string[]; message: string };

/**
 * Reads a `datetime-local` value in `timeZone` for a form, or adds what is wrong with it to
 * `issues` under `path`, in the same words on every form, and answers null.
 */
export function readLocalField(value: string, timeZone: string, path: string, issues: FieldIssue[]): Date | null {
  const read = parseLocalDateTime(value, timeZone);
  if (read.ok) return read.instant;
  issues.push({
    path: [path],
    message:
      read.reason === "missing"
        ? `This time does not exist in ${timeZone}: the clocks go forward then. Choose a time an hour later.`
        : "Enter a real date and time like 2027-06-12 09:30",
  });
  return null;
}

/**
 * Reads a `datetime-local` value ("2027-06-12T09:30") as a time in `timeZone`. "missing" is a
 * time skipped when clocks go forward.
 */
export function parseLocalDateTime(value: string, timeZone: string): LocalTimeResult {
  const match = LOCAL_INPUT.exec(value.trim());
  if (!match) return { ok: false, reason: "format" };
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number) as [number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real =
    year >= 1970 &&
    year <= 9999 &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60;
  if (!real) return { ok: false, reason: "format" };
  const instant = wallTimeToInstant({ year, month, day, hour, minute }, timeZone);
  return instant ? { ok: true, instant } : { ok: false, reason: "missing" };
}

const pad = (value: number, length = 2) => String(value).padStart(length, "0");

/** An instant as a `datetime-local` value in `timeZone` ("2027-06-12T09:30"). */
export function toLocalInputValue(instant: Date, timeZone: string) {
  const wall = wallTimeAt(instant, timeZone);
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}`;
}

/** The local calendar date of `instant` in `timeZone` ("2027-06-12"). */
export function localDate(instant: Date, timeZone: string) {
  const wall = wallTimeAt(instant, timeZone);
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

/** Every local date an event touches, first to last ("2027-06-12", "2027-06-13"). */
export function eventDays(startsAt: Date, endsAt: Date, timeZone: string): string[] {
  const first = localDate(startsAt, timeZone);
  // An event ending at midnight does not take up the day that begins then.
  const lastInstant = endsAt.getTime() > startsAt.getTime() ? new Date(endsAt.getTime() - 1) : endsAt;
  const last = localDate(lastInstant, timeZone);
  const days: string[] = [];
  const cursor = new Date(`${first}T00:00:00Z`);
  const end = new Date(`${last}T00:00:00Z`);
  while (cursor <= end && days.length < 366) {
    days.push(cursor.toISOString().slice(0, 10));
    cursor.setUTCDate(cursor.getUTCDate() + 1);
  }
  return days;
}
