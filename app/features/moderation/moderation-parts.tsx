import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { EyeOff, Star } from "lucide-react";
import { Form, Link } from "react-router";
import { REPORT_REASON_LABELS } from "~/features/community/report-labels";
import { CarPicture } from "~/features/media/car-picture";
import { Card } from "~/ui/card";
import { FieldErrors, FormErrors, SubmitButton } from "~/ui/form";
import { TextAreaField } from "~/ui/form-fields";
import type { ModerationCar } from "./queue.server";
import { type Decision, DecisionSchema } from "./schemas";

const DECISION_LABELS: Record<Decision, string> = {
  hide: "Hide",
  restore: "Restore",
  remove: "Remove for good",
  dismiss: "Dismiss the reports",
};

export type DecisionResult = { target: string; result: SubmissionResult<string[]> };

/** The decision form for a car or one of its photos: the choices that make sense, and a note to the owner. */
function DecisionForm({
  carId,
  photoId,
  hidden,
  hasOpenReports,
  label,
  last,
}: {
  carId: string;
  photoId?: string;
  hidden: boolean;
  hasOpenReports: boolean;
  label: string;
  last?: DecisionResult;
}) {
  const target = photoId ?? carId;
  const [form, fields] = useForm({
    id: `decide-${target}`,
    lastResult: last?.target === target ? last.result : undefined,
    constraint: getZodConstraint(DecisionSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DecisionSchema }),
  });
  const choices: Decision[] = [
    ...(hidden ? (["restore"] as const) : (["hide"] as const)),
    "remove",
    ...(hasOpenReports ? (["dismiss"] as const) : []),
  ];
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3 rounded-xl border border-line p-4">
      <input type="hidden" name="intent" value="decide" />
      <input type="hidden" name="carId" value={carId} />
      {photoId ? <input type="hidden" name="photoId" value={photoId} /> : null}
      <FormErrors id={form.errorId} errors={form.errors} />
      <fieldset aria-describedby={fields.decision.errors ? fields.decision.errorId : undefined}>
        <legend className="font-semibold">{label}</legend>
        <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
          {choices.map((choice) => (
            <label key={choice} className="inline-flex items-center gap-2">
              <input type="radio" name={fields.decision.name} value={choice} className="size-4 accent-accent" />
              {DECISION_LABELS[choice]}
            </label>
          ))}
        </div>
        <FieldErrors id={fields.decision.errorId} errors={fields.decision.errors} />
      </fieldset>
      <TextAreaField meta={fields.note} label="Note to the owner (emailed)" rows={2} />
      <SubmitButton intent="decide" variant="secondary" fit>
        Decide
      </SubmitButton>
    </Form>
  );
}

/** One car in the queue: its photos, its reports, and the decisions. */
export function ModerationCarCard({ car, last }: { car: ModerationCar; last?: DecisionResult }) {
  const name = `${car.year} ${car.make} ${car.model}`;
  const carReports = car.reports.filter((report) => !report.photoId);
  const openCarReports = carReports.some((report) => report.status === "open");
  const photoTargets = car.photos.filter(
    (photo) => photo.hidden || car.reports.some((report) => report.photoId === photo.id),
  );
  return (
    <Card as="article" aria-labelledby={`car-${car.id}`} className="space-y-5 p-5">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={`car-${car.id}`} className="text-xl font-bold">
            {car.hidden ? <EyeOff aria-label="Hidden" className="mr-2 inline size-5" /> : null}
            {name}
          </h2>
          <p className="text-sm text-muted">
            {car.ownerName}
            {car.ownerHandle ? ` (@${car.ownerHandle})` : ""} · {car.visibility}
            {car.hidden ? " · hidden" : ""}
            {car.featured ? " · on the home page" : ""}
          </p>
        </div>
        <Link to={`/community/cars/${car.id}`} className="text-sm font-semibold text-link underline">
          Open the car's page
        </Link>
      </header>
      {car.photos.length > 0 ? (
        <ul className="flex gap-2 overflow-x-auto">
          {car.photos.map((photo, i) => (
            <li key={photo.id} className="relative w-28 shrink-0">
              <CarPicture
                photo={photo}
                alt={`${name}, photo ${i + 1}${photo.hidden ? " (hidden)" : ""}`}
                layout="thumb"
                className="aspect-[4/3] w-full rounded-lg object-cover"
              />
              <span className="mt-1 block text-xs text-muted">
                Photo {i + 1}
                {photo.hidden ? " · hidden" : ""}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <section aria-label={`Reports about the ${name}`}>
        <ul className="space-y-2">
          {car.reports.map((report) => {
            const photoIndex = car.photos.findIndex((photo) => photo.id === report.photoId);
            return (
              <li key={report.id} className="rounded-lg bg-surface-sunken p-3 text-sm">
                <p className="font-semibold">
                  {report.photoId ? `Photo ${photoIndex + 1}` : "The car"}: {REPORT_REASON_LABELS[report.reason]}
                  <span className="font-normal text-muted">
                    {" "}
                    · {report.status === "open" ? "open" : "hidden"} · by{" "}
                    {report.reporterHandle ? `@${report.reporterHandle}` : (report.reporterName ?? "a former member")}
                  </span>
                </p>
                {report.note ? <p className="mt-1 whitespace-pre-line">{report.note}</p> : null}
              </li>
            );
          })}
        </ul>
      </section>
      <div className="grid gap-4 md:grid-cols-2">
        <DecisionForm
          carId={car.id}
          hidden={car.hidden}
          hasOpenReports={openCarReports}
          label="The whole car"
          last={last}
        />
        {photoTargets.map((photo) => (
          <DecisionForm
            key={photo.id}
            carId={car.id}
            photoId={photo.id}
            hidden={photo.hidden}
            hasOpenReports={car.reports.some((report) => report.photoId === photo.id && report.status === "open")}
            label={`Photo ${car.photos.indexOf(photo) + 1}`}
            last={last}
          />
        ))}
      </div>
    </Card>
  );
}

/** The cars on the home page, each with a button to take it off. */
export function FeaturedCars({ cars }: { cars: { id: string; make: string; model: string; year: number }[] }) {
  return (
    <Card as="section" aria-labelledby="featured" className="space-y-3 p-5">
      <h2 id="featured" className="flex items-center gap-2 text-lg font-bold">
        <Star aria-hidden className="size-5" /> On the home page
      </h2>
      {cars.length === 0 ? (
        <p className="text-sm text-muted">
          No cars are featured, so the home page leaves the community section out. Feature a public car from its page.
        </p>
      ) : (
        <ul className="space-y-2">
          {cars.map((car) => (
            <li key={car.id} className="flex flex-wrap items-center justify-between gap-2">
              <Link to={`/community/cars/${car.id}`} className="text-link underline">
                {car.year} {car.make} {car.model}
              </Link>
              <Form method="post">
                <input type="hidden" name="intent" value="feature" />
                <input type="hidden" name="carId" value={car.id} />
                <input type="hidden" name="featured" value="off" />
                <button type="submit" className="text-sm font-semibold underline">
                  Stop featuring
                  <span className="sr-only">
                    {" "}
                    the {car.make} {car.model}
                  </span>
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
