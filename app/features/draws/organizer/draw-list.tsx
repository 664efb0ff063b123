import { Gift, Pencil, Trophy } from "lucide-react";
import { Link } from "react-router";
import { Badge, type BadgeTone } from "~/ui/badge";
import type { DrawKind, DrawStatus } from "../../../../db/schema/draws";
import type { AdminDrawRow } from "./queries.server";
import type { DrawFilter } from "./schemas";

// The organizer's list of draws and the small pieces the draw pages share.

const STATUS: Record<DrawStatus, { label: string; tone: BadgeTone }> = {
  draft: { label: "Draft", tone: "neutral" },
  live: { label: "Live", tone: "success" },
  closed: { label: "Closed", tone: "warning" },
  drawn: { label: "Drawn", tone: "strong" },
  cancelled: { label: "Cancelled", tone: "danger" },
};

export function DrawStatusBadge({ status }: { status: DrawStatus }) {
  return <Badge tone={STATUS[status].tone}>{STATUS[status].label}</Badge>;
}

export const KIND_LABELS: Record<DrawKind, string> = { competition: "Competition", giveaway: "Giveaway" };

const number = new Intl.NumberFormat("en-GB");

/** "312 / 500" entries with a thin bar. */
export function EntriesMeter({ allocated, total }: { allocated: number; total: number }) {
  const percent = Math.min(100, Math.floor((allocated * 100) / Math.max(1, total)));
  return (
    <div className="w-32 space-y-1">
      <p className="tabular text-sm">
        <span className="font-bold">{number.format(allocated)}</span>
        <span className="text-muted"> / {number.format(total)}</span>
        <span className="sr-only"> entries allocated</span>
      </p>
      <div aria-hidden className="h-1.5 overflow-hidden rounded-full bg-surface-sunken">
        <div className="h-full rounded-full bg-accent" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

export function DrawListRow({ draw }: { draw: AdminDrawRow }) {
  const Icon = draw.kind === "giveaway" ? Gift : Trophy;
  return (
    <li className="flex flex-wrap items-center gap-x-6 gap-y-3 px-4 py-4 sm:px-5">
      <div className="min-w-0 flex-1 basis-64 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <Link to={`/admin/draws/${draw.id}`} className="font-bold break-words hover:underline">
            {draw.title}
          </Link>
          <DrawStatusBadge status={draw.status} />
        </div>
        <p className="flex flex-wrap items-center gap-x-3 text-sm text-muted">
          <span className="inline-flex items-center gap-1">
            <Icon aria-hidden className="size-4" /> {KIND_LABELS[draw.kind]}
          </span>
          <span>Closes {draw.closesLabel}</span>
        </p>
        {draw.status === "drawn" ? (
          <p className="text-sm">
            {draw.winnerNumber === null ? (
              "No eligible entries: no winner"
            ) : (
              <>
                Winner: <span className="font-semibold">{draw.winnerName ?? "an entrant"}</span>{" "}
                <span className="tabular text-muted">(entry {draw.winnerNumber})</span>
              </>
            )}
          </p>
        ) : null}
      </div>
      <EntriesMeter allocated={draw.allocated} total={draw.totalEntries} />
      <Link
        to={`/admin/draws/${draw.id}`}
        aria-label={`Open ${draw.title}`}
        className="inline-flex items-center gap-1.5 rounded-full px-3 py-2 text-sm font-semibold ring-1 ring-line hover:bg-surface-sunken"
      >
        <Pencil aria-hidden className="size-4" /> Open
      </Link>
    </li>
  );
}

/** What the list says when it has no draws in this view. */
export function emptyDrawList(show: DrawFilter) {
  return show === "active"
    ? "No drafts or live draws. Start one with New draw."
    : show === "ended"
      ? "No draw has closed yet."
      : show === "cancelled"
        ? "No draw has been cancelled."
        : "No draws yet. Start one with New draw.";
}
