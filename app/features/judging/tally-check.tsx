import { type FormEvent, useId, useState } from "react";
import { type Ballot, checkTally, type TallyCheck, type Totals } from "./tally-proof";

/**
 * The published ballot list's text read back into ballots, one per line ("id category car").
 * Lenient on purpose: a line that is not well formed is kept as read, so `checkTally` finds the
 * list is not the one committed to rather than this quietly mending it.
 */
export function parseBallotList(text: string): Ballot[] {
  return text
    .split("\n")
    .filter((line, index, lines) => line !== "" || index !== lines.length - 1)
    .map((line) => {
      const [id = "", category = "", ...car] = line.split(" ");
      return { id, category, car: car.join(" ") };
    });
}

export type CheckShown = { ballotId: string; problem: string } | { ballotId: string; result: TallyCheck };

/** What a check found, in words: the list, the totals and the voter's ballot. */
function CheckAnswer({ check, categoryNames }: { check: CheckShown; categoryNames: Record<string, string> }) {
  if ("problem" in check) return <p className="font-semibold text-red-700 dark:text-red-400">{check.problem}</p>;
  const { result } = check;
  const ballot = result.yourBallot;
  return (
    <div className="space-y-2">
      {ballot ? (
        <p className="text-lg font-bold">
          Your ballot is counted: {categoryNames[ballot.category] ?? ballot.category}, car {ballot.car}.
        </p>
      ) : null}
      <ul className="space-y-1">
        <li>The ballot list is the one committed to when voting closed: {result.listMatches ? "yes" : "no"}</li>
        <li>The totals on this page are the list's own count: {result.totalsMatch ? "yes" : "no"}</li>
      </ul>
      {result.problems.length > 0 ? (
        <ul className="space-y-1 font-semibold text-red-700 dark:text-red-400">
          {result.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * "Check your ballot": with JavaScript, the browser fetches the ballot list itself and runs the
 * same `checkTally` the server would (Web Crypto, nothing sent anywhere); without it, the form is
 * a plain GET whose `?ballot=` the server answers.
 */
export function TallyCheckForm(props: {
  action: string;
  listUrl: string;
  commitment: string;
  totals: Totals;
  categoryNames: Record<string, string>;
  initial: CheckShown | null;
}) {
  const [check, setCheck] = useState<CheckShown | null>(props.initial);
  const [working, setWorking] = useState(false);
  const inputId = useId();
  const answerId = useId();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    const ballotId = String(new FormData(event.currentTarget).get("ballot") ?? "")
      .trim()
      .toLowerCase();
    // A malformed id is the server's to word, as without JavaScript.
    if (!/^[0-9a-f]{32}$/.test(ballotId)) return;
    event.preventDefault();
    setWorking(true);
    try {
      const response = await fetch(props.listUrl);
      if (!response.ok) throw new Error("The ballot list could not be loaded: try again");
      const result = await checkTally({
        ballots: parseBallotList(await response.text()),
        commitment: props.commitment,
        totals: props.totals,
        ballotId,
      });
      setCheck({ ballotId, result });
    } catch (error) {
      setCheck({ ballotId, problem: error instanceof Error ? error.message : String(error) });
    } finally {
      setWorking(false);
    }
  }

  return (
    <div className="space-y-4">
      <form method="get" action={props.action} onSubmit={onSubmit} className="flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1 space-y-1">
          <label htmlFor={inputId} className="block font-semibold">
            Your ballot id
          </label>
          <input
            id={inputId}
            name="ballot"
            defaultValue={props.initial?.ballotId ?? ""}
            autoComplete="off"
            spellCheck={false}
            inputMode="text"
            aria-describedby={answerId}
            className="block min-h-11 w-full rounded-xl border border-line bg-surface px-3.5 py-2.5 font-mono text-base text-text focus-visible:border-focus"
          />
        </div>
        <button
          type="submit"
          disabled={working}
          className="inline-flex h-11 items-center justify-center rounded-full bg-accent px-5 font-bold text-on-accent hover:bg-accent-strong disabled:opacity-60"
        >
          {working ? "Checking…" : "Check"}
        </button>
      </form>
      <div id={answerId} aria-live="polite">
        {check ? <CheckAnswer check={check} categoryNames={props.categoryNames} /> : null}
      </div>
    </div>
  );
}
