import { wallTimeAt } from "~/features/dates/time-zones";
import { formatOffset, offsetChanges, offsetMinutes } from "./zone-offsets";

/**
 * An event as an iCalendar file (RFC 5545) for "Add to calendar".
 * Times are written as wall-clock times in the event's own zone with a VTIMEZONE describing
 * that zone, so a calendar shows 10:00 at Silverstone whatever zone its owner is in, and an
 * event across a clock change keeps its local times.
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

const CRLF = "\r\n";
const pad = (value: number, length = 2) => String(value).padStart(length, "0");

/** TEXT values (RFC 5545 3.3.11): backslash, semicolon and comma escaped, line breaks as \n. */
export function escapeText(value: string) {
  return (
    value
      .replace(/\\/g, "\\\\")
      .replace(/;/g, "\\;")
      .replace(/,/g, "\\,")
      .replace(/\r\n|\r|\n/g, "\\n")
      .replace(/\t/g, " ")
      // Other control characters are not allowed in TEXT at all.
      .replace(/\p{Cc}/gu, "")
  );
}

const encoder = new TextEncoder();

/**
 * Content lines longer than 75 octets are folded (RFC 5545 3.1): a line break and a space, never
 * inside a UTF-8 character.
 */
export function foldLine(line: string) {
  const parts: string[] = [];
  let current = "";
  let size = 0;
  for (const char of line) {
    const bytes = encoder.encode(char).length;
    // The first line holds 75 octets; each continuation starts with a space, so 74 more.
    const limit = parts.length === 0 ? 75 : 74;
    if (size + bytes > limit) {
      parts.push(current);
      current = "";
      size = 0;
    }
    current += char;
    size += bytes;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

/** "20270612T100000" for a wall-clock time, with "Z" for UTC. */
function localStamp(instant: Date, timeZone: string) {
  const wall = wallTimeAt(instant, timeZone);
  return `${pad(wall.year, 4)}${pad(wall.month)}${pad(wall.day)}T${pad(wall.hour)}${pad(wall.minute)}${pad(wall.second)}`;
}

const utcStamp = (instant: Date) => `${localStamp(instant, "UTC")}Z`;

function zoneName(instant: Date, timeZone: string) {
  const part = new Intl.DateTimeFormat("en-GB", { timeZone, timeZoneName: "short" })
    .formatToParts(instant)
    .find((p) => p.type === "timeZoneName");
  return part?.value ?? timeZone;
}

/**
 * The VTIMEZONE of `timeZone` for the years an event touches: every change of offset from the
 * start of the year before (so the rule in force at the start is there) to the end of the last.
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
      `TZNAME:${escapeText(zoneName(startsAt, timeZone))}`,
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
      `TZNAME:${escapeText(zoneName(change.at, timeZone))}`,
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

export function eventCalendar(
  event: CalendarEvent,
  options: { url: string; host: string; siteName: string; now: Date },
): string {
  const cancelled = event.status === "cancelled";
  const description = [
    cancelled ? `Cancelled${event.cancelReason ? `: ${event.cancelReason}` : "."}` : "",
    event.summary,
    `Tickets and details: ${options.url}`,
  ]
    .filter(Boolean)
    .join("\n\n");
  const zone = event.timeZone;
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Pitlane//Events//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    ...timeZoneComponent(zone, event.startsAt, event.endsAt),
    "BEGIN:VEVENT",
    `UID:${event.id}@${options.host}`,
    `DTSTAMP:${utcStamp(options.now)}`,
    `LAST-MODIFIED:${utcStamp(event.updatedAt)}`,
    // A cancellation is a new version of the same event, so calendars that have it update it.
    `SEQUENCE:${cancelled ? 1 : 0}`,
    `DTSTART;TZID=${zone}:${localStamp(event.startsAt, zone)}`,
    `DTEND;TZID=${zone}:${localStamp(event.endsAt, zone)}`,
    `SUMMARY:${escapeText(cancelled ? `Cancelled: ${event.title}` : event.title)}`,
    `LOCATION:${escapeText(eventLocation(event))}`,
    ...(event.latitude !== null && event.longitude !== null ? [`GEO:${event.latitude};${event.longitude}`] : []),
    `DESCRIPTION:${escapeText(description)}`,
    `URL:${options.url}`,
    `STATUS:${cancelled ? "CANCELLED" : "CONFIRMED"}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}
