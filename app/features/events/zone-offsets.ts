import { wallTimeAt } from "~/features/dates/time-zones";

/**
 * UTC offsets of a time zone, and the moments they change, read from Intl: what calendar files
 * (VTIMEZONE) and search engines (ISO 8601 with an offset) need to place an event's local times.
 */

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

/** Minutes `timeZone` is ahead of UTC at `instant` (60 for BST, -240 for EDT). */
export function offsetMinutes(instant: Date, timeZone: string) {
  const wall = wallTimeAt(instant, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / MINUTE);
}

/** An offset as "+01:00" (ISO 8601) or, with `separator` "", "+0100" (iCalendar). */
export function formatOffset(minutes: number, separator = ":") {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}${separator}${String(abs % 60).padStart(2, "0")}`;
}

const pad = (value: number, length = 2) => String(value).padStart(length, "0");

/** "2027-06-12T10:00:00+01:00": the instant as the wall-clock time in `timeZone` with its offset. */
export function zonedIso(instant: Date, timeZone: string) {
  const wall = wallTimeAt(instant, timeZone);
  const date = `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
  const time = `${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}`;
  return `${date}T${time}${formatOffset(offsetMinutes(instant, timeZone))}`;
}

export type OffsetChange = {
  /** The first instant of the new offset. */
  at: Date;
  from: number;
  to: number;
};

/**
 * Every change of offset in `timeZone` between two instants. Offsets are sampled twice a day (no
 * zone changes twice within 12 hours), then each change is narrowed down to the minute.
 */
export function offsetChanges(from: Date, to: Date, timeZone: string): OffsetChange[] {
  const changes: OffsetChange[] = [];
  const step = DAY / 2;
  let previous = from.getTime();
  let previousOffset = offsetMinutes(from, timeZone);
  for (let t = previous + step; t <= to.getTime() + step; t += step) {
    const offset = offsetMinutes(new Date(t), timeZone);
    if (offset !== previousOffset) {
      let low = previous;
      let high = t;
      while (high - low > MINUTE) {
        const middle = Math.floor((low + high) / 2);
        if (offsetMinutes(new Date(middle), timeZone) === previousOffset) low = middle;
        else high = middle;
      }
      // Zones change on a whole minute: the first one after the last instant of the old offset.
      const at = Math.floor(low / MINUTE) * MINUTE + MINUTE;
      if (at >= from.getTime() && at <= to.getTime())
        changes.push({ at: new Date(at), from: previousOffset, to: offset });
      previousOffset = offset;
    }
    previous = t;
  }
  return changes;
}
