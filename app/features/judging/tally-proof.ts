// People's Choice, counted in the open (docs/car-shows.md): when voting closes the site publishes
// the ballot list (each ballot an opaque id, its category and its car; never who voted), the
// SHA-256 of that list, and the totals. Anyone can check that the list is the one committed to,
// that the totals add up, and, with the ballot id their vote page showed them, that their ballot
// is there. Pure and isomorphic, Web Crypto only, like the draws' proof.

/** A ballot as published: its opaque id (32 hex characters), the category and the car voted for. */
export type Ballot = { id: string; category: string; car: string };

/** Votes per car in each category, as published: category → car → votes. */
export type Totals = Record<string, Record<string, number>>;

const BALLOT_ID = /^[0-9a-f]{32}$/;
/** Categories and cars are published by their ids or show numbers: no spaces, no line breaks. */
const WORD = /^[0-9A-Za-z_-]{1,64}$/;

/**
 * The ballot list's one text: a line per ballot, "id category car\n", ordered by id. Throws on a
 * ballot that cannot be written this way or an id listed twice, so a list has one text only.
 */
export function canonicalBallotList(ballots: readonly Ballot[]) {
  const sorted = [...ballots].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let text = "";
  for (const [index, ballot] of sorted.entries()) {
    if (!BALLOT_ID.test(ballot.id)) throw new Error(`not a ballot id: ${ballot.id}`);
    if (!WORD.test(ballot.category) || !WORD.test(ballot.car))
      throw new Error(`ballot ${ballot.id} is not well formed`);
    if (index > 0 && sorted[index - 1]!.id === ballot.id) throw new Error(`ballot ${ballot.id} is listed twice`);
    text += `${ballot.id} ${ballot.category} ${ballot.car}\n`;
  }
  return text;
}

/** The commitment published when voting closes: SHA-256 of the canonical list's text, as hex. */
export async function ballotListHash(ballots: readonly Ballot[]) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonicalBallotList(ballots)));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The totals a ballot list gives. */
export function tallyOf(ballots: readonly Ballot[]): Totals {
  const totals: Totals = {};
  for (const ballot of ballots) {
    const category = totals[ballot.category] ?? {};
    category[ballot.car] = (category[ballot.car] ?? 0) + 1;
    totals[ballot.category] = category;
  }
  return totals;
}

/** Whether two sets of totals say the same, whatever order their keys are in; cars with no votes may be left out. */
function sameTotals(a: Totals, b: Totals) {
  const counted = (totals: Totals) =>
    Object.entries(totals)
      .flatMap(([category, cars]) =>
        Object.entries(cars)
          .filter(([, votes]) => votes !== 0)
          .map(([car, votes]) => `${category} ${car} ${votes}`),
      )
      .sort()
      .join("\n");
  return counted(a) === counted(b);
}

export type TallyCheck = {
  /** The list's hash is the commitment. */
  listMatches: boolean;
  /** The published totals are the list's. */
  totalsMatch: boolean;
  /** What the ballot with the voter's id says, when one was given: null when it is not on the list. */
  yourBallot?: Ballot | null;
  problems: string[];
};

/**
 * Checks a published tally: the ballot list against the commitment, the totals against the list,
 * and (given the id a vote page showed) that the voter's ballot was counted.
 */
export async function checkTally(input: {
  ballots: readonly Ballot[];
  commitment: string;
  totals: Totals;
  ballotId?: string;
}): Promise<TallyCheck> {
  const problems: string[] = [];
  let listMatches = false;
  try {
    listMatches = (await ballotListHash(input.ballots)) === input.commitment.trim().toLowerCase();
    if (!listMatches) problems.push("The ballot list is not the one committed to when voting closed");
  } catch (error) {
    problems.push(`The ballot list is not well formed: ${(error as Error).message}`);
  }
  const totalsMatch = sameTotals(tallyOf(input.ballots), input.totals);
  if (!totalsMatch) problems.push("The totals do not add up to the ballot list");
  const check: TallyCheck = { listMatches, totalsMatch, problems };
  if (input.ballotId !== undefined) {
    const id = input.ballotId.trim().toLowerCase();
    check.yourBallot = input.ballots.find((ballot) => ballot.id === id) ?? null;
    if (!check.yourBallot) problems.push("Your ballot is not on the list");
  }
  return check;
}
