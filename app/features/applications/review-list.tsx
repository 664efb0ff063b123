import { Form, Link } from "react-router";
import { Card } from "~/ui/card";
import { FieldErrors, inputClass, SubmitButton } from "~/ui/form";
import { formatMoney } from "~/ui/money";
import type { ApplicationStatus } from "../../../db/schema";
import { DECISIONS_ALLOWED } from "./application-rules";
import { CarThumb } from "./car-thumb";
import { DECISION_NOTE_MAX } from "./limits";
import type { ReviewedApplication } from "./review-queries.server";

export const REVIEW_TABS: { status: ApplicationStatus | "all"; label: string }[] = [
  { status: "submitted", label: "To review" },
  { status: "waitlisted", label: "Waiting list" },
  { status: "approved", label: "Approved, unpaid" },
  { status: "paid", label: "Confirmed" },
  { status: "rejected", label: "Rejected" },
  { status: "withdrawn", label: "Withdrawn" },
  { status: "all", label: "All" },
];

type Row = Omit<ReviewedApplication, "createdAt"> & { submitted: string; statusLabel: string };

/** The tabs by status, each with its count, as links so they work without JavaScript. */
export function ReviewTabs({
  current,
  counts,
}: {
  current: ApplicationStatus | "all";
  counts: Record<string, number>;
}) {
  return (
    <nav aria-label="Applications by status">
      <ul className="flex flex-wrap gap-2">
        {REVIEW_TABS.map((tab) => (
          <li key={tab.status}>
            <Link
              to={`?status=${tab.status}`}
              aria-current={tab.status === current ? "page" : undefined}
              className={`inline-flex items-center gap-1.5 rounded-full px-3.5 py-1.5 text-sm font-semibold ${
                tab.status === current ? "bg-asphalt-950 text-white" : "bg-surface-sunken text-text hover:bg-line"
              }`}
            >
              {tab.label} <span className="tabular">{counts[tab.status] ?? 0}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

const DECISION_LABELS = { approve: "Approve", waitlist: "Waiting list", reject: "Reject" } as const;

/** Each application with the car, the member's note, and the decisions still open to staff. */
export function ReviewList({
  applications,
  currency,
  error,
}: {
  applications: Row[];
  currency: string;
  error?: { applicationId: string; message: string } | null;
}) {
  if (applications.length === 0) {
    return (
      <Card as="p" variant="empty" className="p-8 text-muted">
        No applications here.
      </Card>
    );
  }
  return (
    <Card as="ul" variant="list" className="overflow-hidden">
      {applications.map((application) => {
        const decisions = DECISIONS_ALLOWED[application.status];
        const noteId = `decision-note-${application.id}`;
        const errorId = `decision-error-${application.id}`;
        const failed = error?.applicationId === application.id;
        return (
          <li key={application.id} className="space-y-4 p-5 sm:p-6" aria-label={application.carLabel}>
            <div className="flex flex-wrap items-start gap-4">
              <CarThumb hash={application.coverHash} label={application.carLabel} />
              <div className="min-w-0 flex-1 space-y-1">
                <h3 className="wide text-lg font-extrabold">{application.carLabel}</h3>
                <p className="text-sm text-muted">
                  {application.memberName ?? "Deleted account"}
                  {application.memberEmail ? ` · ${application.memberEmail}` : ""} · sent {application.submitted}
                </p>
                <p className="text-sm font-semibold">
                  {application.statusLabel}
                  {application.fee > 0 ? ` · fee ${formatMoney(application.fee, currency)}` : ""}
                  {application.passCheckedIn ? " · checked in" : ""}
                  {application.reviewedBy ? ` · decided by ${application.reviewedBy}` : ""}
                </p>
              </div>
            </div>
            {application.note ? (
              <p className="whitespace-pre-line rounded-xl bg-surface-sunken p-3 text-sm">{application.note}</p>
            ) : null}
            {application.decisionNote ? (
              <p className="text-sm">
                <span className="font-semibold">Message sent: </span>
                {application.decisionNote}
              </p>
            ) : null}
            {decisions.length > 0 ? (
              <Form method="post" className="space-y-3">
                <input type="hidden" name="applicationId" value={application.id} />
                <div className="space-y-1.5">
                  <label htmlFor={noteId} className="block font-semibold">
                    Message to the member (emailed with the decision)
                  </label>
                  <textarea
                    id={noteId}
                    name="note"
                    rows={2}
                    maxLength={DECISION_NOTE_MAX}
                    aria-invalid={failed || undefined}
                    aria-describedby={failed ? errorId : undefined}
                    className={inputClass(failed)}
                  />
                  {failed ? <FieldErrors id={errorId} errors={[error.message]} /> : null}
                </div>
                <div className="flex flex-wrap gap-3">
                  {decisions.map((decision) => (
                    <SubmitButton
                      key={decision}
                      name="intent"
                      value={decision}
                      variant={decision === "approve" ? "primary" : decision === "reject" ? "danger" : "secondary"}
                      pendingLabel="Saving…"
                      fit
                    >
                      {DECISION_LABELS[decision]}
                    </SubmitButton>
                  ))}
                </div>
              </Form>
            ) : null}
          </li>
        );
      })}
    </Card>
  );
}
