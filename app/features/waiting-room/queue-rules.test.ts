import { describe, expect, it } from "vitest";
import { admittedThrough, describeExpectedWait, drawNumber, queueApplies, turnAt, turnEndsAt } from "./queue-rules";

const opensAt = new Date("2027-05-01T10:00:00Z");
const settings = { enabled: true, opensAt, ratePerMinute: 50, admissionMinutes: 20 };
const at = (seconds: number) => new Date(opensAt.getTime() + seconds * 1000);

describe("queue rules", () => {
  it("runs only when switched on and sales open at a set time", () => {
    expect(queueApplies(settings)).toBe(true);
    expect(queueApplies({ ...settings, enabled: false })).toBe(false);
    expect(queueApplies({ ...settings, opensAt: null })).toBe(false);
  });

  it("lets nobody through before opening, a batch at opening, then a batch every minute", () => {
    expect(admittedThrough(settings, at(-1))).toBe(0);
    expect(admittedThrough(settings, at(0))).toBe(50);
    expect(admittedThrough(settings, at(59))).toBe(50);
    expect(admittedThrough(settings, at(60))).toBe(100);
    expect(admittedThrough(settings, at(10 * 60 + 30))).toBe(550);
  });

  it("says when a position's turn comes, agreeing with the batches", () => {
    expect(turnAt(settings, 1)).toEqual(at(0));
    expect(turnAt(settings, 50)).toEqual(at(0));
    expect(turnAt(settings, 51)).toEqual(at(60));
    expect(turnAt(settings, 1000)).toEqual(at(19 * 60));
    for (const position of [1, 49, 50, 51, 333, 1000]) {
      expect(admittedThrough(settings, turnAt(settings, position))).toBeGreaterThanOrEqual(position);
      expect(admittedThrough(settings, new Date(turnAt(settings, position).getTime() - 1))).toBeLessThan(position);
    }
  });

  it("ends a turn after the event's admission minutes", () => {
    expect(turnEndsAt(settings, at(30))).toEqual(at(30 + 20 * 60));
  });

  it("describes an expected wait in rounded-up minutes", () => {
    expect(describeExpectedWait(0)).toBe("less than a minute");
    expect(describeExpectedWait(59_000)).toBe("less than a minute");
    expect(describeExpectedWait(61_000)).toBe("about 2 minutes");
    expect(describeExpectedWait(60_000)).toBe("about 1 minute");
    expect(describeExpectedWait(90 * 60_000)).toBe("about 1 hour 30 minutes");
    expect(describeExpectedWait(120 * 60_000)).toBe("about 2 hours");
  });

  it("reads a draw from six random bytes", () => {
    expect(drawNumber(new Uint8Array([0, 0, 0, 0, 0, 1]))).toBe(1);
    expect(drawNumber(new Uint8Array([255, 255, 255, 255, 255, 255]))).toBe(2 ** 48 - 1);
  });
});
