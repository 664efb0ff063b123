import { describe, expect, it } from "vitest";
import {
  type Criterion,
  criteriaProblem,
  judgeTotal,
  leaderboard,
  type Mark,
  markProblem,
  readyForAwards,
} from "./judging-rules";

const weighted: Criterion[] = [
  { id: "paint", name: "Paint", weight: 30 },
  { id: "engine", name: "Engine bay", weight: 30 },
  { id: "interior", name: "Interior", weight: 20 },
  { id: "stance", name: "Stance", weight: 20 },
];

/** Every criterion marked `value` (or by the list) by one judge for one car. */
function marked(judgeId: string, carId: string, values: number[] | number): Mark[] {
  return weighted.map((criterion, index) => ({
    judgeId,
    carId,
    criterionId: criterion.id,
    value: Array.isArray(values) ? values[index]! : values,
  }));
}

describe("a class's criteria", () => {
  it("need names, whole weights of at least 1, and weights that add up to 100", () => {
    expect(criteriaProblem(weighted)).toBeNull();
    expect(criteriaProblem([])).toBe("Add at least one criterion");
    expect(
      criteriaProblem([
        { name: "Paint", weight: 60 },
        { name: "Wheels", weight: 30 },
      ]),
    ).toBe("The weights add up to 90: make them add up to 100");
    expect(
      criteriaProblem([
        { name: "Paint", weight: 50 },
        { name: " paint ", weight: 50 },
      ]),
    ).toBe("“paint” is there twice");
    expect(
      criteriaProblem([
        { name: "Paint", weight: 99.5 },
        { name: "Wheels", weight: 0.5 },
      ]),
    ).toBe("Give every criterion a weight of at least 1");
    expect(criteriaProblem([{ name: " ", weight: 100 }])).toBe("Name every criterion");
  });
});

describe("a judge's mark", () => {
  it("is 0 to 10 in halves in a weighted class", () => {
    expect(markProblem("weighted", weighted[0]!, 7.5)).toBeNull();
    expect(markProblem("weighted", weighted[0]!, 0)).toBeNull();
    expect(markProblem("weighted", weighted[0]!, 10.5)).toBe("Mark Paint from 0 to 10");
    expect(markProblem("weighted", weighted[0]!, -1)).toBe("Mark Paint from 0 to 10");
    expect(markProblem("weighted", weighted[0]!, 7.3)).toBe("Mark Paint in halves, like 7.5");
    expect(markProblem("weighted", weighted[0]!, Number.NaN)).toBe("Mark Paint from 0 to 10");
  });

  it("takes off 0 up to the criterion's weight in a deduction class", () => {
    expect(markProblem("deduction", weighted[2]!, 20)).toBeNull();
    expect(markProblem("deduction", weighted[2]!, 21)).toBe("Take off 0 to 20 for Interior");
  });
});

describe("a judge's total for a car", () => {
  it("weighs each mark out of 10 by its criterion, out of 100", () => {
    const marks = new Map([
      ["paint", 10],
      ["engine", 5],
      ["interior", 7.5],
      ["stance", 0],
    ]);
    expect(judgeTotal("weighted", weighted, marks)).toBe(30 + 15 + 15 + 0);
  });

  it("takes what was taken off from 100 in a deduction class", () => {
    const marks = new Map([
      ["paint", 2],
      ["engine", 0],
      ["interior", 3.5],
      ["stance", 1],
    ]);
    expect(judgeTotal("deduction", weighted, marks)).toBe(93.5);
  });

  it("is none while any criterion is unmarked", () => {
    expect(judgeTotal("weighted", weighted, new Map([["paint", 10]]))).toBeNull();
  });
});

describe("the class's leaderboard", () => {
  const base = {
    scheme: "weighted" as const,
    criteria: weighted,
    judgeIds: ["ann", "bob"],
    carIds: ["golf", "civic", "mx5"],
  };

  it("averages the judges' totals, best first, with places", () => {
    const board = leaderboard({
      ...base,
      marks: [
        ...marked("ann", "golf", 9),
        ...marked("bob", "golf", 8),
        ...marked("ann", "civic", 7),
        ...marked("bob", "civic", 6),
        ...marked("ann", "mx5", 10),
        ...marked("bob", "mx5", 9),
      ],
    });
    expect(board.map((row) => [row.carId, row.score, row.place, row.incomplete, row.tied])).toEqual([
      ["mx5", 95, 1, false, false],
      ["golf", 85, 2, false, false],
      ["civic", 65, 3, false, false],
    ]);
    expect(readyForAwards(board)).toEqual({ ready: true, why: null });
  });

  it("flags a car a judge has not finished, scoring it provisionally from the judges who have", () => {
    const board = leaderboard({
      ...base,
      marks: [
        ...marked("ann", "golf", 9),
        ...marked("bob", "golf", 8).slice(0, 3),
        ...marked("ann", "civic", 7),
        ...marked("bob", "civic", 7),
      ],
    });
    const golf = board.find((row) => row.carId === "golf")!;
    expect(golf).toMatchObject({ score: 90, incomplete: true });
    expect(golf.byJudge).toEqual([
      { judgeId: "ann", total: 90 },
      { judgeId: "bob", total: null },
    ]);
    // The MX-5 has no marks at all: no score, no place, last.
    expect(board.at(-1)).toMatchObject({ carId: "mx5", score: null, place: null, incomplete: true });
    expect(readyForAwards(board)).toEqual({ ready: false, why: "Some cars are not marked by every judge yet" });
  });

  it("flags ties, which share a place; the next car's place skips past them", () => {
    const board = leaderboard({
      ...base,
      marks: [
        ...marked("ann", "golf", 8),
        ...marked("bob", "golf", 8),
        ...marked("ann", "civic", [10, 6, 8, 8]),
        ...marked("bob", "civic", [6, 10, 8, 8]),
        ...marked("ann", "mx5", 5),
        ...marked("bob", "mx5", 5),
      ],
    });
    expect(board.map((row) => [row.score, row.place, row.tied])).toEqual([
      [80, 1, true],
      [80, 1, true],
      [50, 3, false],
    ]);
    expect(readyForAwards(board)).toEqual({ ready: false, why: "The top place is tied: decide between the cars" });
  });

  it("ignores marks on criteria the class no longer has, and a class with no judges is never complete", () => {
    const stray: Mark = { judgeId: "ann", carId: "golf", criterionId: "chrome", value: 10 };
    const board = leaderboard({
      ...base,
      judgeIds: ["ann"],
      carIds: ["golf"],
      marks: [...marked("ann", "golf", 6), stray],
    });
    expect(board[0]).toMatchObject({ score: 60, incomplete: false });
    expect(leaderboard({ ...base, judgeIds: [], carIds: ["golf"], marks: [] })[0]).toMatchObject({ incomplete: true });
    expect(readyForAwards([])).toEqual({ ready: false, why: "No cars are entered in this class" });
  });
});
