import { Car } from "lucide-react";
import { Form, Link } from "react-router";
import { Card } from "~/ui/card";
import { PlainFieldErrors } from "~/ui/plain-field-errors";
import { NOTE_MAX } from "./limits";
import type { ApplySection } from "./member-queries.server";

export type ApplyErrors = { carId?: string[]; note?: string[]; form?: string[] };

// Plain markup rather than the shared form kit: this section sits on every event page, whose
// first-load JavaScript has a budget, and needs nothing the kit adds.
const field = (invalid: boolean) =>
  `block w-full rounded-xl border bg-surface px-3.5 py-2.5 text-base text-text ${invalid ? "border-red-700 dark:border-red-400" : "border-line"} focus-visible:border-focus`;
const button = "inline-flex h-11 items-center justify-center rounded-full px-5 font-bold";

/**
 * "Apply with your car" on an event page while applications are open: visitors are asked to
 * sign in; members pick a garage car and write a note. A plain form, so it works without
 * JavaScript; the server's messages show by the field they are about.
 */
export function ApplyWithYourCar({
  section,
  eventSlug,
  errors,
  classes = [],
}: {
  section: ApplySection;
  eventSlug: string;
  errors?: ApplyErrors;
  /** The show's classes, when it has some: the applicant may suggest one for their car. */
  classes?: readonly { id: string; name: string }[];
}) {
  const here = `/events/${eventSlug}#apply`;
  return (
    <Card as="section" aria-labelledby="apply-heading" className="scroll-mt-24 space-y-5 p-6 sm:p-8" id="apply">
      <h2 id="apply-heading" className="wide flex items-center gap-2 text-2xl font-extrabold">
        <Car aria-hidden className="size-6 text-accent-ink" /> Apply with your car
      </h2>
      {!section.signedIn ? (
        <p>
          <Link to={`/login?redirectTo=${encodeURIComponent(here)}`} className="font-semibold text-link underline">
            Sign in
          </Link>{" "}
          to apply with a car from your garage.
        </p>
      ) : (
        <MemberApply section={section} errors={errors} classes={classes} />
      )}
    </Card>
  );
}

function MemberApply({
  section,
  errors,
  classes,
}: {
  section: Extract<ApplySection, { signedIn: true }>;
  errors?: ApplyErrors;
  classes: readonly { id: string; name: string }[];
}) {
  const available = section.cars.filter((car) => !car.applied);
  return (
    <>
      {section.mine.length > 0 ? (
        <div className="space-y-2">
          <h3 className="font-bold">Your applications</h3>
          <ul className="divide-y divide-line rounded-xl border border-line">
            {section.mine.map((application) => (
              <li key={application.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
                <span>
                  <span className="font-semibold">{application.carLabel}</span> — {application.statusLabel}
                </span>
                {application.canWithdraw ? (
                  <Form method="post">
                    <input type="hidden" name="applicationId" value={application.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="withdraw-application"
                      className={`${button} bg-surface-sunken text-text hover:bg-line`}
                    >
                      Withdraw
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
          <p className="text-sm text-muted">
            Decisions, the fee and your exhibitor pass are in{" "}
            <Link to="/members/events" className="text-link underline">
              My events
            </Link>
            .
          </p>
        </div>
      ) : null}
      {section.cars.length === 0 ? (
        <p>
          Your garage is empty.{" "}
          <Link to="/members/newGarage" className="font-semibold text-link underline">
            Add your car
          </Link>{" "}
          to apply with it.
        </p>
      ) : available.length === 0 ? (
        <p className="text-muted">
          Every car in your garage has an application for this event.{" "}
          <Link to="/members/newGarage" className="text-link underline">
            Add another car
          </Link>
          .
        </p>
      ) : (
        <Form method="post" className="space-y-4" aria-describedby={errors?.form ? "apply-form-error" : undefined}>
          <PlainFieldErrors id="apply-form-error" errors={errors?.form} />
          <div className="space-y-1.5">
            <label htmlFor="apply-car" className="block font-semibold">
              Your car
            </label>
            <select
              id="apply-car"
              name="carId"
              required
              aria-invalid={errors?.carId ? true : undefined}
              aria-describedby={errors?.carId ? "apply-car-error" : undefined}
              className={field(Boolean(errors?.carId))}
            >
              {available.map((car) => (
                <option key={car.id} value={car.id}>
                  {car.label}
                </option>
              ))}
            </select>
            <PlainFieldErrors id="apply-car-error" errors={errors?.carId} />
            <p className="text-sm text-muted">
              Not listed?{" "}
              <Link to="/members/newGarage" className="text-link underline">
                Add a car to your garage
              </Link>
              .
            </p>
          </div>
          {classes.length > 0 ? (
            <div className="space-y-1.5">
              <label htmlFor="apply-class" className="block font-semibold">
                Class you suggest (optional)
              </label>
              <select id="apply-class" name="suggestedClassId" defaultValue="" className={field(false)}>
                <option value="">Leave it to the organizers</option>
                {classes.map((showClass) => (
                  <option key={showClass.id} value={showClass.id}>
                    {showClass.name}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <div className="space-y-1.5">
            <label htmlFor="apply-note" className="block font-semibold">
              A note for the organizers (optional)
            </label>
            <textarea
              id="apply-note"
              name="note"
              rows={4}
              maxLength={NOTE_MAX}
              aria-invalid={errors?.note ? true : undefined}
              aria-describedby={errors?.note ? "apply-note-hint apply-note-error" : "apply-note-hint"}
              className={field(Boolean(errors?.note))}
            />
            <p id="apply-note-hint" className="text-sm text-muted">
              What makes it worth showing: history, modifications, awards.
            </p>
            <PlainFieldErrors id="apply-note-error" errors={errors?.note} />
          </div>
          <button
            type="submit"
            name="intent"
            value="apply"
            className={`${button} bg-accent text-on-accent hover:bg-accent-strong`}
          >
            Send application
          </button>
        </Form>
      )}
    </>
  );
}
