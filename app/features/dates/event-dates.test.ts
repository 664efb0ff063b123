import { afterEach, describe, expect, it } from "vitest";
import { eventDateLabels, formatEventInstant } from "~/features/dates/event-dates";
import { eventDays, localDate, parseLocalDateTime, toLocalInputValue } from "~/features/dates/time-zones";
import { recordIntlAnswers } from "~/ui/intl-memo";

describe("event times in the event's own time zone", () => {
  it("reads a London summer time as BST and a winter time as GMT", () => {
    const summer = parseLocalDateTime("2027-06-12T10:00", "Europe/London");
    const winter = parseLocalDateTime("2027-01-16T10:00", "Europe/London");
    expect(summer).toEqual({ ok: true, instant: new Date("2027-06-12T09:00:00Z") });
    expect(winter).toEqual({ ok: true, instant: new Date("2027-01-16T10:00:00Z") });
    expect(formatEventInstant(new Date("2027-06-12T09:00:00Z"), "Europe/London")).toBe("Sat 12 Jun 2027, 10:00 BST");
    expect(formatEventInstant(new Date("2027-01-16T10:00:00Z"), "Europe/London")).toBe("Sat 16 Jan 2027, 10:00 GMT");
  });

  it("keeps the wall-clock times of an event that spans the clocks going back", () => {
    // Clocks go back at 02:00 BST on Sunday 31 October 2027.
    const starts = parseLocalDateTime("2027-10-30T18:00", "Europe/London");
    const ends = parseLocalDateTime("2027-10-31T18:00", "Europe/London");
    if (!starts.ok || !ends.ok) throw new Error("unparsed");
    expect(starts.instant.toISOString()).toBe("2027-10-30T17:00:00.000Z");
    expect(ends.instant.toISOString()).toBe("2027-10-31T18:00:00.000Z");
    // 25 hours apart, and both read 18:00 locally.
    expect(ends.instant.getTime() - starts.instant.getTime()).toBe(25 * 3600 * 1000);
    const labels = eventDateLabels(starts.instant, ends.instant, "Europe/London");
    expect(labels).toMatchObject({
      dates: "Sat 30 – Sun 31 October 2027",
      times: "Starts 18:00 · ends 18:00",
      zone: "BST",
      day: "30",
      month: "Oct",
      multiDay: true,
      dayCount: 2,
    });
  });

  it("takes the earlier instant in the repeated hour and refuses a time the clocks skip", () => {
    expect(parseLocalDateTime("2027-10-31T01:30", "Europe/London")).toEqual({
      ok: true,
      instant: new Date("2027-10-31T00:30:00Z"),
    });
    // Clocks go forward from 01:00 to 02:00 GMT on Sunday 28 March 2027.
    expect(parseLocalDateTime("2027-03-28T01:30", "Europe/London")).toEqual({ ok: false, reason: "missing" });
    expect(parseLocalDateTime("2027-03-28T02:30", "Europe/London")).toEqual({
      ok: true,
      instant: new Date("2027-03-28T01:30:00Z"),
    });
  });

  it("shows an event abroad in its zone, not the server's or the reader's", () => {
    const starts = new Date("2027-07-03T22:00:00Z"); // 18:00 in New York, 23:00 in London
    const ends = new Date("2027-07-04T03:00:00Z"); // 23:00 in New York, 04:00 in London next day
    const labels = eventDateLabels(starts, ends, "America/New_York");
    expect(labels).toMatchObject({ dates: "Sat 3 July 2027", times: "18:00 – 23:00", multiDay: false, day: "3" });
    expect(labels.zone).toMatch(/GMT-4|EDT/);
    expect(eventDateLabels(starts, ends, "Europe/London")).toMatchObject({ multiDay: true, day: "3" });
    expect(toLocalInputValue(starts, "Asia/Tokyo")).toBe("2027-07-04T07:00");
    expect(localDate(starts, "Australia/Sydney")).toBe("2027-07-04");
  });

  it("counts the days an event touches, not counting a midnight finish", () => {
    const starts = new Date("2027-06-12T08:00:00Z");
    // 23:00 UTC is midnight in London: the event does not take up the 14th there.
    expect(eventDays(starts, new Date("2027-06-13T23:00:00Z"), "Europe/London")).toEqual(["2027-06-12", "2027-06-13"]);
    // 23:30 UTC is half past midnight in London, still the 13th in UTC.
    expect(eventDays(starts, new Date("2027-06-13T23:30:00Z"), "Europe/London")).toEqual([
      "2027-06-12",
      "2027-06-13",
      "2027-06-14",
    ]);
    expect(eventDays(starts, new Date("2027-06-13T23:30:00Z"), "UTC")).toEqual(["2027-06-12", "2027-06-13"]);
  });

  it("names months and years once when they are shared", () => {
    const london = "Europe/London";
    expect(eventDateLabels(new Date("2027-05-29T09:00Z"), new Date("2027-06-01T15:00Z"), london).dates).toBe(
      "Sat 29 May – Tue 1 June 2027",
    );
    expect(eventDateLabels(new Date("2027-12-31T09:00Z"), new Date("2028-01-01T15:00Z"), london).dates).toBe(
      "Fri 31 December 2027 – Sat 1 January 2028",
    );
  });

  it("refuses impossible dates and malformed input", () => {
    for (const value of ["2027-02-30T10:00", "2027-06-12T24:00", "12/06/2027 10:00", "", "2027-06-12"]) {
      expect(parseLocalDateTime(value, "Europe/London")).toEqual({ ok: false, reason: "format" });
    }
  });
});

describe("what a page carries of its dates", () => {
  afterEach(() => recordIntlAnswers(() => undefined));

  it("records a date's parts in every render that shows it, not only the first", () => {
    const instant = new Date("2027-06-12T09:00:00Z");
    for (const render of ["first", "second"]) {
      const answers = new Map<string, unknown>();
      recordIntlAnswers(() => answers);
      formatEventInstant(instant, "Europe/London");
      expect([...answers.keys()], render).toContain(`parts Europe/London ${instant.getTime()}`);
    }
  });
});
