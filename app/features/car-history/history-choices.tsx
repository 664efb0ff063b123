import { EyeOff } from "lucide-react";
import { Form } from "react-router";
import { SubmitButton } from "~/ui/form";
import type { ShowHistoryEntry } from "./car-history.server";

/**
 * The owner's choices for one show of their car's history: hide it from everyone else (or show it
 * again), and show or hide the judges' score. The forms post to the page they are on with intent
 * "history".
 */
export function HistoryChoices({ entry }: { entry: ShowHistoryEntry }) {
  return (
    <div className="flex flex-wrap items-center gap-2 border-t border-line pt-3">
      {entry.hidden ? (
        <p className="inline-flex items-center gap-1 text-sm font-semibold">
          <EyeOff aria-hidden className="size-4" /> Hidden from everyone but you
        </p>
      ) : null}
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="history" />
        <input type="hidden" name="applicationId" value={entry.applicationId} />
        <input type="hidden" name="what" value="show" />
        <input type="hidden" name="shown" value={entry.hidden ? "yes" : "no"} />
        <SubmitButton variant="secondary" fit pendingLabel="Saving…">
          {entry.hidden ? "Show this show" : "Hide this show"}
          <span className="sr-only"> ({entry.event.title})</span>
        </SubmitButton>
      </Form>
      {entry.published && entry.score !== null ? (
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="history" />
          <input type="hidden" name="applicationId" value={entry.applicationId} />
          <input type="hidden" name="what" value="score" />
          <input type="hidden" name="shown" value={entry.scoreShown ? "no" : "yes"} />
          <SubmitButton variant="secondary" fit pendingLabel="Saving…">
            {entry.scoreShown ? "Hide my score" : "Show my score"}
            <span className="sr-only"> ({entry.event.title})</span>
          </SubmitButton>
        </Form>
      ) : null}
    </div>
  );
}
