import { describe, expect, it } from "vitest";
import { movableTickets, moveDifference, moveQuantityProblem } from "./move-rules";

const ticket = (over: Partial<Parameters<typeof movableTickets>[0][number]> = {}) => ({
  id: "t",
  status: "valid",
  userId: "buyer",
  listed: false,
  pendingTransfer: false,
  ...over,
});

describe("which tickets of a booking can move", () => {
  it("takes valid tickets the buyer still holds", () => {
    expect(movableTickets([ticket({ id: "a" }), ticket({ id: "b" })], "buyer").map((t) => t.id)).toEqual(["a", "b"]);
  });

  it("leaves tickets used at the gate, refunded, transferred, passed on, on their way or back on sale", () => {
    const tickets = [
      ticket({ id: "in", status: "checked_in" }),
      ticket({ id: "refunded", status: "refunded" }),
      ticket({ id: "transferred", status: "transferred" }),
      ticket({ id: "theirs", userId: "friend" }),
      ticket({ id: "sending", pendingTransfer: true }),
      ticket({ id: "listed", listed: true }),
      ticket({ id: "ok" }),
    ];
    expect(movableTickets(tickets, "buyer").map((t) => t.id)).toEqual(["ok"]);
  });
});

describe("how many can move", () => {
  it("allows up to the movable tickets", () => {
    expect(moveQuantityProblem(2, 2, 3)).toBeNull();
  });

  it("names how many can move when more are asked for", () => {
    expect(moveQuantityProblem(3, 2, 3)).toBe(
      "Only 2 of these tickets can move (the rest are used, refunded or passed on).",
    );
  });

  it("says so when none can", () => {
    expect(moveQuantityProblem(1, 0, 2)).toBe(
      "None of these tickets can move: they are used, refunded, passed on or back on sale.",
    );
    expect(moveQuantityProblem(1, 0, 0)).toBe("This booking has no tickets to move.");
  });
});

describe("the money of a move", () => {
  it("carries the whole value across when the new tickets cost the same", () => {
    expect(moveDifference(4500, 4500)).toEqual({ carried: 4500, back: 0, extra: 0 });
  });

  it("gives back the difference when they cost less", () => {
    expect(moveDifference(9000, 6000)).toEqual({ carried: 6000, back: 3000, extra: 0 });
  });

  it("asks for the difference when they cost more", () => {
    expect(moveDifference(4500, 6000)).toEqual({ carried: 4500, back: 0, extra: 1500 });
  });

  it("carries nothing from free tickets, and gives everything back for free new ones", () => {
    expect(moveDifference(0, 3000)).toEqual({ carried: 0, back: 0, extra: 3000 });
    expect(moveDifference(3000, 0)).toEqual({ carried: 0, back: 3000, extra: 0 });
  });
});
