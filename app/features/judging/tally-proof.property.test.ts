import { describe, expect, it } from "vitest";
import { seededRandom } from "~/server/seeded-random";
import { type Ballot, ballotListHash, canonicalBallotList, checkTally, tallyOf } from "./tally-proof";

/** A random ballot set: up to 300 ballots over up to 3 categories and 8 cars, distinct ids. */
function randomBallots(random: () => number): Ballot[] {
  const count = Math.floor(random() * 300);
  const categories = ["best-in-show", "best-jdm", "best-classic"].slice(0, 1 + Math.floor(random() * 3));
  const cars = Array.from({ length: 1 + Math.floor(random() * 8) }, (_, index) => String(index + 1));
  const ids = new Set<string>();
  const ballots: Ballot[] = [];
  while (ballots.length < count) {
    const id = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join("");
    if (ids.has(id)) continue;
    ids.add(id);
    ballots.push({
      id,
      category: categories[Math.floor(random() * categories.length)]!,
      car: cars[Math.floor(random() * cars.length)]!,
    });
  }
  return ballots;
}

/** One alteration a dishonest count might make, picked at random; each must be caught. */
function altered(
  ballots: Ballot[],
  random: () => number,
): { ballots: Ballot[]; totals?: (totals: ReturnType<typeof tallyOf>) => void } {
  const copy = ballots.map((ballot) => ({ ...ballot }));
  const pick = () => Math.floor(random() * copy.length);
  switch (Math.floor(random() * 4)) {
    case 0: {
      // A vote moved to another car.
      const ballot = copy[pick()]!;
      ballot.car = ballot.car === "99" ? "98" : "99";
      return { ballots: copy };
    }
    case 1:
      // A ballot dropped.
      copy.splice(pick(), 1);
      return { ballots: copy };
    case 2:
      // A ballot stuffed in.
      copy.push({ id: "f".repeat(31) + "e", category: copy[0]!.category, car: copy[0]!.car });
      return { ballots: copy };
    default:
      // The list kept, the totals nudged by one vote.
      return {
        ballots: copy,
        totals: (totals) => {
          const category = Object.keys(totals)[0]!;
          const car = Object.keys(totals[category]!)[0]!;
          totals[category]![car]! += 1;
        },
      };
  }
}

describe("the People's Choice tally proof", () => {
  it("verifies for random ballot sets, finds every voter's ballot, and fails for any altered one", async () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const random = seededRandom(seed);
      const ballots = randomBallots(random);
      const commitment = await ballotListHash(ballots);
      const totals = tallyOf(ballots);
      // Published in any order, the same list checks out.
      const shuffled = [...ballots].sort(() => random() - 0.5);
      const honest = await checkTally({ ballots: shuffled, commitment, totals, ballotId: ballots[0]?.id });
      expect(honest.problems, `seed ${seed}`).toEqual(ballots.length === 0 ? ["Your ballot is not on the list"] : []);
      expect(
        Object.values(totals)
          .flatMap(Object.values)
          .reduce((sum, votes) => sum + votes, 0),
      ).toBe(ballots.length);

      if (ballots.length === 0) continue;
      const change = altered(ballots, random);
      const changedTotals = structuredClone(tallyOf(change.ballots));
      change.totals?.(changedTotals);
      // A changed list no longer matches the commitment, or its totals do not add up.
      const check = await checkTally({
        ballots: change.ballots,
        commitment,
        totals: change.totals ? changedTotals : totals,
      });
      expect(check.listMatches && check.totalsMatch, `seed ${seed}`).toBe(false);
    }
  });

  it("has one text per list: a ballot listed twice or badly written is refused", async () => {
    const ballot = { id: "0".repeat(32), category: "best-in-show", car: "12" };
    expect(canonicalBallotList([ballot])).toBe(`${"0".repeat(32)} best-in-show 12\n`);
    expect(() => canonicalBallotList([ballot, ballot])).toThrow("listed twice");
    expect(() => canonicalBallotList([{ ...ballot, car: "12\n00000000000000000000000000000001 x 1" }])).toThrow(
      "not well formed",
    );
    expect(() => canonicalBallotList([{ ...ballot, id: "XYZ" }])).toThrow("not a ballot id");
    const check = await checkTally({ ballots: [ballot, ballot], commitment: "00", totals: {} });
    expect(check.problems[0]).toMatch(/^The ballot list is not well formed/);
  });

  it("tells a voter whose ballot is missing", async () => {
    const ballots = [{ id: "a".repeat(32), category: "best-in-show", car: "7" }];
    const check = await checkTally({
      ballots,
      commitment: await ballotListHash(ballots),
      totals: tallyOf(ballots),
      ballotId: "B".repeat(32),
    });
    expect(check).toMatchObject({ listMatches: true, totalsMatch: true, yourBallot: null });
    expect(check.problems).toEqual(["Your ballot is not on the list"]);
  });
});
