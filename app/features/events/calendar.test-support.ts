import ICAL from "ical.js";
import { expect } from "vitest";

/** One VEVENT of a calendar file as a calendar app reads it. */
type ReadEntry = {
  uid: string;
  summary: string;
  status: string;
  sequence: number;
  url: string | null;
  location: string | null;
  geo: [number, number] | null;
  description: string;
  tzid: string;
  /** DTSTART as written: "20270612T090000". */
  localStart: string;
  start: Date;
  end: Date;
  lastModified: Date | null;
};

const localOf = (time: ICAL.Time) => time.toICALString().replace(/Z$/, "");

/**
 * Reads a calendar file with ical.js, as a calendar app would, and checks what every file we
 * write must have: each VEVENT a UID, a DTSTAMP in UTC and a DTSTART (and DTEND) with a TZID that
 * a VTIMEZONE of the file describes. Times are read back through that VTIMEZONE.
 */
export function readCalendar(ics: string) {
  expect(ics.endsWith("\r\n")).toBe(true);
  for (const line of ics.slice(0, -2).split("\r\n")) {
    expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
  }
  const root = new ICAL.Component(ICAL.parse(ics));
  expect(root.name).toBe("vcalendar");
  const zones = new Map<string, ICAL.Timezone>();
  for (const component of root.getAllSubcomponents("vtimezone")) {
    const zone = new ICAL.Timezone(component);
    expect(zones.has(zone.tzid)).toBe(false);
    zones.set(zone.tzid, zone);
  }
  const entries: ReadEntry[] = root.getAllSubcomponents("vevent").map((vevent) => {
    const uid = vevent.getFirstPropertyValue("uid");
    expect(typeof uid).toBe("string");
    const stamp = vevent.getFirstProperty("dtstamp");
    expect(stamp, `DTSTAMP of ${uid}`).toBeTruthy();
    expect((stamp!.getFirstValue() as ICAL.Time).toICALString()).toMatch(/Z$/);
    const zoneOf = (name: "dtstart" | "dtend") => {
      const property = vevent.getFirstProperty(name);
      expect(property, `${name} of ${uid}`).toBeTruthy();
      const tzid = property!.getParameter("tzid");
      expect(typeof tzid, `TZID of ${name} of ${uid}`).toBe("string");
      const zone = zones.get(tzid as string);
      expect(zone, `VTIMEZONE ${tzid}`).toBeTruthy();
      const time = (property!.getFirstValue() as ICAL.Time).clone();
      const local = localOf(time);
      time.zone = zone!;
      return { tzid: tzid as string, local, instant: time.toJSDate() };
    };
    const start = zoneOf("dtstart");
    const end = zoneOf("dtend");
    expect(end.tzid).toBe(start.tzid);
    const geo = vevent.getFirstPropertyValue("geo") as [number, number] | null;
    const lastModified = vevent.getFirstPropertyValue("last-modified") as ICAL.Time | null;
    return {
      uid: uid as string,
      summary: String(vevent.getFirstPropertyValue("summary") ?? ""),
      status: String(vevent.getFirstPropertyValue("status") ?? ""),
      sequence: Number(vevent.getFirstPropertyValue("sequence") ?? 0),
      url: (vevent.getFirstPropertyValue("url") as string | null) ?? null,
      location: (vevent.getFirstPropertyValue("location") as string | null) ?? null,
      geo: geo ? [Number(geo[0]), Number(geo[1])] : null,
      description: String(vevent.getFirstPropertyValue("description") ?? ""),
      tzid: start.tzid,
      localStart: start.local,
      start: start.instant,
      end: end.instant,
      lastModified: lastModified ? lastModified.toJSDate() : null,
    };
  });
  const property = (name: string) => (root.getFirstPropertyValue(name) as string | null) ?? null;
  return { entries, zones: [...zones.keys()], property };
}
