import { LogIn, LogOut, ScanLine } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Form, useFetcher, useRevalidator } from "react-router";
import { GateMerch, type GateMerchOrder } from "~/features/fulfilment/gate-merch";
import { TicketScanner } from "~/features/tickets/ticket-scanner";
import { Card } from "~/ui/card";
import { FieldErrors, inputClass, SubmitButton } from "~/ui/form";
import type { Attendee, GateResult } from "./gate.server";
import { AttendeeList, GateCounter, GateResultPanel, PerGateCounts } from "./gate-parts";
import type { GateScreenData } from "./gate-screen.server";
import { GateConflicts, OfflinePanel, type ScanAnswer, useOfflineGate } from "./offline-gate";
import type { GateDirection } from "./offline-rules";

/** What the page's own action answers: a scan's result, or a let-in refused for one ticket. */
type ScreenReply =
  | { result: GateResult; merch: GateMerchOrder[] }
  | { letIn: { ticketId: string; problem: string } }
  | { problem: string }
  | { handedOver: string }
  | undefined;

/** Counts and the list catch up with the other stewards' scans every 10 seconds, while there is a connection. */
function usePolling(ms: number) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (state === "idle" && document.visibilityState === "visible" && navigator.onLine) revalidate();
    }, ms);
    return () => window.clearInterval(timer);
  }, [ms, revalidate, state]);
  return revalidate;
}

/**
 * The gate (docs/gate.md): the scanner, the answer panel and the count for every role; for a
 * supervisor also the counts per gate, the conflicts, and the attendee list with "Let in by hand".
 * `csvHref` adds the list's download; `children` follows it (the organizer's gate staff).
 */
export function GateScreen({
  screen,
  actionData,
  csvHref,
  children,
}: {
  screen: GateScreenData;
  actionData: ScreenReply;
  csvHref?: string;
  children?: ReactNode;
}) {
  const { counts, attendees, q, eventId, shownLimit, conflicts, byGate, role, reentry } = screen;
  // At an event with re-entry the steward says which way people are going; exits are scanned too.
  const [direction, setDirection] = useState<GateDirection>("in");
  const way: GateDirection = reentry ? direction : "in";
  // Typed codes and camera reads share one fetcher. Its answer outlives the catch-up revalidations,
  // which clear a form navigation's action data, and a new scan cancels one still in flight, so
  // the panel always answers the last scan.
  const scan = useFetcher<ScreenReply>();
  const revalidate = usePolling(10_000);
  // A device ready for offline sends each scan itself, and decides it when the server does not
  // answer in time (docs/gate.md); its answer shows until the next scan.
  const [ownAnswer, setOwnAnswer] = useState<ScanAnswer | null>(null);
  const gate = useOfflineGate(eventId, () => revalidate());
  // Only the last scan's answer shows, however the answers arrive.
  const lastScan = useRef(0);
  const check = async (value: string) => {
    const turn = ++lastScan.current;
    if (!value.trim()) {
      setOwnAnswer({ result: { tone: "refused", headline: "Enter the ticket's code", detail: null }, merch: [] });
      return;
    }
    if (gate.stored || !navigator.onLine) {
      const answer = await gate.scan(value, way);
      if (turn !== lastScan.current) return;
      setOwnAnswer(answer);
      // The counts and the list catch up at once, as after a scan the page sends itself.
      if (navigator.onLine) revalidate();
      return;
    }
    setOwnAnswer(null);
    scan.submit({ code: value, direction: way }, { method: "post" });
  };
  // Action data only answers a code typed before the page's script ran (or without it), or a
  // let-in made from the list.
  const answer =
    ownAnswer ??
    (scan.data && "result" in scan.data ? scan.data : actionData && "result" in actionData ? actionData : null);
  const result = answer?.result ?? null;
  const letInProblem = actionData && "letIn" in actionData ? actionData.letIn : null;
  return (
    <div className="space-y-10">
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <section aria-labelledby="scan-heading" className="space-y-5">
          <h2 id="scan-heading" className="wide flex items-center gap-2 text-2xl font-extrabold">
            <ScanLine aria-hidden className="size-6 text-accent-ink" /> Check-in
          </h2>
          <GateResultPanel result={result} />
          <GateMerch key={JSON.stringify(answer?.merch ?? [])} orders={answer?.merch ?? []} />
          <Form
            method="post"
            className="space-y-1.5"
            onSubmit={(event) => {
              event.preventDefault();
              const form = event.currentTarget;
              void check(String(new FormData(form).get("code") ?? ""));
              // Emptied as the code is sent rather than when its answer comes, so the next code,
              // typed while this one is checked, is not lost.
              form.reset();
            }}
          >
            {reentry ? <DirectionChoice direction={direction} onChange={setDirection} /> : null}
            <label htmlFor="ticket-code" className="block font-semibold">
              Ticket code
            </label>
            <div className="flex flex-wrap gap-3">
              <input
                id="ticket-code"
                name="code"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={200}
                aria-describedby="ticket-code-hint"
                className={`${inputClass(false)} h-12 min-w-[14rem] flex-1 font-mono uppercase`}
              />
              <div className="w-full sm:w-auto">
                <SubmitButton pendingLabel="Checking…" sending={scan.state === "submitting"} fit>
                  {way === "out" ? "Scan out" : "Check in"}
                </SubmitButton>
              </div>
            </div>
            <p id="ticket-code-hint" className="text-sm text-muted">
              The 26 characters printed under the QR code. Spaces and dashes do not matter.
            </p>
          </Form>
        </section>
        <aside className="space-y-5" aria-label="Camera and count">
          <GateCounter checkedIn={counts.checkedIn} sold={counts.sold} inside={reentry ? counts.inside : null} />
          {role === "supervisor" && !screen.saved ? <PerGateCounts gates={byGate} /> : null}
          <TicketScanner busy={scan.state !== "idle"} onScan={(value) => void check(value)} />
          <OfflinePanel gate={gate} />
        </aside>
      </div>
      {screen.saved ? (
        <Card as="p" variant="empty" className="p-5 text-muted">
          This page was kept on this device for use without signal. Names, the attendee list and conflicts show when the
          connection is back.
        </Card>
      ) : role === "supervisor" ? (
        <>
          <GateConflicts conflicts={conflicts} />
          <AttendeeList
            attendees={attendees}
            q={q}
            shownLimit={shownLimit}
            csvHref={csvHref}
            rowAction={(attendee) => (
              <LetInForm
                attendee={attendee}
                problem={letInProblem?.ticketId === attendee.id ? letInProblem.problem : null}
              />
            )}
          />
        </>
      ) : (
        <p className="text-sm text-muted">
          You are a steward at this gate: you see each holder's initials and ticket type. A supervisor can search the
          list and let someone in by hand.
        </p>
      )}
      {children}
    </div>
  );
}

/** Entry or exit, at an event with re-entry: two big choices, part of the scan's form. */
function DirectionChoice({
  direction,
  onChange,
}: {
  direction: GateDirection;
  onChange: (direction: GateDirection) => void;
}) {
  const choices = [
    { value: "in", label: "Entry", icon: LogIn },
    { value: "out", label: "Exit", icon: LogOut },
  ] as const;
  return (
    <fieldset className="mb-3">
      <legend className="mb-1.5 font-semibold">Scanning</legend>
      <div className="grid grid-cols-2 gap-2">
        {choices.map((choice) => (
          <label
            key={choice.value}
            className="flex min-h-12 cursor-pointer items-center justify-center gap-2 rounded-xl border-2 border-line px-4 py-2 font-bold has-[:checked]:border-accent has-[:checked]:bg-accent has-[:checked]:text-on-accent has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-focus"
          >
            <input
              type="radio"
              name="direction"
              value={choice.value}
              checked={direction === choice.value}
              onChange={() => onChange(choice.value)}
              className="sr-only"
            />
            <choice.icon aria-hidden className="size-5" />
            {choice.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** "Let in by hand" for one ticket, with the reason the audit log keeps. */
function LetInForm({ attendee, problem }: { attendee: Attendee; problem: string | null }) {
  if (attendee.status === "checked_in") return null;
  const reasonId = `let-in-reason-${attendee.id}`;
  const errorId = `${reasonId}-error`;
  return (
    <details open={problem !== null} className="text-sm">
      <summary className="cursor-pointer font-semibold text-accent-ink underline">Let in by hand</summary>
      <Form method="post" className="mt-2 space-y-1.5">
        <input type="hidden" name="intent" value="let-in" />
        <input type="hidden" name="ticketId" value={attendee.id} />
        <label htmlFor={reasonId} className="block font-semibold">
          Why?
        </label>
        <input
          id={reasonId}
          name="reason"
          required
          maxLength={200}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? errorId : undefined}
          className={`${inputClass(Boolean(problem))} h-10 w-full`}
        />
        <FieldErrors id={errorId} errors={problem ? [problem] : undefined} />
        <SubmitButton intent="let-in" pendingLabel="Letting in…" fit>
          Let in
        </SubmitButton>
      </Form>
    </details>
  );
}
