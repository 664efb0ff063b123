/**
 * The rules of judging a show class (docs/car-shows.md), as pure functions: how a class is scored,
 * what a judge may enter, a car's score from several judges, and the class's leaderboard with
 * incomplete scoring and ties flagged. The database applies them under the class's lock; the
 * judge's phone and the staff leaderboard read them for what to show.
 */

/**
 * How a class is scored. `weighted`: each criterion is marked 0 to 10 and counts for its weight
 * (the weights add up to 100). `deduction`: every car starts from 100 and each criterion can lose
 * at most its weight (the weights add up to 100 too).
 */
export type Scheme = "weighted" | "deduction";

export type Criterion = { id: string; name: string; weight: number };

/** One judge's mark for one car on one criterion. */
export type Mark = { judgeId: string; carId: string; criterionId: string; value: number };

/** The highest mark on a criterion of a weighted class. */
const TOP_MARK = 10;

/** Marks go in halves: 7.5, never 7.3. */
const STEP = 0.5;

/** What is wrong with a class's criteria, or null: each needs a name, a whole weight, and together 100. */
export function criteriaProblem(criteria: readonly Pick<Criterion, "name" | "weight">[]): string | null {
  if (criteria.length === 0) return "Add at least one criterion";
  if (criteria.length > 12) return "Use at most 12 criteria";
  const names = new Set<string>();
  for (const criterion of criteria) {
    const name = criterion.name.trim().toLowerCase();
    if (!name) return "Name every criterion";
    if (names.has(name)) return `“${criterion.name.trim()}” is there twice`;
    names.add(name);
    if (!Number.isInteger(criterion.weight) || criterion.weight < 1)
      return "Give every criterion a weight of at least 1";
  }
  const total = criteria.reduce((sum, criterion) => sum + criterion.weight, 0);
  return total === 100 ? null : `The weights add up to ${total}: make them add up to 100`;
}

/** What is wrong with a mark a judge entered, or null. */
export function markProblem(
  scheme: Scheme,
  criterion: Pick<Criterion, "name" | "weight">,
  value: number,
): string | null {
  const most = scheme === "weighted" ? TOP_MARK : criterion.weight;
  if (!Number.isFinite(value) || value < 0 || value > most) {
    return scheme === "weighted"
      ? `Mark ${criterion.name} from 0 to ${TOP_MARK}`
      : `Take off 0 to ${most} for ${criterion.name}`;
  }
  if (Math.round(value / STEP) * STEP !== value) return `Mark ${criterion.name} in halves, like 7.5`;
  return null;
}

/**
 * One judge's total for one car out of 100, or null while any criterion is unmarked. Weighted: the
 * sum of each mark's share of its weight; deduction: 100 less what was taken off.
 */
export function judgeTotal(scheme: Scheme, criteria: readonly Criterion[], marks: ReadonlyMap<string, number>) {
  let total = scheme === "weighted" ? 0 : 100;
  for (const criterion of criteria) {
    const value = marks.get(criterion.id);
    if (value === undefined) return null;
    total += scheme === "weighted" ? (value / TOP_MARK) * criterion.weight : -value;
  }
  return roundScore(total);
}

/** Scores are shown and compared to two decimal places. */
function roundScore(value: number) {
  return Math.round(value * 100) / 100;
}

export type Standing = {
  carId: string;
  /** The mean of the judges' totals who marked every criterion; null when none has. */
  score: number | null;
  /** Each assigned judge's total for this car (null while they have not marked it all). */
  byJudge: { judgeId: string; total: number | null }[];
  /** Some judge of the class has not marked every criterion for this car. */
  incomplete: boolean;
  /** Place in the class: 1 for the best; cars with the same score share a place. Null without a score. */
  place: number | null;
  /** Another car has exactly the same score: staff decide between them. */
  tied: boolean;
};

/**
 * The class's leaderboard: every car entered, best first. A car's score is the mean of its complete
 * judges' totals; it is incomplete while any judge of the class has not marked it all (the score
 * shown is then provisional). Cars with equal scores share a place and are flagged as tied.
 */
export function leaderboard(input: {
  scheme: Scheme;
  criteria: readonly Criterion[];
  judgeIds: readonly string[];
  carIds: readonly string[];
  marks: readonly Mark[];
}): Standing[] {
  const byCarAndJudge = new Map<string, Map<string, number>>();
  const allowed = new Set(input.criteria.map((criterion) => criterion.id));
  for (const mark of input.marks) {
    if (!allowed.has(mark.criterionId)) continue;
    const key = `${mark.carId}\u0000${mark.judgeId}`;
    const marks = byCarAndJudge.get(key) ?? new Map<string, number>();
    marks.set(mark.criterionId, mark.value);
    byCarAndJudge.set(key, marks);
  }
  const standings = input.carIds.map((carId) => {
    const byJudge = input.judgeIds.map((judgeId) => ({
      judgeId,
      total: judgeTotal(
        input.scheme,
        input.criteria,
        byCarAndJudge.get(`${carId}\u0000${judgeId}`) ?? new Map<string, number>(),
      ),
    }));
    const totals = byJudge.flatMap((judge) => (judge.total === null ? [] : [judge.total]));
    const score =
      totals.length === 0 ? null : roundScore(totals.reduce((sum, total) => sum + total, 0) / totals.length);
    const incomplete = input.judgeIds.length === 0 || totals.length < input.judgeIds.length;
    return { carId, score, byJudge, incomplete, place: null as number | null, tied: false };
  });
  standings.sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || a.carId.localeCompare(b.carId));
  const counts = new Map<number, number>();
  for (const standing of standings) {
    if (standing.score !== null) counts.set(standing.score, (counts.get(standing.score) ?? 0) + 1);
  }
  let place = 0;
  let previous: number | null = null;
  for (const [index, standing] of standings.entries()) {
    if (standing.score === null) continue;
    if (standing.score !== previous) place = index + 1;
    previous = standing.score;
    standing.place = place;
    standing.tied = (counts.get(standing.score) ?? 0) > 1;
  }
  return standings;
}

/** Whether the class's leaderboard is ready for awards: every car fully marked by every judge, no tie at the top. */
export function readyForAwards(standings: readonly Standing[]) {
  if (standings.length === 0) return { ready: false, why: "No cars are entered in this class" } as const;
  if (standings.some((standing) => standing.incomplete)) {
    return { ready: false, why: "Some cars are not marked by every judge yet" } as const;
  }
  if (standings[0]?.tied) return { ready: false, why: "The top place is tied: decide between the cars" } as const;
  return { ready: true, why: null } as const;
}
