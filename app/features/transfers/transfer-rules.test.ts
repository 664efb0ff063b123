import { describe, expect, it } from "vitest";
import {
  handBackRefund,
  handBackRefusal,
  normaliseEmail,
  type PassingOnEvent,
  passingOnClosesAt,
  transferRefusal,
} from "./transfer-rules";

const event: PassingOnEvent = {
  status: "published",
  startsAt: new Date("2027-06-12T09:00:00Z"),
  transfers: "unlimited",
  transfersCloseHours: 2,
  handBackEnabled: true,
};
const ticket = { status: "valid" as const, transfers: 0 };
const before = new Date("2027-06-01T12:00:00Z");

describe("passing a ticket on closes", () => {
  it("the organizer's hours before the start", () => {
    expect(passingOnClosesAt(event).toISOString()).toBe("2027-06-12T07:00:00.000Z");
    expect(passingOnClosesAt({ ...event, transfersCloseHours: 0 }).toISOString()).toBe("2027-06-12T09:00:00.000Z");
  });

  it("for sending and handing back alike, from that moment on", () => {
    const closed = new Date("2027-06-12T07:00:00Z");
    const justBefore = new Date(closed.getTime() - 1);
    expect(transferRefusal(ticket, event, justBefore)).toBeNull();
    expect(transferRefusal(ticket, event, closed)).toMatch(/can no longer be passed on/);
    expect(handBackRefusal(ticket, event, { capacity: 10 }, justBefore)).toBeNull();
    expect(handBackRefusal(ticket, event, { capacity: 10 }, closed)).toMatch(/can no longer be passed on/);
  });
});

describe("a ticket may be sent to someone else", () => {
  it("any number of times when the organizer allows it without limit", () => {
    expect(transferRefusal({ status: "valid", transfers: 3 }, event, before)).toBeNull();
  });

  it("only by its first holder when the event allows one transfer per ticket", () => {
    const once = { ...event, transfers: "once" as const };
    expect(transferRefusal(ticket, once, before)).toBeNull();
    expect(transferRefusal({ status: "valid", transfers: 1 }, once, before)).toMatch(/only once/);
  });

  it("never when the organizer does not allow transfers", () => {
    expect(transferRefusal(ticket, { ...event, transfers: "off" }, before)).toMatch(/does not allow/);
  });

  it("only while it still admits and its event is on", () => {
    expect(transferRefusal({ status: "checked_in", transfers: 0 }, event, before)).toMatch(/used at the gate/);
    for (const status of ["refunded", "cancelled", "transferred"] as const) {
      expect(transferRefusal({ status, transfers: 0 }, event, before)).toMatch(/no longer admits/);
    }
    expect(transferRefusal(ticket, { ...event, status: "cancelled" }, before)).toMatch(/cancelled/);
  });
});

describe("a ticket may be handed back for resale", () => {
  it("when the organizer resells and its type has a capacity of its own", () => {
    expect(handBackRefusal(ticket, event, { capacity: 100 }, before)).toBeNull();
    expect(handBackRefusal(ticket, { ...event, handBackEnabled: false }, { capacity: 100 }, before)).toMatch(
      /does not resell/,
    );
    expect(handBackRefusal(ticket, event, { capacity: null }, before)).toMatch(/never sells out/);
  });

  it("whatever the transfer rule, but only by its buyer: a refund goes back to what paid for it", () => {
    expect(handBackRefusal(ticket, { ...event, transfers: "off" }, { capacity: 5 }, before)).toBeNull();
    expect(handBackRefusal({ status: "valid", transfers: 1 }, event, { capacity: 5 }, before)).toMatch(
      /passed on to you, so only its buyer can hand it back/,
    );
  });

  it("refunding what was paid less the organizer's fee, never below nothing", () => {
    expect(handBackRefund(4500, 0)).toBe(4500);
    expect(handBackRefund(4500, 250)).toBe(4250);
    expect(handBackRefund(200, 250)).toBe(0);
    expect(handBackRefund(0, 0)).toBe(0);
  });
});

it("email addresses compare trimmed and in lower case", () => {
  expect(normaliseEmail("  Sam.Driver@Example.COM ")).toBe("sam.driver@example.com");
});
