import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Checkbox } from "~/ui/form";
import { InputField } from "~/ui/form-fields";
import { plural } from "~/ui/plural";
import { CancelCard, CancelledCard, ChecklistItem, StatusCard, StepForm } from "~/ui/status-panel";
import type { DrawState } from "./queries.server";
import { BeaconSchema, CancelDrawSchema, ConfirmSchema } from "./schemas";

type Intent = "publish" | "close" | "beacon" | "draw" | "cancel" | "refunds";
type Results = Partial<Record<Intent, SubmissionResult<string[]>>>;

const number = new Intl.NumberFormat("en-GB");

/** A long hex value that wraps anywhere and reads as code. */
function Hash({ value }: { value: string | null }) {
  if (!value) return <span className="text-muted">Not yet</span>;
  return <code className="block font-mono text-xs break-all">{value}</code>;
}

/** A step that cannot be undone: the organizer ticks a box saying what it does before it is sent. */
function ConfirmedStep({
  id,
  intent,
  label,
  pending,
  lastResult,
  confirm,
}: {
  id: string;
  intent: Intent;
  label: string;
  pending: string;
  lastResult?: SubmissionResult<string[]>;
  confirm: string;
}) {
  return (
    <StepForm
      id={id}
      intent={intent}
      label={label}
      pendingLabel={pending}
      lastResult={lastResult}
      schema={ConfirmSchema}
      fields={(fields) => <Checkbox meta={fields.confirm}>{confirm}</Checkbox>}
    />
  );
}

function BeaconForm({ draw, lastResult }: { draw: DrawState; lastResult?: SubmissionResult<string[]> }) {
  return (
    <StepForm
      id="draw-beacon"
      intent="beacon"
      label="Record beacon value"
      pendingLabel="Recording…"
      lastResult={lastResult}
      schema={BeaconSchema}
      validate="onBlur"
      fields={(fields) => (
        <InputField
          meta={fields.beaconValue}
          label="Beacon value"
          hint={`Once “${draw.beaconSource}” is published, enter it as its source writes it: for drand the round number (the site fetches and checks the round), for the Lotto the result like 01-12-23-34-45-56+07.`}
          inputProps={{ spellCheck: false, autoComplete: "off" }}
        />
      )}
    />
  );
}

/** The next step of the draw's life, as its status allows it. */
function NextStep({ draw, now, results }: { draw: DrawState; now: Date; results: Results }) {
  // A live draw past its time and a sold-out one are closed the same way.
  const closeNow = (
    <ConfirmedStep
      id="close-draw"
      intent="close"
      label="Close now"
      pending="Closing…"
      lastResult={results.close}
      confirm="Freeze the entry list now"
    />
  );
  if (draw.status === "draft") {
    const closesLater = draw.closesAt > now;
    return (
      <StatusCard title="Draft: not on the site yet">
        <ul className="space-y-1.5">
          <ChecklistItem done>Details saved</ChecklistItem>
          <ChecklistItem
            done={draw.imageCount > 0}
            fix={draw.imageCount > 0 ? undefined : { to: `/admin/draws/${draw.id}/images`, label: "Add photos" }}
          >
            {draw.imageCount > 0
              ? `${draw.imageCount} prize ${plural(draw.imageCount, "photo", "photos")}`
              : "No photos yet."}
          </ChecklistItem>
          <ChecklistItem done={closesLater}>
            {closesLater ? `Closes ${draw.closesLabel}` : "Its closing time has passed: change it first"}
          </ChecklistItem>
        </ul>
        <p className="text-sm text-muted">
          Publishing fixes the terms and publishes the commitment to the draw's secret seed.
        </p>
        <StepForm
          id="publish-draw"
          intent="publish"
          label="Publish draw"
          pendingLabel="Publishing…"
          lastResult={results.publish}
        />
      </StatusCard>
    );
  }
  if (draw.status === "live") {
    const due = draw.closesAt <= now;
    return (
      <StatusCard title="Live: taking entries">
        <p className="text-sm">
          {due
            ? "Its closing time has passed. The close job closes it within a minute, or close it now."
            : `Closes ${draw.closesLabel}, or as soon as it sells out. Nothing needs doing until then.`}
        </p>
        {due ? closeNow : null}
      </StatusCard>
    );
  }
  if (draw.status === "closed" && !draw.listHash) {
    return (
      <StatusCard title="Sold out">
        <p className="text-sm">Every entry is taken. Closing freezes the list of eligible entries.</p>
        {closeNow}
      </StatusCard>
    );
  }
  if (draw.status === "closed" && draw.beaconValue === null) {
    return (
      <StatusCard title="Closed: waiting for the beacon">
        <p className="text-sm">
          {number.format(draw.eligibleCount ?? 0)} eligible {plural(draw.eligibleCount ?? 0, "entry", "entries")}{" "}
          {plural(draw.eligibleCount ?? 0, "is", "are")} frozen. Record the beacon's value as soon as its source
          publishes it; the winner is drawn from it.
        </p>
        <BeaconForm draw={draw} lastResult={results.beacon} />
      </StatusCard>
    );
  }
  if (draw.status === "closed") {
    return (
      <StatusCard title="Ready to draw">
        <p className="text-sm">
          The beacon is recorded. The draw job draws within a minute, or draw now: the seed is revealed with the result.
        </p>
        <ConfirmedStep
          id="draw-winner"
          intent="draw"
          label="Draw the winner"
          pending="Drawing…"
          lastResult={results.draw}
          confirm="Draw now: the result is final"
        />
      </StatusCard>
    );
  }
  if (draw.status === "drawn") {
    return (
      <StatusCard title="Drawn">
        {draw.winner ? (
          <dl className="space-y-1 text-sm">
            <div>
              <dt className="inline font-semibold">Winning entry: </dt>
              <dd className="tabular inline">{draw.winner.number}</dd>
            </div>
            <div>
              <dt className="inline font-semibold">Winner: </dt>
              <dd className="inline">{draw.winner.name ?? "Unknown"}</dd>
            </div>
            {draw.winner.email ? (
              <div>
                <dt className="inline font-semibold">Email: </dt>
                <dd className="inline break-all">{draw.winner.email}</dd>
              </div>
            ) : null}
            {draw.winner.postalAddress ? (
              <div>
                <dt className="inline font-semibold">Postal address: </dt>
                <dd className="inline whitespace-pre-line">{draw.winner.postalAddress}</dd>
              </div>
            ) : null}
            {draw.cashPrize ? <p>Drawn for the cash alternative (too few entries).</p> : null}
          </dl>
        ) : (
          <p className="text-sm">There were no eligible entries, so nobody won.</p>
        )}
        <p className="text-sm text-muted">Drawn {draw.drawnLabel}.</p>
      </StatusCard>
    );
  }
  return (
    <CancelledCard cancelledLabel={draw.cancelledLabel} reason={draw.cancelReason}>
      <p className="text-sm text-muted">Paid entries are refunded. If a refund failed, try again:</p>
      <StepForm
        id="draw-refunds"
        intent="refunds"
        label="Refund paid entries again"
        pendingLabel="Refunding…"
        lastResult={results.refunds}
        variant="secondary"
      />
    </CancelledCard>
  );
}

/** Counts by route, and the published fairness record as it stands. */
function DrawRecord({ draw }: { draw: DrawState }) {
  const rows: [string, ReactNode][] = [
    ["Commitment", <Hash key="c" value={draw.commitment} />],
    ...(draw.instantWinCount > 0
      ? ([["Instant-win commitment", <Hash key="i" value={draw.instantCommitment} />]] as [string, ReactNode][])
      : []),
    ["Entry list hash", <Hash key="l" value={draw.listHash} />],
    ["Beacon", <span key="b">{draw.beaconSource}</span>],
    [
      "Beacon value",
      draw.beaconValue ? (
        <Hash key="v" value={draw.beaconValue} />
      ) : (
        <span key="v" className="text-muted">
          Not yet
        </span>
      ),
    ],
    [
      "Seed",
      draw.seed ? (
        <Hash key="s" value={draw.seed} />
      ) : (
        <span key="s" className="text-muted">
          Secret until the draw
        </span>
      ),
    ],
  ];
  return (
    <StatusCard title="Entries and fairness">
      <dl className="tabular grid grid-cols-2 gap-2 text-sm">
        {(
          [
            ["Paid", draw.counts.paid],
            ["Postal", draw.counts.postal],
            ["Free", draw.counts.free],
            ["Void (refunded)", draw.counts.voided],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="rounded-xl bg-surface px-3 py-2 ring-1 ring-line">
            <dt className="text-muted">{label}</dt>
            <dd className="text-lg font-bold">{number.format(value)}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm">
        Eligible at close:{" "}
        <span className="tabular font-semibold">
          {draw.eligibleCount === null ? "counted when it closes" : number.format(draw.eligibleCount)}
        </span>
      </p>
      <p className="text-sm">
        Right answer: <span className="font-semibold">{draw.options[draw.answer]}</span>
      </p>
      <dl className="space-y-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt className="font-semibold">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {draw.status === "drawn" ? (
        <Link to={`/giveaways/${draw.slug}/verify`} className="text-sm font-semibold text-link underline">
          Check the draw on its verify page
        </Link>
      ) : null}
    </StatusCard>
  );
}

/** The draw's state and what can happen to it next. */
export function DrawStatePanel({ draw, now, results }: { draw: DrawState; now: Date; results: Results }) {
  return (
    <div className="space-y-4">
      <NextStep draw={draw} now={now} results={results} />
      <DrawRecord draw={draw} />
      {draw.status === "draft" || (draw.status === "live" && new Date(draw.closesAt) > now) ? (
        <CancelCard
          title="Cancel draw"
          consequence={
            draw.counts.paid === 0
              ? "No paid entries yet."
              : `${number.format(draw.counts.paid)} paid ${plural(draw.counts.paid, "entry", "entries")} will be refunded.`
          }
          warning="Cancelling cannot be undone; the draw's page will say why."
          opener="Cancel this draw…"
          formId="cancel-draw"
          schema={CancelDrawSchema}
          lastResult={results.cancel}
          reasonLabel="Reason, shown to entrants"
          submitLabel="Cancel draw and refund entries"
        />
      ) : null}
    </div>
  );
}
