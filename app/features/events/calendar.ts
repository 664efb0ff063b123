import ical, { escape as escapeText, ICalCalendarMethod, type ICalDayJsStub, ICalEventStatus } from "ical-generator";
import { wallTimeAt } from "~/features/dates/time-zones";
import { formatOffset, offsetChanges, offsetMinutes } from "./zone-offsets";

/**
 * Calendar files (RFC 5545): one event's "Add to calendar" file and the feeds calendar apps
 * subscribe to (docs/calendar.md). Times are written as wall-clock times in the event's own zone
 * with a VTIMEZONE describing that zone, so a calendar shows 10:00 at Silverstone whatever zone
 * its owner is in, and an event across a clock change keeps its local times.
 */

export type CalendarEvent = {
  id: string;
  title: string;
  summary: string;
  status: "draft" | "published" | "cancelled";
  cancelReason: string | null;
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
  venue: string;
  address: string;
  town: string;
  postcode: string;
  latitude: number | null;
  longitude: number | null;
  updatedAt: Date;
};

/** One VEVENT: an event, a member's show-car slot, or a draw closing. */
export type CalendarEntry = {
  /** Unique on this site and never changing, so an edit updates the entry a calendar already has. */
  uid: string;
  title: string;
  description: string;
  cancelled: boolean;
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
  location: string;
  latitude: number | null;
  longitude: number | null;
  url: string;
  updatedAt: Date;
};

const pad = (value: number, length = 2) => String(value).padStart(length, "0");

/** "20270612T100000" for a wall-clock time. */
function localStamp(instant: Date, timeZone: string) {
  const wall = wallTimeAt(instant, timeZone);
  return `${pad(wall.year, 4)}${pad(wall.month)}${pad(wall.day)}T${pad(wall.hour)}${pad(wall.minute)}${pad(wall.second)}`;
}

function zoneName(instant: Date, timeZone: string) {
  const part = new Intl.DateTimeFormat("en-GB", { timeZone, timeZoneName: "short" })
    .formatToParts(instant)
    .find((p) => p.type === "timeZoneName");
  return part?.value ?? timeZone;
}

/**
 * The VTIMEZONE of `timeZone` for the years from `startsAt` to `endsAt`: every change of offset
 * from the start of the year before (so the rule in force at the start is there) to the end of
 * the last.
 */
export function timeZoneComponent(timeZone: string, startsAt: Date, endsAt: Date): string[] {
  const from = new Date(Date.UTC(startsAt.getUTCFullYear() - 1, 0, 1));
  const to = new Date(Date.UTC(endsAt.getUTCFullYear() + 1, 0, 1));
  const lines = ["BEGIN:VTIMEZONE", `TZID:${timeZone}`];
  const changes = offsetChanges(from, to, timeZone);
  if (changes.length === 0) {
    const offset = formatOffset(offsetMinutes(startsAt, timeZone), "");
    lines.push(
      "BEGIN:STANDARD",
      "DTSTART:19700101T000000",
      `TZOFFSETFROM:${offset}`,
      `TZOFFSETTO:${offset}`,
      `TZNAME:${escapeText(zoneName(startsAt, timeZone), false)}`,
      "END:STANDARD",
    );
  }
  for (const change of changes) {
    const kind = change.to > change.from ? "DAYLIGHT" : "STANDARD";
    // An observance starts at the local time of the change as read in the offset before it.
    const before = new Date(change.at.getTime() + change.from * 60_000);
    lines.push(
      `BEGIN:${kind}`,
      `DTSTART:${localStamp(before, "UTC")}`,
      `TZOFFSETFROM:${formatOffset(change.from, "")}`,
      `TZOFFSETTO:${formatOffset(change.to, "")}`,
      `TZNAME:${escapeText(zoneName(change.at, timeZone), false)}`,
      `END:${kind}`,
    );
  }
  lines.push("END:VTIMEZONE");
  return lines;
}

export function eventLocation(event: Pick<CalendarEvent, "venue" | "address" | "town" | "postcode">) {
  const parts = [event.venue, event.address, event.town, event.postcode].map((part) => part.trim()).filter(Boolean);
  // An address often ends with the town already: do not say it twice. (A venue named after
  // its town, "Silverstone Circuit", still gets the town.)
  const seen = (part: string, earlier: string) => earlier.toLowerCase().endsWith(part.toLowerCase());
  return parts.filter((part, i) => !parts.slice(1, i).some((earlier) => seen(part, earlier))).join(", ");
}

/** An event of the site as a calendar entry. Its UID is the event's id, as it always has been. */
export function eventEntry(event: CalendarEvent, url: string): CalendarEntry {
  const cancelled = event.status === "cancelled";
  return {
    uid: event.id,
    title: cancelled ? `Cancelled: ${event.title}` : event.title,
    description: [
      cancelled ? `Cancelled${event.cancelReason ? `: ${event.cancelReason}` : "."}` : "",
      event.summary,
      `Tickets and details: ${url}`,
    ]
      .filter(Boolean)
      .join("\n\n"),
    cancelled,
    startsAt: event.startsAt,
    endsAt: event.endsAt,
    timeZone: event.timeZone,
    location: eventLocation(event),
    latitude: event.latitude,
    longitude: event.longitude,
    url,
    updatedAt: event.updatedAt,
  };
}

/**
 * An instant as the wall-clock time in `timeZone`, in the shape ical-generator reads Day.js
 * times in. Given a native Date with a time zone, ical-generator would read the server's own
 * zone instead.
 */
function wallClock(instant: Date, timeZone: string): ICalDayJsStub {
  const [date, time] = localStamp(instant, timeZone).split("T") as [string, string];
  const stub: ICalDayJsStub = {
    format(pattern) {
      if (pattern === "YYYYMMDD") return date;
      if (pattern === "HHmmss") return time;
      throw new Error(`No calendar time format ${pattern}`);
    },
    isValid: () => !Number.isNaN(instant.getTime()),
    toDate: () => new Date(instant),
    toJSON: () => instant.toISOString(),
    // Already in the entry's zone.
    tz: () => stub,
  };
  return stub;
}

// SEQUENCE counts the seconds from here to the last change: it grows with every edit (a
// cancellation included), so calendars take the newer version, and stays a 32-bit number until 2088.
const SEQUENCE_EPOCH = Date.UTC(2020, 0, 1);
const sequenceOf = (updatedAt: Date) => Math.max(0, Math.floor((updatedAt.getTime() - SEQUENCE_EPOCH) / 1000));

export type CalendarOptions = {
  /** The site's host name: UIDs are `<uid>@<host>`. */
  host: string;
  now: Date;
  /** A feed's name and description, and how often apps should fetch it again (X-WR-CALNAME, REFRESH-INTERVAL). */
  feed?: { name: string; description: string; url: string; refreshMinutes: number };
};

/** A calendar file of `entries`, each zone they use described once. */
export function calendarFile(entries: CalendarEntry[], options: CalendarOptions): string {
  // ical-generator asks for each zone's VTIMEZONE by name alone: the years it must cover are
  // those of every entry in that zone.
  const spans = new Map<string, { from: Date; to: Date }>();
  for (const entry of entries) {
    const span = spans.get(entry.timeZone);
    spans.set(entry.timeZone, {
      from: span && span.from < entry.startsAt ? span.from : entry.startsAt,
      to: span && span.to > entry.endsAt ? span.to : entry.endsAt,
    });
  }
  const calendar = ical({
    prodId: { company: "Pitlane", product: "Events", language: "EN" },
    method: ICalCalendarMethod.PUBLISH,
    scale: "gregorian",
    // No calendar-wide zone (each entry names its own), so DTSTAMP and LAST-MODIFIED stay in UTC.
    timezone: {
      name: null,
      generator: (zone) => {
        const span = spans.get(zone);
        return span ? timeZoneComponent(zone, span.from, span.to).join("\r\n") : null;
      },
    },
    ...(options.feed
      ? {
          name: options.feed.name,
          description: options.feed.description,
          source: options.feed.url,
          ttl: options.feed.refreshMinutes * 60,
        }
      : {}),
  });
  for (const entry of entries) {
    calendar.createEvent({
      id: `${entry.uid}@${options.host}`,
      stamp: options.now,
      lastModified: entry.updatedAt,
      sequence: sequenceOf(entry.updatedAt),
      timezone: entry.timeZone,
      start: wallClock(entry.startsAt, entry.timeZone),
      end: wallClock(entry.endsAt, entry.timeZone),
      summary: entry.title,
      description: entry.description,
      location: entry.location
        ? {
            title: entry.location,
            ...(entry.latitude !== null && entry.longitude !== null
              ? { geo: { lat: entry.latitude, lon: entry.longitude } }
              : {}),
          }
        : null,
      url: entry.url,
      status: entry.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
  }
  return `${calendar.toString()}\r\n`;
}

/** One event as a file any calendar app can add ("Add to calendar"). */
export function eventCalendar(event: CalendarEvent, options: { url: string; host: string; now: Date }): string {
  return calendarFile([eventEntry(event, options.url)], { host: options.host, now: options.now });
}
