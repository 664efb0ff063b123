import { Car } from "lucide-react";
import { Form, Link } from "react-router";
import { FieldErrors, SubmitButton } from "~/ui/form";
import { formatMoney } from "~/ui/money";
import type { MyApplication } from "./member-queries.server";

export type MyApplicationWithQr = Omit<MyApplication, "event"> & {
  event: { slug: string; title: string; when: string };
  pass: (NonNullable<MyApplication["pass"]> & { qrSvg: string | null }) | null;
};

const STATUS_STYLES: Record<MyApplication["status"], string> = {
  submitted: "bg-asphalt-100 text-asphalt-900",
  waitlisted: "bg-amber-200 text-asphalt-950",
  approved: "bg-emerald-700 text-white",
  paid: "bg-emerald-700 text-white",
  rejected: "bg-asphalt-100 text-asphalt-900",
  withdrawn: "bg-asphalt-100 text-asphalt-900",
};

/**
 * "My applications": each show-car application with its state and the organizers' message,
 * "Pay the fee" once approved, and the exhibitor pass with its QR code once confirmed. The QR
 * markup is drawn on the server from our own signed code, never from a person's text.
 */
export function MyApplications({
  applications,
  currency,
  error,
}: {
  applications: MyApplicationWithQr[];
  currency: string;
  error?: { applicationId: string; message: string } | null;
}) {
  if (applications.length === 0) return null;
  return (
    <section aria-labelledby="applications-title" className="space-y-4">
      <h2 id="applications-title" className="text-sm font-bold uppercase tracking-[0.16em] text-muted">
        My show-car applications
      </h2>
      <ul className="grid gap-4">
        {applications.map((application) => (
          <li key={application.id}>
            <article
              aria-label={`${application.carLabel} at ${application.event.title}`}
              className="overflow-hidden rounded-2xl border border-line bg-surface-raised shadow-sm sm:grid sm:grid-cols-[1fr_auto]"
            >
              <div className="flex min-w-0 flex-col gap-3 p-5">
                <div className="flex flex-wrap items-center gap-2">
                  <p className="text-xs font-bold uppercase tracking-[0.14em] text-accent-ink">
                    {application.pass?.status === "valid" ? "Exhibitor pass" : "Show-car application"}
                  </p>
                  <span
                    className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_STYLES[application.status]}`}
                  >
                    {application.statusLabel}
                  </span>
                </div>
                <h3 className="wide flex items-center gap-2 text-xl font-extrabold leading-tight">
                  <Car aria-hidden className="size-5 text-muted" /> {application.carLabel}
                </h3>
                <p className="text-sm">
                  <Link to={`/events/${application.event.slug}`} className="font-semibold hover:underline">
                    {application.event.title}
                  </Link>{" "}
                  · {application.event.when}
                </p>
                {application.decisionNote ? (
                  <p className="whitespace-pre-line rounded-xl bg-surface-sunken p-3 text-sm">
                    <span className="font-semibold">From the organizers: </span>
                    {application.decisionNote}
                  </p>
                ) : null}
                {application.pass?.checkedInAt ? (
                  <p className="text-sm font-semibold">Checked in {application.pass.checkedInAt}</p>
                ) : null}
                {application.canPay ? (
                  <p className="text-sm">
                    Fee {formatMoney(application.fee, currency)}, to pay by {application.payBy}.
                  </p>
                ) : null}
                {error?.applicationId === application.id ? (
                  <FieldErrors id={`application-error-${application.id}`} errors={[error.message]} />
                ) : null}
                {application.canPay || application.canWithdraw ? (
                  <Form method="post" className="flex flex-wrap gap-3">
                    <input type="hidden" name="applicationId" value={application.id} />
                    {application.canPay ? (
                      <SubmitButton name="intent" value="pay-application" pendingLabel="Adding…" fit>
                        Pay the fee
                      </SubmitButton>
                    ) : null}
                    {application.canWithdraw ? (
                      <SubmitButton
                        name="intent"
                        value="withdraw-application"
                        variant="secondary"
                        pendingLabel="Withdrawing…"
                        fit
                      >
                        Withdraw
                      </SubmitButton>
                    ) : null}
                  </Form>
                ) : null}
              </div>
              {application.pass?.qrSvg ? (
                <div className="flex flex-col items-center justify-center gap-2 border-t-2 border-dashed border-line bg-surface p-5 sm:border-t-0 sm:border-l-2">
                  <div
                    role="img"
                    aria-label={`QR code for exhibitor pass ${application.pass.shortCode}`}
                    className="size-44 rounded-lg bg-white p-1 sm:size-40"
                    dangerouslySetInnerHTML={{ __html: application.pass.qrSvg }}
                  />
                  <p className="max-w-44 text-center font-mono text-xs tracking-wider tabular">
                    <span className="sr-only">Pass code </span>
                    {application.pass.shortCode}
                  </p>
                </div>
              ) : null}
            </article>
          </li>
        ))}
      </ul>
    </section>
  );
}
