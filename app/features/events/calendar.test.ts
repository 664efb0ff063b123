import { describe, expect, it } from "vitest";
import {
  type CalendarEntry,
  type CalendarEvent,
  calendarFile,
  eventCalendar,
  eventLocation,
  timeZoneComponent,
} from "./calendar";
import { readCalendar } from "./calendar.test-support";
import { offsetChanges, zonedIso } from "./zone-offsets";

const festival: CalendarEvent = {
  id: "0b8f3c1e-4a7d-4b8e-9a3c-2f1d5e6a7b8c",
  title: "Silverstone Summer Festival",
  summary: "Two days of cars, clubs; and laps, on the Grand Prix circuit.",
  status: "published",
  cancelReason: null,
  // Sat 12 June 2027 09:00 BST to Sun 13 June 2027 18:00 BST.
  startsAt: new Date("2027-06-12T08:00:00Z"),
  endsAt: new Date("2027-06-13T17:00:00Z"),
  timeZone: "Europe/London",
  venue: "Silverstone Circuit",
  address: "Dadford Road, Silverstone",
  town: "Silverstone",
  postcode: "NN12 8TN",
  latitude: 52.0733,
  longitude: -1.0147,
  updatedAt: new Date("2027-01-05T10:00:00Z"),
};

const options = {
  url: "https://club.example/events/silverstone-summer-festival",
  host: "club.example",
  now: new Date("2027-02-01T12:30:00Z"),
};

const UID = "0b8f3c1e-4a7d-4b8e-9a3c-2f1d5e6a7b8c@club.example";

describe("the event's calendar file", () => {
  it("is one VEVENT in the event's own zone, read back to the same times", () => {
    const ics = eventCalendar(festival, options);
    const { entries, zones } = readCalendar(ics);
    expect(zones).toEqual(["Europe/London"]);
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toMatchObject({
      uid: UID,
      summary: "Silverstone Summer Festival",
      status: "CONFIRMED",
      tzid: "Europe/London",
      localStart: "20270612T090000",
      start: festival.startsAt,
      end: festival.endsAt,
      url: "https://club.example/events/silverstone-summer-festival",
      location: "Silverstone Circuit, Dadford Road, Silverstone, NN12 8TN",
      geo: [52.0733, -1.0147],
      description:
        "Two days of cars, clubs; and laps, on the Grand Prix circuit.\n\nTickets and details: https://club.example/events/silverstone-summer-festival",
      lastModified: festival.updatedAt,
    });
    expect(ics).toContain("DTSTAMP:20270201T123000Z");
    expect(ics).toContain("PRODID:-//Pitlane//Events//EN");
    expect(ics).toContain("METHOD:PUBLISH");
    // A single event is not a calendar of its own: no name, so apps add it to the one in use.
    expect(ics).not.toContain("X-WR-CALNAME");
  });

  it("keeps its UID across an edit, with a higher SEQUENCE and LAST-MODIFIED", () => {
    const before = readCalendar(eventCalendar(festival, options)).entries[0]!;
    const edited = {
      ...festival,
      title: "Silverstone Summer Festival 2027",
      updatedAt: new Date("2027-01-20T09:00:00Z"),
    };
    const after = readCalendar(eventCalendar(edited, options)).entries[0]!;
    expect(after.uid).toBe(before.uid);
    expect(after.sequence).toBeGreaterThan(before.sequence);
    expect(after.lastModified).toEqual(edited.updatedAt);
    expect(after.summary).toBe("Silverstone Summer Festival 2027");
  });

  it("marks a cancelled event with the same UID and says why", () => {
    const before = readCalendar(eventCalendar(festival, options)).entries[0]!;
    const cancelled = {
      ...festival,
      status: "cancelled" as const,
      cancelReason: "The circuit is flooded.",
      updatedAt: new Date("2027-06-01T07:00:00Z"),
    };
    const [entry] = readCalendar(eventCalendar(cancelled, options)).entries;
    expect(entry).toMatchObject({ uid: UID, status: "CANCELLED", summary: "Cancelled: Silverstone Summer Festival" });
    expect(entry!.sequence).toBeGreaterThan(before.sequence);
    expect(entry!.description).toMatch(/^Cancelled: The circuit is flooded\.\n\n/);
  });

  it("keeps the local times of an event across the clocks going back", () => {
    const autumn = {
      ...festival,
      startsAt: new Date("2027-10-30T17:00:00Z"), // 18:00 BST
      endsAt: new Date("2027-10-31T18:00:00Z"), // 18:00 GMT
    };
    const ics = eventCalendar(autumn, options);
    expect(ics).toContain("DTSTART;TZID=Europe/London:20271030T180000");
    expect(ics).toContain("DTEND;TZID=Europe/London:20271031T180000");
    const [entry] = readCalendar(ics).entries;
    expect(entry!.start).toEqual(autumn.startsAt);
    expect(entry!.end).toEqual(autumn.endsAt);
  });

  it("leaves out GEO when the place has no coordinates", () => {
    const ics = eventCalendar({ ...festival, latitude: null, longitude: null }, options);
    expect(ics).not.toContain("GEO:");
    expect(readCalendar(ics).entries[0]!.geo).toBeNull();
  });

  it("escapes and folds text so it reads back exactly, emoji and all", () => {
    const title = `Night run, "quoted"; with a backslash \\ and émoji 🏁 ${"x".repeat(90)}`;
    const [entry] = readCalendar(eventCalendar({ ...festival, title }, options)).entries;
    expect(entry!.summary).toBe(title);
  });
});

describe("a calendar of several entries", () => {
  const entry = (uid: string, startsAt: string, endsAt: string, timeZone: string): CalendarEntry => ({
    uid,
    title: uid,
    description: "",
    cancelled: false,
    startsAt: new Date(startsAt),
    endsAt: new Date(endsAt),
    timeZone,
    location: "",
    latitude: null,
    longitude: null,
    url: `https://club.example/${uid}`,
    updatedAt: new Date("2027-01-01T00:00:00Z"),
  });

  it("describes each zone once, over the years of every entry in it, and names the feed", () => {
    const ics = calendarFile(
      [
        entry("june", "2027-06-12T08:00:00Z", "2027-06-12T17:00:00Z", "Europe/London"),
        entry("next-march", "2028-03-04T10:00:00Z", "2028-03-04T16:00:00Z", "Europe/London"),
        entry("july-fourth", "2027-07-04T16:00:00Z", "2027-07-04T22:00:00Z", "America/New_York"),
      ],
      {
        host: "club.example",
        now: new Date("2027-02-01T12:30:00Z"),
        feed: {
          name: "Pitlane events",
          description: "Every event",
          url: "https://club.example/events.ics",
          refreshMinutes: 360,
        },
      },
    );
    const read = readCalendar(ics);
    expect(read.zones.sort()).toEqual(["America/New_York", "Europe/London"]);
    expect(read.entries.map((e) => [e.uid, e.localStart])).toEqual([
      ["june@club.example", "20270612T090000"],
      ["next-march@club.example", "20280304T100000"],
      ["july-fourth@club.example", "20270704T120000"],
    ]);
    // London's VTIMEZONE reaches March 2028, the spring change after the last entry included.
    expect(ics).toContain("DTSTART:20280326T010000");
    expect(read.property("x-wr-calname")).toBe("Pitlane events");
    expect(ics).toContain("REFRESH-INTERVAL;VALUE=DURATION:PT6H");
    expect(ics).toContain("X-PUBLISHED-TTL:PT6H");
    // No calendar-wide zone: DTSTAMP stays in UTC.
    expect(ics).not.toContain("X-WR-TIMEZONE");
  });

  it("is an empty but valid calendar with no entries", () => {
    const read = readCalendar(calendarFile([], { host: "club.example", now: new Date("2027-02-01T12:30:00Z") }));
    expect(read.entries).toEqual([]);
    expect(read.zones).toEqual([]);
  });
});

describe("time zones", () => {
  it("describes London's clocks changing in the years around the event", () => {
    const lines = timeZoneComponent("Europe/London", festival.startsAt, festival.endsAt);
    expect(lines[0]).toBe("BEGIN:VTIMEZONE");
    expect(lines).toContain("TZID:Europe/London");
    const text = lines.join("\n");
    // 28 March 2027: 01:00 GMT becomes 02:00 BST. 31 October 2027: 02:00 BST becomes 01:00 GMT.
    expect(text).toContain(
      "BEGIN:DAYLIGHT\nDTSTART:20270328T010000\nTZOFFSETFROM:+0000\nTZOFFSETTO:+0100\nTZNAME:BST\nEND:DAYLIGHT",
    );
    expect(text).toContain(
      "BEGIN:STANDARD\nDTSTART:20271031T020000\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0000\nTZNAME:GMT\nEND:STANDARD",
    );
    // The year before is there too, so the rule in force before March is known.
    expect(text).toContain("DTSTART:20261025T020000");
    expect(lines.filter((line) => line === "BEGIN:DAYLIGHT")).toHaveLength(2);
    expect(lines.filter((line) => line === "BEGIN:STANDARD")).toHaveLength(2);
  });

  it("gives a zone without daylight saving one standard observance", () => {
    const lines = timeZoneComponent("Asia/Tokyo", new Date("2027-07-03T01:00Z"), new Date("2027-07-03T09:00Z"));
    expect(lines).toEqual([
      "BEGIN:VTIMEZONE",
      "TZID:Asia/Tokyo",
      "BEGIN:STANDARD",
      "DTSTART:19700101T000000",
      "TZOFFSETFROM:+0900",
      "TZOFFSETTO:+0900",
      expect.stringMatching(/^TZNAME:/),
      "END:STANDARD",
      "END:VTIMEZONE",
    ]);
    const tokyo = {
      ...festival,
      timeZone: "Asia/Tokyo",
      startsAt: new Date("2027-07-03T01:00Z"),
      endsAt: new Date("2027-07-03T09:00Z"),
    };
    const [entry] = readCalendar(eventCalendar(tokyo, options)).entries;
    expect(entry).toMatchObject({ tzid: "Asia/Tokyo", localStart: "20270703T100000", start: tokyo.startsAt });
  });

  it("finds the changes of a zone south of the equator and one behind UTC", () => {
    const sydney = offsetChanges(new Date("2027-01-01Z"), new Date("2028-01-01Z"), "Australia/Sydney");
    // 4 April 2027 03:00 AEDT → 02:00 AEST; 3 October 2027 02:00 AEST → 03:00 AEDT.
    expect(sydney).toEqual([
      { at: new Date("2027-04-03T16:00:00Z"), from: 660, to: 600 },
      { at: new Date("2027-10-02T16:00:00Z"), from: 600, to: 660 },
    ]);
    const newYork = offsetChanges(new Date("2027-01-01Z"), new Date("2028-01-01Z"), "America/New_York");
    expect(newYork.map((change) => change.at.toISOString())).toEqual([
      "2027-03-14T07:00:00.000Z",
      "2027-11-07T06:00:00.000Z",
    ]);
    const lines = timeZoneComponent("America/New_York", new Date("2027-07-03T22:00Z"), new Date("2027-07-04T03:00Z"));
    expect(lines.join("\n")).toContain("BEGIN:DAYLIGHT\nDTSTART:20270314T020000\nTZOFFSETFROM:-0500\nTZOFFSETTO:-0400");
  });

  it("reads an instant as the event's wall-clock time and offset", () => {
    expect(zonedIso(new Date("2027-06-12T08:00:00Z"), "Europe/London")).toBe("2027-06-12T09:00:00+01:00");
    expect(zonedIso(new Date("2027-01-16T10:00:00Z"), "Europe/London")).toBe("2027-01-16T10:00:00+00:00");
    expect(zonedIso(new Date("2027-07-03T22:00:00Z"), "America/New_York")).toBe("2027-07-03T18:00:00-04:00");
    expect(zonedIso(new Date("2027-07-03T22:00:00Z"), "Asia/Kolkata")).toBe("2027-07-04T03:30:00+05:30");
  });
});

describe("the place", () => {
  it("names the place once, town included", () => {
    expect(eventLocation(festival)).toBe("Silverstone Circuit, Dadford Road, Silverstone, NN12 8TN");
    expect(eventLocation({ ...festival, address: "Dadford Road" })).toBe(
      "Silverstone Circuit, Dadford Road, Silverstone, NN12 8TN",
    );
    expect(eventLocation({ venue: "Bicester Heritage", address: "", town: "Bicester", postcode: "" })).toBe(
      "Bicester Heritage, Bicester",
    );
  });
});
