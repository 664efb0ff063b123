import { describe, expect, it } from "vitest";
import { type Voting, type VotingTicket, voteProblem } from "./vote-rules";

const now = new Date("2027-06-12T13:00:00Z");
const voting: Voting = {
  eventId: "show",
  opensAt: new Date("2027-06-12T09:00:00Z"),
  closesAt: new Date("2027-06-12T15:00:00Z"),
};
const admitted: VotingTicket = { eventId: "show", status: "checked_in", holderId: "sam" };
const vote = (overrides: Partial<Parameters<typeof voteProblem>[0]> = {}) =>
  voteProblem({ voting, ticket: admitted, voterId: "sam", carOwnerId: "alex", now, ...overrides });

describe("a People's Choice ballot", () => {
  it("is cast with a ticket of your own, checked in at this show, while voting is open", () => {
    expect(vote()).toBeNull();
  });

  it("waits for voting to open, and ends when it closes", () => {
    expect(vote({ now: new Date("2027-06-12T08:59:59Z") })).toBe("Voting has not opened yet");
    expect(vote({ voting: { ...voting, opensAt: null } })).toBe("Voting has not opened yet");
    expect(vote({ now: voting.closesAt! })).toBe("Voting has closed");
    expect(vote({ voting: { ...voting, closesAt: null }, now: new Date("2027-06-13T09:00:00Z") })).toBeNull();
  });

  it("needs a ticket checked in at this show: not one still at home, for another event, or not yours", () => {
    expect(vote({ ticket: null })).toBe("Vote with a ticket for this show");
    expect(vote({ ticket: { ...admitted, status: "valid" } })).toBe(
      "Only tickets checked in at the show can vote: scan in at the gate first",
    );
    expect(vote({ ticket: { ...admitted, eventId: "other" } })).toBe("This ticket is for another event");
    expect(vote({ ticket: { ...admitted, holderId: "someone-else" } })).toBe("Vote with a ticket of your own");
  });

  it("refuses a refunded, cancelled or passed-on ticket", () => {
    expect(vote({ ticket: { ...admitted, status: "refunded" } })).toBe("This ticket was refunded");
    expect(vote({ ticket: { ...admitted, status: "cancelled" } })).toBe("This ticket was cancelled");
    expect(vote({ ticket: { ...admitted, status: "transferred" } })).toBe(
      "This ticket was passed on: its new holder votes with it",
    );
  });

  it("is never for your own car", () => {
    expect(vote({ carOwnerId: "sam" })).toBe("You cannot vote for your own car");
    expect(vote({ carOwnerId: null })).toBeNull();
  });
});
