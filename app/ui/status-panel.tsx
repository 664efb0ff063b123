import { Check, CircleAlert } from "lucide-react";
import type { ReactNode } from "react";

// The pieces of an organizer record's status panel (an event's, a draw's): a card per thing
// that can happen next, and checklists of what is done and what is still to do.

/** One card of the panel, named by its heading for screen readers; `danger` for what cannot be undone. */
export function StatusCard({
  title,
  children,
  tone = "plain",
}: {
  title: string;
  children: ReactNode;
  tone?: "plain" | "danger";
}) {
  return (
    <section
      aria-label={title}
      className={`space-y-3 rounded-2xl border p-5 ${tone === "danger" ? "border-red-700/30 bg-surface" : "border-line bg-surface-raised"}`}
    >
      <h2 className="wide text-base font-extrabold">{title}</h2>
      {children}
    </section>
  );
}

/** A line of a checklist, ticked when done; screen readers hear "Done" or "To do" first. */
export function ChecklistItem({ done, children }: { done: boolean; children: ReactNode }) {
  return (
    <li className="flex items-start gap-2 text-sm">
      {done ? (
        <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-700 dark:text-emerald-400" />
      ) : (
        <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-accent-ink" />
      )}
      <span>
        <span className="sr-only">{done ? "Done: " : "To do: "}</span>
        {children}
      </span>
    </li>
  );
}
