import { describe, expect, it } from "vitest";
import { type ListSettings, listClosesAt, listRunning, placesForTheLine } from "~/features/places/line-state";
import { joinProblem, offerEndsAt, offersToMake, ordinal, quantityProblem, sortKeyAt } from "./waiting-list-rules";

const NOW = new Date("2027-05-01T10:00:00Z");
const hours = (n: number) => new Date(NOW.getTime() + n * 3_600_000);

const event = (overrides: Partial<ListSettings> = {}): ListSettings => ({
  status: "published",
  startsAt: hours(24 * 30),
  waitingListEnabled: true,
  waitingListOfferHours: 24,
  waitingListClosesHours: 24,
  ...overrides,
});

describe("when a list takes people", () => {
  it("takes them for a sold-out ticket type of a published event whose list is on", () => {
    expect(joinProblem(event(), { kind: "sold_out" }, NOW)).toBeNull();
  });

  it("points to the cart while tickets can be bought, and says why otherwise", () => {
    expect(joinProblem(event(), { kind: "on_sale", remaining: 3, fewLeft: true }, NOW)).toBe(
      "These tickets are on sale: add them to your cart",
    );
    expect(joinProblem(event(), { kind: "not_yet", opensAt: hours(2) }, NOW)).toBe("These tickets are not on sale yet");
    expect(joinProblem(event(), { kind: "ended" }, NOW)).toBe("Sales of these tickets have ended");
    expect(joinProblem(event({ status: "cancelled" }), { kind: "cancelled" }, NOW)).toBe("This event is cancelled");
  });

  it("takes nobody once the organizer switches it off", () => {
    expect(joinProblem(event({ waitingListEnabled: false }), { kind: "sold_out" }, NOW)).toBe(
      "This event has no waiting list",
    );
    expect(listRunning(event({ waitingListEnabled: false }), NOW)).toBe(false);
  });

  it("switches itself off the set hours before the event starts", () => {
    const soon = event({ startsAt: hours(30), waitingListClosesHours: 6 });
    expect(listClosesAt(soon)).toEqual(hours(24));
    expect(listRunning(soon, new Date(hours(24).getTime() - 1))).toBe(true);
    expect(listRunning(soon, hours(24))).toBe(false);
    expect(joinProblem(soon, { kind: "sold_out" }, hours(24))).toBe("The waiting list for this event has closed");
  });

  it("lets a member wait for as many places as one order may buy", () => {
    expect(quantityProblem(4, 4)).toBeNull();
    expect(quantityProblem(5, 4)).toBe("Wait for at most 4 places");
    expect(quantityProblem(2, 1)).toBe("Wait for at most 1 place");
    expect(quantityProblem(0, 4)).toBe("Choose how many places you want");
    expect(quantityProblem(1.5, 4)).toBe("Choose how many places you want");
  });
});

describe("who is offered the places that come back", () => {
  const line = [
    { id: "ann", quantity: 2 },
    { id: "bob", quantity: 4 },
    { id: "cat", quantity: 1 },
    { id: "dan", quantity: 1 },
  ];

  it("offers them in line order, all the places each waits for", () => {
    expect(offersToMake(line, 3).map((entry) => entry.id)).toEqual(["ann", "cat"]);
    expect(offersToMake(line, 8).map((entry) => entry.id)).toEqual(["ann", "bob", "cat", "dan"]);
  });

  it("passes over someone waiting for more places than are free, who keeps their place", () => {
    expect(offersToMake(line, 1).map((entry) => entry.id)).toEqual(["cat"]);
  });

  it("offers nothing when nothing is free, and never more places than are", () => {
    expect(offersToMake(line, 0)).toEqual([]);
    for (let free = 0; free <= 10; free++) {
      const offered = offersToMake(line, free).reduce((sum, entry) => sum + entry.quantity, 0);
      expect(offered).toBeLessThanOrEqual(free);
    }
  });

  it("holds them for the organizer's hours, but never past the end of the sales", () => {
    expect(offerEndsAt(NOW, 24, hours(100))).toEqual(hours(24));
    expect(offerEndsAt(NOW, 24, hours(5))).toEqual(hours(5));
  });

  it("sets aside places that come back for the people waiting, never more than are free", () => {
    expect(placesForTheLine(5, 2)).toBe(2);
    expect(placesForTheLine(1, 2)).toBe(1);
    expect(placesForTheLine(3, -1)).toBe(0);
    expect(placesForTheLine(0, 10)).toBe(0);
  });
});

describe("where someone stands", () => {
  const keys = [1000, 2000, 3000];

  it("moves someone between two others without moving anyone else", () => {
    expect(sortKeyAt(keys, 1)).toBeLessThan(1000);
    expect(sortKeyAt(keys, 2)).toBe(1500);
    expect(sortKeyAt(keys, 3)).toBe(2500);
    expect(sortKeyAt(keys, 9)).toBeGreaterThan(3000);
    expect(sortKeyAt([], 1)).toBeGreaterThan(0);
  });

  it("says a place in line as people do", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(ordinal)).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "101st",
      "111th",
    ]);
  });
});
