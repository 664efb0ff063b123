import { ArrowRight, CheckCircle2, Circle, CircleDashed, CloudOff, Minus, Plus, Search } from "lucide-react";
import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { Form, Link, useNavigate, useRevalidator } from "react-router";
import { TicketScanner } from "~/features/tickets/ticket-scanner";
import { Card } from "~/ui/card";
import { FieldErrors, inputClass, Notice, SubmitButton } from "~/ui/form";
import { countOf } from "~/ui/plural";
import { type JudgingOutbox, type QueuedSave, type SaveAnswer, useJudgingOutbox } from "./judging-outbox";
import { judgeTotal, markProblem } from "./judging-rules";
import type { JudgingSheet, SheetCar, SheetClass } from "./marking.server";
import { MARK_FIELD_PREFIX } from "./marking-schemas";

/** What the page's own action answers a browser without script (or before the script ran). */
export type MarkingReply =
  | { saved: { applicationId: string; outcome: "saved" | "stale"; message: string } }
  | { problem: { applicationId: string; field: string; message: string }; values: Record<string, string> };

/** A windscreen card's QR holds the car's vote address, `/events/{event}/vote/{voteKey}`. */
function voteKeyOf(scanned: string) {
  return /\/vote\/([A-Za-z0-9_-]+)\/?(?:[?#].*)?$/.exec(scanned.trim())?.[1] ?? null;
}

/** The car's marks with the saves still waiting on this phone laid over them, oldest first. */
function marksWithPending(car: SheetCar, pending: readonly QueuedSave[]) {
  const marks = { ...car.marks };
  const waiting = pending
    .filter((save) => save.applicationId === car.applicationId)
    .sort((a, b) => a.savedAt.localeCompare(b.savedAt));
  for (const save of waiting) for (const mark of save.marks) marks[mark.criterionId] = mark.value;
  return { marks, waiting: waiting.length > 0 };
}

const carName = (car: Pick<SheetCar, "showNumber" | "carLabel">) =>
  car.showNumber === null ? car.carLabel : `No. ${car.showNumber}: ${car.carLabel}`;

/**
 * The judge's phone (docs/car-shows.md): the cars of their classes by show number with what they
 * have marked, a car found by its number or its windscreen QR, and the marking form for it. With
 * script, saves go to the server at once or wait on the phone when there is no signal.
 */
export function JudgingScreen({
  sheet,
  car,
  number,
  actionData,
}: {
  sheet: JudgingSheet;
  car: string | null;
  number: string | null;
  actionData: MarkingReply | undefined;
}) {
  const { revalidate } = useRevalidator();
  const outbox = useJudgingOutbox(sheet.eventId, sheet.judgeId, () => revalidate());
  const navigate = useNavigate();
  const [scanProblem, setScanProblem] = useState<string | null>(null);

  const cars = useMemo(
    () => sheet.classes.flatMap((showClass) => showClass.cars.map((entry) => ({ car: entry, showClass }))),
    [sheet],
  );
  const wantedNumber = number?.trim() ? Number(number.trim()) : null;
  const selected =
    cars.find((entry) => entry.car.applicationId === car) ??
    (wantedNumber === null ? undefined : cars.find((entry) => entry.car.showNumber === wantedNumber));
  const numberProblem =
    number !== null && !selected
      ? Number.isInteger(wantedNumber) && wantedNumber !== null && wantedNumber > 0
        ? `No car numbered ${wantedNumber} is in your classes`
        : "Enter the number on the car's windscreen card"
      : null;

  const scanned = (value: string) => {
    const key = voteKeyOf(value);
    const found = key ? cars.find((entry) => entry.car.voteKey === key) : undefined;
    if (!found) {
      setScanProblem(
        key ? "This car is not in a class you judge" : "This is not a windscreen card's code: type the car's number",
      );
      return;
    }
    setScanProblem(null);
    navigate(`?car=${found.car.applicationId}`);
  };

  // A refusal for a car that is not on the page (taken out of the judge's classes meanwhile).
  const strayProblem =
    actionData && "problem" in actionData && actionData.problem.applicationId !== selected?.car.applicationId
      ? actionData.problem.message
      : null;

  return (
    <div className="space-y-8">
      <OutboxStatus outbox={outbox} cars={cars.map((entry) => entry.car)} />
      {strayProblem ? <Notice kind="error">{strayProblem}</Notice> : null}
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <div className="space-y-8">
          <section aria-labelledby="find-heading" className="space-y-3">
            <h2 id="find-heading" className="wide text-2xl font-extrabold">
              Find a car
            </h2>
            <Form method="get" className="space-y-1.5">
              <label htmlFor="show-number" className="block font-semibold">
                Show number
              </label>
              <div className="flex gap-3">
                <input
                  id="show-number"
                  name="number"
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={8}
                  defaultValue={selected ? "" : (number ?? "")}
                  aria-invalid={numberProblem ? true : undefined}
                  aria-describedby={numberProblem ? "show-number-error" : "show-number-hint"}
                  className={`${inputClass(Boolean(numberProblem))} h-12 w-32 text-lg font-bold`}
                />
                <button
                  type="submit"
                  className="inline-flex min-h-12 items-center gap-2 rounded-full bg-accent px-6 font-bold text-on-accent"
                >
                  <Search aria-hidden className="size-5" /> Find
                </button>
              </div>
              <p id="show-number-hint" className="text-sm text-muted">
                The number on the car's windscreen card, or scan its QR code.
              </p>
              <FieldErrors id="show-number-error" errors={numberProblem ? [numberProblem] : undefined} />
            </Form>
          </section>
          {selected ? (
            <MarkingForm
              key={selected.car.applicationId}
              car={selected.car}
              showClass={selected.showClass}
              next={selected.showClass.cars[selected.showClass.cars.indexOf(selected.car) + 1] ?? null}
              outbox={outbox}
              actionData={actionData}
            />
          ) : null}
          <CarList classes={sheet.classes} pending={outbox.pending} selectedId={selected?.car.applicationId ?? null} />
        </div>
        <aside className="space-y-3" aria-labelledby="scan-heading">
          <h2 id="scan-heading" className="wide text-xl font-extrabold">
            Scan a windscreen card
          </h2>
          <TicketScanner busy={false} onScan={scanned} />
          {scanProblem ? (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
              {scanProblem}
            </p>
          ) : null}
        </aside>
      </div>
    </div>
  );
}

/** Whether the phone is online, and what waits on it or was turned down after waiting. */
function OutboxStatus({ outbox, cars }: { outbox: JudgingOutbox; cars: SheetCar[] }) {
  const nameOf = (applicationId: string) => {
    const car = cars.find((entry) => entry.applicationId === applicationId);
    return car ? carName(car) : "A car";
  };
  if (outbox.online && outbox.pending.length === 0 && !outbox.message && outbox.refused.length === 0) return null;
  return (
    <div className="space-y-3" aria-live="polite">
      {!outbox.online || outbox.pending.length > 0 ? (
        <Card className="flex flex-wrap items-center gap-3 p-4">
          <CloudOff aria-hidden className="size-5 shrink-0 text-accent-ink" />
          <p className="min-w-0 flex-1">
            {outbox.online ? "Online." : "No connection."}{" "}
            {outbox.pending.length > 0
              ? `${countOf(outbox.pending.length, "save waits", "saves wait")} on this phone and will send when online.`
              : "Marks you save are kept on this phone until it is back online."}
          </p>
          {outbox.online && outbox.pending.length > 0 ? (
            <button
              type="button"
              onClick={() => void outbox.sync()}
              className="min-h-12 rounded-full bg-surface-sunken px-5 font-bold hover:bg-line"
            >
              Send now
            </button>
          ) : null}
        </Card>
      ) : null}
      {outbox.message ? <Notice kind="info">{outbox.message}</Notice> : null}
      {outbox.refused.length > 0 ? (
        <Notice kind="error">
          <p className="font-semibold">Some marks kept on this phone were not saved: mark these cars again.</p>
          <ul className="list-disc pl-5">
            {outbox.refused.map((refusal, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the same car can be refused twice with the same words
              <li key={index}>
                {nameOf(refusal.applicationId)}: {refusal.message}
              </li>
            ))}
          </ul>
        </Notice>
      ) : null}
    </div>
  );
}

/** Each class the judge judges, its cars by show number with whether this judge has marked them. */
function CarList({
  classes,
  pending,
  selectedId,
}: {
  classes: SheetClass[];
  pending: readonly QueuedSave[];
  selectedId: string | null;
}) {
  return (
    <section aria-labelledby="cars-heading" className="space-y-5">
      <h2 id="cars-heading" className="wide text-2xl font-extrabold">
        Your classes
      </h2>
      {classes.map((showClass) => {
        const marked = showClass.cars.filter(
          (car) =>
            judgeTotal(
              showClass.scheme,
              showClass.criteria,
              new Map(Object.entries(marksWithPending(car, pending).marks)),
            ) !== null,
        ).length;
        return (
          <section key={showClass.id} aria-labelledby={`class-${showClass.id}`} className="space-y-2">
            <h3 id={`class-${showClass.id}`} className="text-lg font-bold">
              {showClass.name}{" "}
              <span className="text-sm font-medium text-muted">
                {marked} of {countOf(showClass.cars.length, "car", "cars")} marked
                {showClass.closed ? " · marking closed" : ""}
              </span>
            </h3>
            {showClass.cars.length === 0 ? (
              <Card as="p" variant="empty" className="p-4 text-muted">
                No cars are in this class yet.
              </Card>
            ) : (
              <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line">
                {showClass.cars.map((car) => {
                  const { marks, waiting } = marksWithPending(car, pending);
                  const count = showClass.criteria.filter((criterion) => marks[criterion.id] !== undefined).length;
                  const state =
                    count === showClass.criteria.length ? "Marked" : count === 0 ? "Not marked" : "Partly marked";
                  const Icon = state === "Marked" ? CheckCircle2 : state === "Not marked" ? Circle : CircleDashed;
                  return (
                    <li key={car.applicationId}>
                      <Link
                        to={`?car=${car.applicationId}`}
                        aria-current={car.applicationId === selectedId ? "true" : undefined}
                        className="flex min-h-14 items-center gap-3 px-4 py-2 hover:bg-surface-sunken aria-[current]:bg-surface-sunken"
                      >
                        <span className="w-12 shrink-0 text-xl font-black tabular-nums">{car.showNumber ?? "–"}</span>
                        <span className="min-w-0 flex-1 truncate">{car.carLabel}</span>
                        <span className="flex shrink-0 items-center gap-1.5 text-sm font-semibold">
                          <Icon aria-hidden className="size-4" />
                          {state}
                          {waiting ? <span className="text-muted"> · on this phone</span> : null}
                        </span>
                      </Link>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        );
      })}
    </section>
  );
}

/** A typed mark as a number, or NaN when it is not one (which `markProblem` refuses). */
function markValue(text: string) {
  const trimmed = text.trim().replace(",", ".");
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/**
 * The marking form for one car: a stepper per criterion (±0.5, and the number typed), the judge's
 * running total, and Save. Without script it is a plain form posted to the page.
 */
function MarkingForm({
  car,
  showClass,
  next,
  outbox,
  actionData,
}: {
  car: SheetCar;
  showClass: SheetClass;
  /** The class's next car by show number, for judges walking down the line. */
  next: SheetCar | null;
  outbox: JudgingOutbox;
  actionData: MarkingReply | undefined;
}) {
  const reply = actionData && "problem" in actionData ? actionData : null;
  const ownReply = reply?.problem.applicationId === car.applicationId ? reply : null;
  const saved = actionData && "saved" in actionData && actionData.saved.applicationId === car.applicationId;
  const start = marksWithPending(car, outbox.pending).marks;
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      showClass.criteria.map((criterion) => [
        criterion.id,
        ownReply?.values[criterion.id] ?? (start[criterion.id] === undefined ? "" : String(start[criterion.id])),
      ]),
    ),
  );
  const [problems, setProblems] = useState<Record<string, string>>(() =>
    ownReply?.problem.field ? { [ownReply.problem.field]: ownReply.problem.message } : {},
  );
  const [answer, setAnswer] = useState<SaveAnswer | null>(null);
  const [sending, setSending] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    setHydrated(true);
    heading.current?.focus();
  }, []);

  const most = (weight: number) => (showClass.scheme === "weighted" ? 10 : weight);
  const typed = new Map(
    showClass.criteria.flatMap((criterion) => {
      const value = markValue(values[criterion.id] ?? "");
      return values[criterion.id]?.trim() && markProblem(showClass.scheme, criterion, value) === null
        ? [[criterion.id, value] as const]
        : [];
    }),
  );
  const total = judgeTotal(showClass.scheme, showClass.criteria, typed);
  const formProblem =
    answer?.outcome === "refused"
      ? answer.message
      : ownReply && !showClass.criteria.some((criterion) => criterion.id === ownReply.problem.field)
        ? ownReply.problem.message
        : null;
  const formMessage = answer
    ? answer.outcome === "refused"
      ? null
      : answer.message
    : saved && actionData && "saved" in actionData
      ? actionData.saved.message
      : null;

  const step = (criterionId: string, by: number, weight: number) => {
    const current = markValue(values[criterionId] ?? "");
    // From empty, "more" starts at half a mark and "less" at the most there is.
    const next = Number.isNaN(current)
      ? by > 0
        ? 0.5
        : most(weight)
      : Math.min(most(weight), Math.max(0, Math.round((current + by) * 2) / 2));
    setValues((all) => ({ ...all, [criterionId]: String(next) }));
    setProblems(({ [criterionId]: _, ...rest }) => rest);
    setAnswer(null);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    const marks: QueuedSave["marks"] = [];
    for (const criterion of showClass.criteria) {
      const text = values[criterion.id]?.trim() ?? "";
      if (!text) continue;
      const value = markValue(text);
      const problem = markProblem(showClass.scheme, criterion, value);
      if (problem) found[criterion.id] = problem;
      else marks.push({ criterionId: criterion.id, value });
    }
    setProblems(found);
    if (Object.keys(found).length > 0) {
      setAnswer(null);
      return;
    }
    if (marks.length === 0) {
      setAnswer({ outcome: "refused", message: "Mark at least one criterion" });
      return;
    }
    setSending(true);
    try {
      setAnswer(
        await outbox.save({
          id: crypto.randomUUID(),
          applicationId: car.applicationId,
          savedAt: new Date().toISOString(),
          marks,
        }),
      );
    } finally {
      setSending(false);
    }
  };

  return (
    <section aria-labelledby="marking-heading" className="space-y-4">
      <div>
        <h2 ref={heading} id="marking-heading" tabIndex={-1} className="wide text-2xl font-extrabold outline-none">
          {carName(car)}
        </h2>
        <p className="text-muted">
          {showClass.name} ·{" "}
          {showClass.scheme === "weighted"
            ? "mark each criterion from 0 to 10, in halves"
            : "take off up to each criterion's weight from 100, in halves"}
        </p>
      </div>
      {showClass.closed ? (
        <Notice kind="info">Marking for {showClass.name} is closed: these marks can no longer change.</Notice>
      ) : null}
      <Form method="post" className="space-y-5" onSubmit={(event) => void submit(event)} noValidate={hydrated}>
        <input type="hidden" name="applicationId" value={car.applicationId} />
        <fieldset disabled={showClass.closed} className="space-y-4">
          <legend className="sr-only">Marks for {carName(car)}</legend>
          {showClass.criteria.map((criterion) => {
            const id = `mark-${criterion.id}`;
            const problem = problems[criterion.id];
            const label =
              showClass.scheme === "weighted"
                ? `${criterion.name} (counts ${criterion.weight})`
                : `${criterion.name}: take off (up to ${criterion.weight})`;
            return (
              <div key={criterion.id} className="space-y-1.5">
                <label htmlFor={id} className="block text-lg font-semibold">
                  {label}
                </label>
                <div className="flex items-center gap-2">
                  {hydrated ? (
                    <button
                      type="button"
                      onClick={() => step(criterion.id, -0.5, criterion.weight)}
                      aria-label={`Half a mark less for ${criterion.name}`}
                      className="grid size-14 shrink-0 place-items-center rounded-2xl bg-surface-sunken hover:bg-line"
                    >
                      <Minus aria-hidden className="size-6" />
                    </button>
                  ) : null}
                  <input
                    id={id}
                    name={`${MARK_FIELD_PREFIX}${criterion.id}`}
                    type="number"
                    inputMode="decimal"
                    min={0}
                    max={most(criterion.weight)}
                    step={0.5}
                    value={values[criterion.id] ?? ""}
                    onChange={(event) => {
                      const value = event.currentTarget.value;
                      setValues((all) => ({ ...all, [criterion.id]: value }));
                      setProblems(({ [criterion.id]: _, ...rest }) => rest);
                      setAnswer(null);
                    }}
                    aria-invalid={problem ? true : undefined}
                    aria-describedby={problem ? `${id}-error` : undefined}
                    className={`${inputClass(Boolean(problem))} h-14 w-28 text-center text-2xl font-black tabular-nums`}
                  />
                  {hydrated ? (
                    <button
                      type="button"
                      onClick={() => step(criterion.id, 0.5, criterion.weight)}
                      aria-label={`Half a mark more for ${criterion.name}`}
                      className="grid size-14 shrink-0 place-items-center rounded-2xl bg-surface-sunken hover:bg-line"
                    >
                      <Plus aria-hidden className="size-6" />
                    </button>
                  ) : null}
                  <span className="text-muted">/ {most(criterion.weight)}</span>
                </div>
                {hydrated && showClass.scheme === "weighted" ? (
                  <WholeMarks
                    name={criterion.name}
                    current={values[criterion.id] ?? ""}
                    onPick={(value) => {
                      setValues((all) => ({ ...all, [criterion.id]: String(value) }));
                      setProblems(({ [criterion.id]: _, ...rest }) => rest);
                      setAnswer(null);
                    }}
                  />
                ) : null}
                <FieldErrors id={`${id}-error`} errors={problem ? [problem] : undefined} />
              </div>
            );
          })}
        </fieldset>
        {formProblem ? <Notice kind="error">{formProblem}</Notice> : null}
        {formMessage ? (
          <Notice kind={answer?.outcome === "queued" || answer?.outcome === "stale" ? "info" : "success"}>
            {formMessage}
          </Notice>
        ) : null}
        {/* On a phone the total and Save stay in reach at the foot of the screen while marking. */}
        <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center gap-3 border-t border-line bg-surface/95 px-4 py-3 backdrop-blur sm:static sm:mx-0 sm:border-0 sm:bg-transparent sm:p-0">
          <p className="min-w-0 flex-1 text-lg" aria-live="polite">
            Your total:{" "}
            {total === null ? (
              <span className="text-base text-muted">mark every criterion to see it</span>
            ) : (
              <strong className="text-2xl tabular-nums">{total} / 100</strong>
            )}
          </p>
          {showClass.closed ? null : (
            <div className="w-full sm:w-auto">
              <SubmitButton pendingLabel="Saving…" sending={sending} fit>
                Save marks
              </SubmitButton>
            </div>
          )}
        </div>
      </Form>
      {next ? (
        <Link
          to={`?car=${next.applicationId}`}
          className="inline-flex min-h-12 items-center gap-2 rounded-full bg-surface-sunken px-6 font-bold hover:bg-line"
        >
          Next car: {carName(next)} <ArrowRight aria-hidden className="size-5" />
        </Link>
      ) : null}
    </section>
  );
}

const WHOLE_MARKS = Array.from({ length: 11 }, (_, index) => index);

/**
 * A weighted criterion's whole marks as a grid of buttons, so a mark is one tap (then ±0.5 for a
 * half): quicker on a phone than sixteen taps of the stepper.
 */
function WholeMarks({ name, current, onPick }: { name: string; current: string; onPick: (value: number) => void }) {
  return (
    <fieldset className="grid max-w-md grid-cols-6 gap-1.5">
      <legend className="sr-only">Whole marks for {name}</legend>
      {WHOLE_MARKS.map((value) => (
        <button
          key={value}
          type="button"
          aria-pressed={current.trim() === String(value)}
          onClick={() => onPick(value)}
          className="min-h-11 rounded-xl bg-surface-sunken font-bold tabular-nums hover:bg-line aria-pressed:bg-accent aria-pressed:text-on-accent"
        >
          {value}
        </button>
      ))}
    </fieldset>
  );
}
