import { ScanLine } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { data, Form, useFetcher, useRevalidator } from "react-router";
import { listSearch } from "~/features/forms/fields";
import { changeFulfilment, collectionsAtGate } from "~/features/fulfilment/fulfilment.server";
import { GateMerch } from "~/features/fulfilment/gate-merch";
import { ATTENDEES_SHOWN, admitAtGate, eventAttendees, gateCounts } from "~/features/gate/gate.server";
import { AttendeeList, GateCounter, GateResultPanel } from "~/features/gate/gate-parts";
import { GateConflicts, OfflinePanel, type ScanAnswer, useOfflineGate } from "~/features/gate/offline-gate";
import { gateConflicts } from "~/features/gate/offline-gate.server";
import { TicketScanner } from "~/features/tickets/ticket-scanner";
import { requireRole } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { dashboardMeta, recordTitle } from "~/ui/dashboard-meta";
import { inputClass, SubmitButton } from "~/ui/form";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/checkin";
import { eventIdFrom } from "./event-id.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db } = context.get(runtimeContext);
  const q = listSearch.parse(url.searchParams.get("q"));
  const now = new Date();
  const [counts, list, conflicts] = await Promise.all([
    gateCounts(db, eventId),
    eventAttendees(db, { eventId, q, limit: ATTENDEES_SHOWN, now }),
    gateConflicts(db, { eventId, now }),
  ]);
  if (!list) notFound();
  return { counts, attendees: list.attendees, q, eventId, shownLimit: ATTENDEES_SHOWN, conflicts };
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db, env, outbox } = context.get(runtimeContext);
  const form = await request.formData();
  // Merch bought for collection here, handed over at the gate (docs/fulfilment.md).
  if (form.get("intent") === "handover") {
    const orderId = String(form.get("orderId") ?? "");
    const mine = (await collectionsAtGate(db, { eventId, orderId })).length > 0;
    if (!mine) return data({ problem: "This order is not waiting here." }, { status: 404 });
    const brand = { siteName: env.SITE_NAME, siteUrl: env.SITE_URL };
    const ip = context.get(requestContext).ip;
    const outcome = await changeFulfilment(
      db,
      { intent: "collected", orderId },
      { actorId: user.id, brand, now: new Date(), ip },
    );
    if (!outcome.ok) return data({ problem: outcome.message }, { status: outcome.status });
    if (outcome.email) await outbox.sendEmail(outcome.email);
    return { handedOver: outcome.reference };
  }
  const value = String(form.get("code") ?? "").slice(0, 200);
  if (!value.trim()) {
    return data(
      { result: { tone: "refused" as const, headline: "Enter the ticket's code", detail: null }, merch: [] },
      { status: 400 },
    );
  }
  const { buyerId, ...result } = await admitAtGate(db, {
    value,
    eventId,
    staffId: user.id,
    secret: env.AUTH_SECRET,
    now: new Date(),
  });
  const merch = buyerId && result.tone !== "refused" ? await collectionsAtGate(db, { eventId, userId: buyerId }) : [];
  return { result, merch };
}

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

export default function CheckIn({ loaderData, actionData }: Route.ComponentProps) {
  const { counts, attendees, q, eventId, shownLimit, conflicts } = loaderData;
  // Typed codes and camera reads share one fetcher. Its answer outlives the catch-up revalidations,
  // which clear a form navigation's action data, and a new scan cancels one still in flight, so
  // the panel always answers the last scan.
  const scan = useFetcher<typeof action>();
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
      const answer = await gate.scan(value);
      if (turn !== lastScan.current) return;
      setOwnAnswer(answer);
      // The counts and the list catch up at once, as after a scan the page sends itself.
      if (navigator.onLine) revalidate();
      return;
    }
    setOwnAnswer(null);
    scan.submit({ code: value }, { method: "post" });
  };
  // Action data only answers a code typed before the page's script ran (or without it).
  const answer =
    ownAnswer ??
    (scan.data && "result" in scan.data ? scan.data : actionData && "result" in actionData ? actionData : null);
  const result = answer?.result ?? null;
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
                  Check in
                </SubmitButton>
              </div>
            </div>
            <p id="ticket-code-hint" className="text-sm text-muted">
              The 26 characters printed under the QR code. Spaces and dashes do not matter.
            </p>
          </Form>
        </section>
        <aside className="space-y-5" aria-label="Camera and count">
          <GateCounter checkedIn={counts.checkedIn} sold={counts.sold} />
          <TicketScanner busy={scan.state !== "idle"} onScan={(value) => void check(value)} />
          <OfflinePanel gate={gate} />
        </aside>
      </div>
      <GateConflicts conflicts={conflicts} />
      <AttendeeList
        attendees={attendees}
        q={q}
        shownLimit={shownLimit}
        csvHref={`/admin/events/${eventId}/attendees.csv${q ? `?q=${encodeURIComponent(q)}` : ""}`}
      />
    </div>
  );
}

const EVENT_LAYOUT = { id: "routes/admin/events/event", key: "event", fallback: "Event" };

export const meta: Route.MetaFunction = ({ matches }) =>
  dashboardMeta(matches, "Check-in", recordTitle(matches, EVENT_LAYOUT));
