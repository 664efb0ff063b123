import { useEffect, useState } from "react";
import { formatCount } from "~/ui/plural";
import { type DrawVerification, verifyDraw } from "./fairness";
import { parsePublishedDraw } from "./verify-report";

type State =
  | { kind: "idle" }
  | { kind: "working" }
  | { kind: "done"; result: DrawVerification; entries: number }
  | { kind: "error"; message: string };

const LABELS = { passed: "Passed", failed: "Failed", pending: "Not yet" } as const;

/**
 * Recomputes the draw in the visitor's own browser: fetches the published record, then checks
 * the seed against the commitment, the entry list against its hash, and draws the winner again
 * with the same code the site used (Web Crypto, nothing sent anywhere).
 */
export function VerifyPanel({ slug }: { slug: string }) {
  const [state, setState] = useState<State>({ kind: "idle" });
  useEffect(() => {
    let cancelled = false;
    setState({ kind: "working" });
    fetch(`/giveaways/${encodeURIComponent(slug)}/verify.json`)
      .then((response) => {
        if (!response.ok) throw new Error("The draw's record could not be loaded.");
        return response.json();
      })
      .then(async (json) => {
        const record = parsePublishedDraw(json);
        const result = await verifyDraw(record);
        if (!cancelled) setState({ kind: "done", result, entries: record.entries.length });
      })
      .catch((error: unknown) => {
        if (!cancelled) setState({ kind: "error", message: error instanceof Error ? error.message : String(error) });
      });
    return () => {
      cancelled = true;
    };
  }, [slug]);

  return (
    <div aria-live="polite" className="space-y-2">
      {state.kind === "working" || state.kind === "idle" ? <p>Recomputing the draw in your browser…</p> : null}
      {state.kind === "error" ? <p className="font-semibold text-red-700 dark:text-red-400">{state.message}</p> : null}
      {state.kind === "done" ? (
        <>
          <ul className="space-y-1">
            <li>Seed matches the commitment: {LABELS[state.result.checks.commitment]}</li>
            <li>
              Entry list ({formatCount(state.entries)} eligible) matches its hash:{" "}
              {LABELS[state.result.checks.listHash]}
            </li>
            <li>Winner recomputed: {LABELS[state.result.checks.winners]}</li>
            {state.result.checks.instantWins ? (
              <li>Instant-win list matches its commitment: {LABELS[state.result.checks.instantWins]}</li>
            ) : null}
          </ul>
          <p className="text-lg font-bold" data-testid="recomputed">
            {state.result.recomputedWinners
              ? `Your browser drew entry ${state.result.recomputedWinners.join(", ")}.`
              : "The winner can be recomputed once the seed is revealed."}
            {state.result.ok ? " The draw checks out." : ""}
          </p>
        </>
      ) : null}
    </div>
  );
}
