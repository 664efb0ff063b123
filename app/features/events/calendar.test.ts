import { describe, expect, it } from "vitest";
import { type CalendarEvent, escapeText, eventCalendar, eventLocation, foldLine, timeZoneComponent } from "./calendar";
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
  siteName: "Pitlane",
  now: new Date("2027-02-01T12:30:00Z"),
};

/** Unfolds the file back into content lines, checking the line ends and fold limits on the way. */
function contentLines(ics: string) {
  expect(ics.endsWith("\r\n")).toBe(true);
  const physical = ics.slice(0, -2).split("\r\n");
  for (const line of physical) {
    expect(line).not.toMatch(/[\r\n]/);
    expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
  }
  const lines: string[] = [];
  for (const line of physical) {
    if (line.startsWith(" ")) lines[lines.length - 1] += line.slice(1);
    else lines.push(line);
  }
  return lines;
}

function property(lines: string[], name: string) {
  return lines.filter((line) => line.startsWith(`${name}:`) || line.startsWith(`${name};`));
}

describe("the event's calendar file", () => {
  it("is a VCALENDAR with one VEVENT in the event's own zone", () => {
    const lines = contentLines(eventCalendar(festival, options));
    expect(lines[0]).toBe("BEGIN:VCALENDAR");
    expect(lines.at(-1)).toBe("END:VCALENDAR");
    expect(lines).toContain("VERSION:2.0");
    expect(property(lines, "PRODID")).toHaveLength(1);
    expect(lines.filter((line) => line === "BEGIN:VEVENT")).toHaveLength(1);
    expect(lines).toContain("UID:0b8f3c1e-4a7d-4b8e-9a3c-2f1d5e6a7b8c@club.example");
    expect(lines).toContain("DTSTAMP:20270201T123000Z");
    expect(lines).toContain("DTSTART;TZID=Europe/London:20270612T090000");
    expect(lines).toContain("DTEND;TZID=Europe/London:20270613T180000");
    expect(lines).toContain("SUMMARY:Silverstone Summer Festival");
    expect(lines).toContain("LOCATION:Silverstone Circuit\\, Dadford Road\\, Silverstone\\, NN12 8TN");
    expect(lines).toContain("GEO:52.0733;-1.0147");
    expect(lines).toContain("URL:https://club.example/events/silverstone-summer-festival");
    expect(lines).toContain("STATUS:CONFIRMED");
    expect(property(lines, "DESCRIPTION")[0]).toBe(
      "DESCRIPTION:Two days of cars\\, clubs\\; and laps\\, on the Grand Prix circuit.\\n\\nTickets and details: https://club.example/events/silverstone-summer-festival",
    );
  });

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

  it("keeps the local times of an event across the clocks going back", () => {
    const autumn = {
      ...festival,
      startsAt: new Date("2027-10-30T17:00:00Z"), // 18:00 BST
      endsAt: new Date("2027-10-31T18:00:00Z"), // 18:00 GMT
    };
    const lines = contentLines(eventCalendar(autumn, options));
    expect(lines).toContain("DTSTART;TZID=Europe/London:20271030T180000");
    expect(lines).toContain("DTEND;TZID=Europe/London:20271031T180000");
  });

  it("names the place once, town included", () => {
    expect(eventLocation(festival)).toBe("Silverstone Circuit, Dadford Road, Silverstone, NN12 8TN");
    expect(eventLocation({ ...festival, address: "Dadford Road" })).toBe(
      "Silverstone Circuit, Dadford Road, Silverstone, NN12 8TN",
    );
    expect(eventLocation({ venue: "Bicester Heritage", address: "", town: "Bicester", postcode: "" })).toBe(
      "Bicester Heritage, Bicester",
    );
  });

  it("marks a cancelled event and says why", () => {
    const lines = contentLines(
      eventCalendar({ ...festival, status: "cancelled", cancelReason: "The circuit is flooded." }, options),
    );
    expect(lines).toContain("STATUS:CANCELLED");
    expect(lines).toContain("SEQUENCE:1");
    expect(lines).toContain("SUMMARY:Cancelled: Silverstone Summer Festival");
    expect(property(lines, "DESCRIPTION")[0]).toMatch(/^DESCRIPTION:Cancelled: The circuit is flooded\.\\n\\n/);
  });

  it("escapes text and folds long lines at 75 octets without splitting a character", () => {
    expect(escapeText("a\\b;c,d\ne\r\nf")).toBe("a\\\\b\\;c\\,d\\ne\\nf");
    const long = `SUMMARY:${"Café racer ".repeat(20)}`;
    const folded = foldLine(long);
    const physical = folded.split("\r\n");
    expect(physical.length).toBeGreaterThan(2);
    expect(physical.slice(1).every((line) => line.startsWith(" "))).toBe(true);
    for (const line of physical) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(physical.map((line, i) => (i === 0 ? line : line.slice(1))).join("")).toBe(long);

    const title = `Night run, "quoted"; with a backslash \\ and émoji 🏁 ${"x".repeat(90)}`;
    const lines = contentLines(eventCalendar({ ...festival, title }, options));
    expect(property(lines, "SUMMARY")[0]).toBe(`SUMMARY:${escapeText(title)}`);
  });
});

describe("times with their offset", () => {
  it("reads an instant as the event's wall-clock time and offset", () => {
    expect(zonedIso(new Date("2027-06-12T08:00:00Z"), "Europe/London")).toBe("2027-06-12T09:00:00+01:00");
    expect(zonedIso(new Date("2027-01-16T10:00:00Z"), "Europe/London")).toBe("2027-01-16T10:00:00+00:00");
    expect(zonedIso(new Date("2027-07-03T22:00:00Z"), "America/New_York")).toBe("2027-07-03T18:00:00-04:00");
    expect(zonedIso(new Date("2027-07-03T22:00:00Z"), "Asia/Kolkata")).toBe("2027-07-04T03:30:00+05:30");
  });
});
