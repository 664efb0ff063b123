import { CircleAlert, CircleCheck, CircleX } from "lucide-react";
import type { ReactNode } from "react";
import { CarThumb } from "~/features/applications/car-thumb";
import { ATTENDEE_STATUS_LABELS } from "~/features/gate/attendees-csv";
import type { Attendee, GateResult } from "~/features/gate/gate.server";
import { Card } from "~/ui/card";
import { ListSearch } from "~/ui/list-search";
import { countOf } from "~/ui/plural";
import { DownloadCsvLink, TabSection } from "~/ui/record-page";
import { HeaderRow } from "~/ui/table";

// Small white text on these needs 4.5:1: emerald-700 gives 5.4, and the label at 90% keeps 4.7 on it.
const RESULT_TONES = {
  admitted: { icon: CircleCheck, box: "bg-emerald-700 text-white", label: "Admit" },
  warning: { icon: CircleAlert, box: "bg-amber-400 text-asphalt-950", label: "Check" },
  refused: { icon: CircleX, box: "bg-red-700 text-white", label: "Refuse" },
} as const;

/** The answer for the steward: big, coloured and worded, so it reads at arm's length in the rain. */
export function GateResultPanel({ result }: { result: GateResult | null }) {
  if (!result) {
    return (
      <Card variant="empty" role="status" className="p-6 text-muted">
        Results appear here after each scan.
      </Card>
    );
  }
  const tone = RESULT_TONES[result.tone];
  return (
    <div role="status" className={`flex items-start gap-4 rounded-2xl p-5 shadow-lg ${tone.box}`}>
      <tone.icon aria-hidden className="size-10 shrink-0" />
      <div className="min-w-0 flex-1 space-y-1">
        <p className="text-xs font-black uppercase tracking-[0.2em] opacity-90">{tone.label}</p>
        <p className="wide text-xl font-extrabold break-words sm:text-2xl">{result.headline}</p>
        {result.detail ? <p className="break-words font-semibold opacity-90">{result.detail}</p> : null}
      </div>
      {result.car ? <CarThumb hash={result.car.coverHash} label={result.car.label} size="size-24" /> : null}
    </div>
  );
}

/** Through the gate / sold, with a bar; at an event with re-entry, how many are inside now. */
export function GateCounter({
  checkedIn,
  sold,
  inside = null,
}: {
  checkedIn: number;
  sold: number;
  inside?: number | null;
}) {
  const share = sold > 0 ? Math.min(1, checkedIn / sold) : 0;
  return (
    <div className="dark-band rounded-2xl bg-asphalt-950 p-5 text-white ring-1 ring-white/10">
      <p className="text-xs font-bold uppercase tracking-[0.18em] text-asphalt-300">Through the gate</p>
      <p className="mt-1" aria-live="polite">
        <span className="wide tabular text-4xl font-black">{checkedIn}</span>
        <span className="tabular text-lg text-asphalt-300"> / {sold} checked in</span>
      </p>
      <div aria-hidden className="mt-3 h-2 overflow-hidden rounded-full bg-white/15">
        <div className="h-full rounded-full bg-accent" style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
      {inside !== null ? (
        <p className="mt-3 text-sm text-asphalt-300" aria-live="polite">
          <span className="tabular font-bold text-white">{inside}</span> inside now,{" "}
          <span className="tabular font-bold text-white">{checkedIn - inside}</span> out
        </p>
      ) : null}
    </div>
  );
}

const STATUS_TONES: Record<Attendee["status"], string> = {
  valid: "bg-surface-sunken text-text ring-1 ring-line",
  checked_in: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100",
  cancelled: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
  refunded: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
  transferred: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
};

/** What each named gate let in, for the supervisor: devices name their gate when they get ready for offline. */
export function PerGateCounts({ gates }: { gates: readonly { gate: string; admitted: number }[] }) {
  return (
    <Card className="space-y-2 p-4">
      <h3 className="text-sm font-bold uppercase tracking-[0.14em] text-muted">By gate</h3>
      {gates.length === 0 ? (
        <p className="text-sm text-muted">No gate named yet: a device names its gate when it gets ready for offline.</p>
      ) : (
        <dl className="divide-y divide-line text-sm">
          {gates.map((row) => (
            <div key={row.gate} className="flex justify-between gap-3 py-1.5">
              <dt className="break-words font-semibold">{row.gate}</dt>
              <dd className="tabular">{countOf(row.admitted, "let in", "let in")}</dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}

/** Who holds a ticket, searchable, with the CSV beside it and, per row, what the page adds (letting in by hand). */
export function AttendeeList({
  attendees,
  q,
  shownLimit,
  csvHref,
  rowAction,
}: {
  attendees: Attendee[];
  q: string;
  shownLimit: number;
  csvHref?: string;
  rowAction?: (attendee: Attendee) => ReactNode;
}) {
  return (
    <TabSection id="attendees" title="Attendees" aside={csvHref ? <DownloadCsvLink href={csvHref} /> : null}>
      <ListSearch id="attendee-search" label="Search by name, email, order number or code ending" q={q} resetKey={q} />
      <p className="text-sm text-muted">
        {attendees.length === shownLimit
          ? `The first ${shownLimit} tickets${q ? ` matching “${q}”` : ""}: search to find others, or download the CSV.`
          : `${countOf(attendees.length, "ticket", "tickets")}${q ? ` matching “${q}”` : ""}`}
      </p>
      {attendees.length === 0 ? (
        <Card as="p" variant="empty" className="p-8 text-muted">
          {q
            ? "Nobody matches. Try part of a name, an email, the order number or the last four characters of the code."
            : "No tickets sold yet."}
        </Card>
      ) : (
        <Card className="overflow-x-auto">
          <table className="w-full min-w-[44rem] text-left text-sm">
            <thead className="border-b border-line text-xs uppercase tracking-wide text-muted">
              <HeaderRow cellClassName="px-4 py-3" columns={["Name", "Ticket", "Code", "Status", "Checked in"]} />
            </thead>
            <tbody className="divide-y divide-line">
              {attendees.map((attendee) => (
                <tr key={attendee.id}>
                  <td className="px-4 py-3">
                    <p className="font-semibold">{attendee.name}</p>
                    <p className="text-muted break-all">{attendee.email}</p>
                  </td>
                  <td className="px-4 py-3">
                    {attendee.ticketType}
                    <span className="block text-muted">{attendee.order}</span>
                  </td>
                  <td className="px-4 py-3 font-mono">…{attendee.codeEnd}</td>
                  <td className="px-4 py-3">
                    <span className={`rounded-full px-2 py-0.5 text-xs font-bold ${STATUS_TONES[attendee.status]}`}>
                      {ATTENDEE_STATUS_LABELS[attendee.status]}
                    </span>
                  </td>
                  <td className="px-4 py-3 text-muted">
                    {attendee.checkedInAt
                      ? `${attendee.checkedInAt}${attendee.checkedInBy ? ` by ${attendee.checkedInBy}` : ""}`
                      : "—"}
                    {rowAction ? rowAction(attendee) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
    </TabSection>
  );
}
