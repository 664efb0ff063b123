import { describe, expect, it } from "vitest";
import { type AdmissionEntry, admittedTwice, admittedWhileRefused, decideOffline, initialsOf } from "./offline-rules";

const zone = "Europe/London";
const now = new Date("2027-06-12T09:30:00Z");
const types = ["Weekend pass", "Annual member", "Exhibitor"];
const context = { types, timeZone: zone, now, signed: true };

const ticket = (s: AdmissionEntry["s"], a: string | null = null): AdmissionEntry => ({
  h: "hash",
  k: "ticket",
  t: 0,
  n: "A. B.",
  s,
  a,
});

describe("a scan decided on the device", () => {
  it("admits a valid ticket with the holder's initials and its type", () => {
    expect(decideOffline(ticket("valid"), context)).toEqual({
      decision: "admitted",
      headline: "Checked in: A. B., Weekend pass",
      detail: null,
    });
  });

  it("says when a ticket came in before: on the list, or on this device since", () => {
    expect(decideOffline(ticket("checked_in", "2027-06-12T09:02:00Z"), context)).toMatchObject({
      decision: "already",
      headline: "Already checked in at 10:02",
    });
    expect(decideOffline(ticket("valid"), { ...context, admittedAt: new Date("2027-06-12T09:05:00Z") })).toMatchObject({
      decision: "already",
      headline: "Already checked in at 10:05",
    });
  });

  it("turns away a refunded, transferred or cancelled ticket, and says why", () => {
    expect(decideOffline(ticket("refunded"), context)).toMatchObject({
      decision: "refused",
      headline: "This ticket was refunded",
      detail: "A. B., Weekend pass. Do not admit.",
    });
    expect(decideOffline(ticket("transferred"), context)).toMatchObject({ headline: "This ticket was transferred" });
    expect(decideOffline(ticket("cancelled"), context)).toMatchObject({ headline: "This ticket was cancelled" });
  });

  it("turns away a forged code, and a code not on the event's list", () => {
    expect(decideOffline(ticket("valid"), { ...context, signed: false })).toMatchObject({
      decision: "refused",
      headline: "This code is not a valid ticket",
      detail: "The code's signature is wrong.",
    });
    expect(decideOffline(undefined, context)).toMatchObject({
      decision: "refused",
      detail: "It is not on this event's list. Check it when the connection is back.",
    });
  });

  it("admits a member card with benefits once, and refuses a lapsed one or one not for entry", () => {
    const card = (s: AdmissionEntry["s"]): AdmissionEntry => ({ h: "m", k: "member", t: 1, n: "S. H.", s, a: null });
    expect(decideOffline(card("valid"), context)).toMatchObject({
      decision: "admitted",
      headline: "Member: S. H., Annual member",
    });
    expect(decideOffline(card("valid"), { ...context, admittedAt: new Date("2027-06-12T08:00:00Z") })).toMatchObject({
      decision: "already",
      detail: "Member: S. H., Annual member",
    });
    expect(decideOffline(card("lapsed"), context)).toMatchObject({
      decision: "refused",
      headline: "Membership lapsed",
    });
    expect(decideOffline(card("not_for_entry"), context)).toMatchObject({
      decision: "refused",
      headline: "Member, not valid for entry",
    });
  });

  it("admits an exhibitor pass with its car, and refuses a cancelled one", () => {
    const pass = (s: AdmissionEntry["s"]): AdmissionEntry => ({
      h: "p",
      k: "pass",
      t: 2,
      n: "1989 Ford Sierra",
      s,
      a: null,
    });
    expect(decideOffline(pass("valid"), context)).toMatchObject({
      decision: "admitted",
      headline: "Exhibitor: 1989 Ford Sierra",
    });
    expect(decideOffline(pass("cancelled"), context)).toMatchObject({
      decision: "refused",
      headline: "This exhibitor pass was cancelled",
    });
  });
});

describe("what a steward sees of a holder", () => {
  it("is their initials, at most three", () => {
    expect(initialsOf("Sam Hartley")).toBe("S. H.");
    expect(initialsOf("  ann   de la rue ")).toBe("A. D. L.");
    expect(initialsOf("")).toBe("—");
    expect(initialsOf(null)).toBe("—");
  });
});

describe("conflicts for the supervisor", () => {
  const at = (time: string) => new Date(`2027-06-12T${time}:00Z`);

  it("name both gates and both times, earliest first", () => {
    expect(
      admittedTwice(
        [
          { gate: "B", at: at("09:05") },
          { gate: "A", at: at("09:02") },
        ],
        zone,
        now,
      ),
    ).toBe("Admitted twice, at gates A and B, 10:02 and 10:05");
    expect(
      admittedTwice(
        [
          { gate: "A", at: at("09:02") },
          { gate: "A", at: at("09:07") },
        ],
        zone,
        now,
      ),
    ).toBe("Admitted twice at gate A, 10:02 and 10:07");
    expect(
      admittedTwice(
        [
          { gate: null, at: at("09:01") },
          { gate: "C", at: at("09:03") },
        ],
        zone,
        now,
      ),
    ).toBe("Admitted twice, online and at gate C, 10:01 and 10:03");
  });

  it("say when a device let in a ticket refunded since its list was made", () => {
    expect(admittedWhileRefused({ gate: "A", at: at("09:02") }, "This ticket was refunded", zone, now)).toBe(
      "Admitted at gate A, 10:02, though the ticket was refunded",
    );
  });
});

describe("entries and exits at an event with re-entry", () => {
  const reentry = { ...context, reentry: true };
  const inside = ticket("checked_in", "2027-06-12T09:02:00Z");
  const wentOut = { ...inside, o: "2027-06-12T09:10:00Z" };

  it("scans a holder who is inside out, and says they can come back in", () => {
    expect(decideOffline(inside, { ...reentry, direction: "out" })).toEqual({
      decision: "admitted",
      headline: "Out: A. B., Weekend pass",
      detail: "They can come back in with this ticket.",
    });
  });

  it("lets a holder who went out back in, by the list or by this device's own exit scan", () => {
    expect(decideOffline(wentOut, reentry)).toEqual({
      decision: "admitted",
      headline: "Back in: A. B., Weekend pass",
      detail: null,
    });
    const outHere = { direction: "out" as const, at: new Date("2027-06-12T09:20:00Z") };
    expect(decideOffline(inside, { ...reentry, lastMove: outHere })).toMatchObject({ decision: "admitted" });
    // Back in on this device: a second entry scan is "already".
    const inHere = { direction: "in" as const, at: new Date("2027-06-12T09:25:00Z") };
    expect(decideOffline(wentOut, { ...reentry, lastMove: inHere })).toMatchObject({
      decision: "already",
      headline: "Already checked in at 10:02",
    });
  });

  it("says when a holder is already out, or never came in", () => {
    expect(decideOffline(wentOut, { ...reentry, direction: "out" })).toEqual({
      decision: "already",
      headline: "Already out at 10:10",
      detail: "A. B., Weekend pass",
    });
    expect(decideOffline(ticket("valid"), { ...reentry, direction: "out" })).toEqual({
      decision: "already",
      headline: "Not checked in yet",
      detail: "A. B., Weekend pass. Nothing to scan out.",
    });
  });

  it("refuses exits where there is no re-entry, of refunded tickets, and of anything but a ticket", () => {
    expect(decideOffline(inside, { ...context, direction: "out" })).toMatchObject({
      decision: "refused",
      headline: "This event has no re-entry",
    });
    expect(decideOffline(ticket("refunded"), { ...reentry, direction: "out" })).toMatchObject({
      decision: "refused",
      headline: "This ticket was refunded",
    });
    const card: AdmissionEntry = { h: "m", k: "member", t: 1, n: "C. D.", s: "checked_in", a: "2027-06-12T09:02:00Z" };
    expect(decideOffline(card, { ...reentry, direction: "out" })).toMatchObject({
      decision: "refused",
      headline: "No ticket for this event has this code",
    });
    expect(decideOffline(undefined, { ...reentry, direction: "out" })).toMatchObject({
      headline: "No ticket for this event has this code",
    });
  });

  it("without re-entry, a holder who went out is still in: a second entry is already", () => {
    expect(decideOffline(wentOut, context)).toMatchObject({ decision: "already" });
  });
});
