import { Badge, type BadgeTone } from "~/ui/badge";
import type { EventStatus } from "../../../../db/schema/events";

// Small pieces every organizer event page shares: the status badge, the date block and the
// tickets-sold meter.

const STATUS_LABELS: Record<EventStatus, string> = { draft: "Draft", published: "Published", cancelled: "Cancelled" };

const STATUS_TONES: Record<EventStatus, { tone: BadgeTone; ring?: string }> = {
  draft: { tone: "neutral" },
  published: { tone: "success", ring: "ring-1 ring-emerald-700/30" },
  cancelled: { tone: "danger", ring: "ring-1 ring-red-700/30" },
};

export function StatusBadge({ status, ended = false }: { status: EventStatus; ended?: boolean }) {
  const label = status === "published" && ended ? "Finished" : STATUS_LABELS[status];
  return (
    <Badge tone={STATUS_TONES[status].tone} className={STATUS_TONES[status].ring}>
      {status === "published" && !ended ? (
        <span aria-hidden className="size-1.5 rounded-full bg-emerald-600 dark:bg-emerald-400" />
      ) : null}
      {label}
    </Badge>
  );
}

/** The day over the month, as on an event tile's cover. */
export function DateBlock({ day, month, dim = false }: { day: string; month: string; dim?: boolean }) {
  return (
    <div
      aria-hidden
      className={`dark-band grid w-14 shrink-0 place-items-center self-start rounded-xl bg-asphalt-900 py-2 text-white ring-1 ring-white/10 ${dim ? "opacity-70" : ""}`}
    >
      <span className="wide tabular text-2xl font-black leading-none">{day}</span>
      <span className="mt-1 text-[0.7rem] font-bold uppercase tracking-[0.16em] text-accent-strong">{month}</span>
    </div>
  );
}

const number = new Intl.NumberFormat("en-GB");

/** "120 / 400 sold" with a bar, "12 sold · no limit", or "No tickets yet". */
export function SoldMeter({
  sold,
  places,
  ticketTypeCount,
  onDark = false,
}: {
  sold: number;
  places: number | null;
  ticketTypeCount: number;
  /** On a dark band, whatever the theme. */
  onDark?: boolean;
}) {
  const muted = onDark ? "text-asphalt-300" : "text-muted";
  if (ticketTypeCount === 0) return <p className={`text-sm ${muted}`}>No tickets yet</p>;
  if (places === null)
    return (
      <p className="text-sm">
        <span className="tabular font-bold">{number.format(sold)}</span> sold <span className={muted}>· no limit</span>
      </p>
    );
  const share = places > 0 ? Math.min(1, sold / places) : 0;
  return (
    <div className="min-w-[9rem] space-y-1.5">
      <p className="text-sm">
        <span className="tabular font-bold">{number.format(sold)}</span>
        <span className={`tabular ${muted}`}> / {number.format(places)} sold</span>
      </p>
      {/* The figures above say it; the bar is for the eye. */}
      <div
        aria-hidden
        className={`h-1.5 overflow-hidden rounded-full ${onDark ? "bg-white/15" : "bg-surface-sunken ring-1 ring-line"}`}
      >
        <div className="h-full rounded-full bg-accent" style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
    </div>
  );
}
