import { describe, expect, it } from "vitest";
import {
  ageOn,
  bundlesOf,
  drawPhase,
  entrantProblem,
  entryChoiceFrom,
  entryChoiceQuery,
  instantWinsAmong,
  instantWinsProblem,
  maskedName,
  oddsAtFullSale,
  percentSold,
} from "./draw-rules";

describe("draw rules", () => {
  it("lets an adult with a verified phone enter, and refuses staff, minors, the unconfirmed and the unverified", () => {
    const draw = { id: "d", kind: "competition" as const };
    const now = new Date("2027-05-01T12:00:00Z");
    const adult = { dateOfBirth: "1990-01-01", phoneVerified: true, confirmedAdult: true };
    expect(entrantProblem(draw, adult, now)).toBeNull();
    expect(entrantProblem(draw, { ...adult, staff: true }, now)?.code).toBe("staff");
    expect(entrantProblem(draw, { ...adult, dateOfBirth: null }, now)?.code).toBe("age");
    expect(entrantProblem(draw, { ...adult, dateOfBirth: "2009-05-02" }, now)?.code).toBe("age");
    expect(entrantProblem(draw, { ...adult, confirmedAdult: false }, now)?.code).toBe("age_unconfirmed");
    expect(entrantProblem(draw, { ...adult, phoneVerified: false }, now)?.code).toBe("phone");
    // A free giveaway needs no verified phone.
    expect(entrantProblem({ id: "g", kind: "giveaway" }, { ...adult, phoneVerified: false }, now)).toBeNull();
  });

  it("checks instant wins before go-live and finds them among a member's numbers", () => {
    const wins = [
      { number: 7, prize: "A cap" },
      { number: 3, prize: "A hoodie" },
    ];
    expect(instantWinsProblem(wins, 10)).toBeNull();
    expect(instantWinsProblem([...wins, { number: 7, prize: "Again" }], 10)).toBe(
      "Entry 7 is listed twice among the instant wins.",
    );
    expect(instantWinsProblem([{ number: 0, prize: "x" }], 10)).toBe(
      "Instant-win entry numbers must be between 1 and 10.",
    );
    expect(instantWinsProblem([{ number: 2, prize: "two\nlines" }], 10)).toBe(
      "Name the prize of instant win 2 on one line.",
    );
    expect(instantWinsAmong(wins, [1, 3, 7, 9])).toEqual([
      { number: 3, prize: "A hoodie" },
      { number: 7, prize: "A cap" },
    ]);
  });

  it("counts age in whole years, turning 18 on the birthday itself", () => {
    expect(ageOn("2009-05-02", new Date("2027-05-01T23:00:00Z"))).toBe(17);
    expect(ageOn("2009-05-01", new Date("2027-05-01T00:00:00Z"))).toBe(18);
    expect(ageOn("2008-02-29", new Date("2026-02-28T12:00:00Z"))).toBe(17);
  });

  it("always sells a single entry at the draw's price, then the bundles, smallest first", () => {
    expect(
      bundlesOf({
        kind: "competition",
        price: 200,
        bundles: [
          { entries: 10, price: 1500 },
          { entries: 5, price: 800 },
        ],
      }),
    ).toEqual([
      { entries: 1, price: 200 },
      { entries: 5, price: 800 },
      { entries: 10, price: 1500 },
    ]);
    expect(bundlesOf({ kind: "giveaway", price: 500, bundles: [{ entries: 5, price: 800 }] })).toEqual([
      { entries: 1, price: 0 },
    ]);
  });

  it("shows 100 % sold only when every entry is gone", () => {
    expect(percentSold({ totalEntries: 1000 }, 999)).toBe(99);
    expect(percentSold({ totalEntries: 1000 }, 1000)).toBe(100);
    expect(oddsAtFullSale(2500)).toBe("1 in 2,500");
  });

  it("names winners by first name and initial", () => {
    expect(maskedName("Jamie Lee Taylor")).toBe("Jamie T.");
    expect(maskedName("  Sam ")).toBe("Sam");
    expect(maskedName("")).toBe("A member");
  });

  it("takes entries only while live, opened and before its closing time", () => {
    const draw = { status: "live" as const, opensAt: new Date("2027-01-02"), closesAt: new Date("2027-01-09") };
    expect(drawPhase(draw, new Date("2027-01-01"))).toBe("upcoming");
    expect(drawPhase(draw, new Date("2027-01-05"))).toBe("open");
    expect(drawPhase(draw, new Date("2027-01-09"))).toBe("closed");
    expect(drawPhase({ ...draw, status: "closed" }, new Date("2027-01-05"))).toBe("closed");
  });
});

describe("a visitor's choice carried through sign-in", () => {
  const draw = {
    options: ["Silverstone", "Brands Hatch", "Donington"],
    bundles: [
      { entries: 1, price: 249 },
      { entries: 5, price: 999 },
    ],
  };
  const carried = (query: string) => entryChoiceFrom(new URLSearchParams(query), draw);

  it("comes back exactly as it was chosen", () => {
    const choice = { answer: 2, bundle: 5, picks: "7, 77", adult: true };
    expect(carried(entryChoiceQuery(choice))).toEqual(choice);
  });

  it("leaves nothing in the address when nothing was chosen", () => {
    expect(entryChoiceQuery({ answer: null, bundle: null, picks: "", adult: false })).toBe("");
    expect(carried("")).toEqual({ answer: null, bundle: null, picks: "", adult: false });
  });

  it("drops an answer the draw does not offer, a bundle it does not sell and numbers that are not numbers", () => {
    expect(carried("answer=3&bundle=10&picks=seven&adult=no")).toEqual({
      answer: null,
      bundle: null,
      picks: "",
      adult: false,
    });
    expect(carried("answer=-1&bundle=5.5")).toMatchObject({ answer: null, bundle: null });
  });
});
