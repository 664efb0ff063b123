import { useEffect } from "react";
import { Form, useRevalidator } from "react-router";
import { Badge } from "~/ui/badge";
import { Card } from "~/ui/card";
import { FieldErrors, inputClass, SubmitButton } from "~/ui/form";
import { TabSection } from "~/ui/record-page";
import { SPARE_CRITERIA } from "./show-setup-schemas";

// The organizer's show tab (docs/car-shows.md). Plain forms, one per action, so the page works
// before its script has loaded; a form's problems come back beside its own fields, matched by the
// intent and the record (`target`) it was sent for.

type Errors = Record<string, string[] | null | undefined>;
type Reply = { intent: string; target: string; errors: Errors } | null;

type Criterion = { id: string; name: string; weight: number };
type ShowClass = {
  id: string;
  name: string;
  scheme: "weighted" | "deduction";
  criteria: Criterion[];
  closedAt: Date | null;
  marks: number;
  judges: { userId: string; name: string; email: string }[];
};
type Entry = {
  applicationId: string;
  carLabel: string;
  ownerName: string;
  suggestedClassId: string | null;
  classId: string | null;
  showNumber: number | null;
};
type Board = {
  classId: string;
  name: string;
  closed: boolean;
  judges: { userId: string; name: string }[];
  ready: { ready: boolean; why: string | null };
  standings: {
    carId: string;
    carLabel: string;
    showNumber: number | null;
    score: number | null;
    place: number | null;
    tied: boolean;
    incomplete: boolean;
    byJudge: { judgeId: string; total: number | null }[];
  }[];
};
type Award = { id: string; title: string; className: string | null; carLabel: string; showNumber: number | null };
type Voting = {
  opensAtLocal: string;
  closesAtLocal: string;
  resultsPublishedAt: Date | null;
  showScores: boolean;
  categories: { id: string; name: string; slug: string; ballots: number }[];
};

const SCHEME_WORDS = { weighted: "Weighted criteria", deduction: "Deduction from 100" } as const;

/** The leaderboard catches up with the judges' marks every 10 seconds, as the gate's counts do. */
function usePolling(ms: number) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (state === "idle" && document.visibilityState === "visible" && navigator.onLine) revalidate();
    }, ms);
    return () => window.clearInterval(timer);
  }, [ms, revalidate, state]);
}

/** The problems a reply holds for one form, or none when it was another form's. */
function errorsFor(reply: Reply, intent: string | string[], target = ""): Errors {
  if (!reply) return {};
  const intents = Array.isArray(intent) ? intent : [intent];
  return intents.includes(reply.intent) && reply.target === target ? reply.errors : {};
}

function Problem({ id, errors }: { id: string; errors: Errors }) {
  const messages = Object.values(errors).flatMap((value) => value ?? []);
  return <FieldErrors id={id} errors={messages.length ? messages : undefined} />;
}

function Hidden({ values }: { values: Record<string, string> }) {
  return (
    <>
      {Object.entries(values).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

export function ShowSetup({
  event,
  classes,
  templates,
  entries,
  boards,
  awards,
  voting,
  reply,
}: {
  event: { id: string; title: string; timeZone: string };
  classes: ShowClass[];
  templates: { id: string; name: string }[];
  entries: Entry[];
  boards: Board[];
  awards: Award[];
  voting: Voting;
  reply: Reply;
}) {
  usePolling(10_000);
  return (
    <div className="space-y-12">
      <ClassesSection classes={classes} templates={templates} reply={reply} />
      <EntriesSection eventId={event.id} classes={classes} entries={entries} reply={reply} />
      <AwardsSection boards={boards} awards={awards} entries={entries} reply={reply} />
      <VotingSection timeZone={event.timeZone} voting={voting} reply={reply} />
    </div>
  );
}

function ClassForm({ showClass, reply }: { showClass: ShowClass | null; reply: Reply }) {
  const target = showClass?.id ?? "new";
  const errors = errorsFor(reply, "class-save", target);
  const rows: (Criterion | null)[] = [...(showClass?.criteria ?? []), ...Array(SPARE_CRITERIA).fill(null)];
  const prefix = `class-${target}`;
  return (
    <Form method="post" className="space-y-3" key={showClass ? JSON.stringify(showClass.criteria) : undefined}>
      <Hidden values={{ target, ...(showClass ? { classId: showClass.id } : {}) }} />
      <div className="flex flex-wrap gap-3">
        <div className="min-w-[14rem] flex-1 space-y-1.5">
          <label htmlFor={`${prefix}-name`} className="block font-semibold">
            Class name
          </label>
          <input
            id={`${prefix}-name`}
            name="name"
            required
            maxLength={60}
            defaultValue={showClass?.name}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? `${prefix}-name-error` : undefined}
            className={inputClass(Boolean(errors.name))}
          />
          <FieldErrors id={`${prefix}-name-error`} errors={errors.name ?? undefined} />
        </div>
        <div className="space-y-1.5">
          <label htmlFor={`${prefix}-scheme`} className="block font-semibold">
            Marking
          </label>
          <select
            id={`${prefix}-scheme`}
            name="scheme"
            defaultValue={showClass?.scheme ?? "weighted"}
            className={`${inputClass(false)} h-12`}
          >
            <option value="weighted">{SCHEME_WORDS.weighted}</option>
            <option value="deduction">{SCHEME_WORDS.deduction}</option>
          </select>
        </div>
      </div>
      <fieldset className="space-y-2" aria-describedby={errors.criteria ? `${prefix}-criteria-error` : undefined}>
        <legend className="font-semibold">Criteria and their weights (adding up to 100)</legend>
        {rows.map((criterion, index) => (
          <div key={criterion?.id ?? `spare-${index}`} className="flex gap-2">
            {criterion ? <input type="hidden" name={`criteria[${index}].id`} value={criterion.id} /> : null}
            <input
              name={`criteria[${index}].name`}
              aria-label={`Criterion ${index + 1}`}
              defaultValue={criterion?.name}
              maxLength={60}
              className={`${inputClass(false)} flex-1`}
            />
            <input
              name={`criteria[${index}].weight`}
              aria-label={`Weight of criterion ${index + 1}`}
              type="number"
              min={1}
              max={100}
              step={1}
              defaultValue={criterion?.weight}
              className={`${inputClass(false)} w-24`}
            />
          </div>
        ))}
        <FieldErrors id={`${prefix}-criteria-error`} errors={errors.criteria ?? undefined} />
      </fieldset>
      <Problem id={`${prefix}-error`} errors={{ "": errors[""], classId: errors.classId, scheme: errors.scheme }} />
      <SubmitButton name="intent" value="class-save" pendingLabel="Saving…" fit>
        {showClass ? "Save class" : "Add class"}
      </SubmitButton>
    </Form>
  );
}

function ClassesSection({
  classes,
  templates,
  reply,
}: {
  classes: ShowClass[];
  templates: { id: string; name: string }[];
  reply: Reply;
}) {
  const libraryErrors = errorsFor(reply, "class-library-add", "library");
  return (
    <TabSection
      id="classes"
      title="Classes and judges"
      intro="Each class has its own criteria and judges. Closing a class locks its marks; its Best in Class can then be given."
    >
      {classes.length === 0 ? (
        <Card as="p" variant="empty" className="p-5 text-muted">
          No classes yet.
        </Card>
      ) : null}
      {classes.map((showClass) => {
        const target = showClass.id;
        const actionErrors = errorsFor(
          reply,
          ["class-remove", "class-close", "class-reopen", "class-library-save", "judge-remove"],
          target,
        );
        const judgeErrors = errorsFor(reply, "judge-add", target);
        const emailError = judgeErrors.email?.[0] ?? judgeErrors[""]?.[0];
        return (
          <Card as="section" key={showClass.id} aria-labelledby={`class-${target}-title`} className="space-y-4 p-5">
            <div className="flex flex-wrap items-center gap-2">
              <h3 id={`class-${target}-title`} className="text-lg font-bold">
                {showClass.name}
              </h3>
              <Badge tone="quiet">{SCHEME_WORDS[showClass.scheme]}</Badge>
              {showClass.closedAt ? <Badge tone="warning">Closed</Badge> : <Badge tone="success">Open</Badge>}
              <span className="text-sm text-muted">{showClass.marks} marks</span>
            </div>
            <details>
              <summary className="cursor-pointer font-semibold">Edit name and criteria</summary>
              <div className="mt-3">
                <ClassForm showClass={showClass} reply={reply} />
              </div>
            </details>
            <Form method="post" className="flex flex-wrap gap-2">
              <Hidden values={{ target, classId: showClass.id }} />
              {showClass.closedAt ? (
                <SubmitButton name="intent" value="class-reopen" variant="secondary" fit>
                  Reopen<span className="sr-only"> {showClass.name}</span>
                </SubmitButton>
              ) : (
                <SubmitButton name="intent" value="class-close" variant="secondary" fit>
                  Close<span className="sr-only"> {showClass.name}</span>
                </SubmitButton>
              )}
              <SubmitButton name="intent" value="class-library-save" variant="secondary" fit>
                Save to library<span className="sr-only"> ({showClass.name})</span>
              </SubmitButton>
              {showClass.marks === 0 ? (
                <SubmitButton name="intent" value="class-remove" variant="danger" fit>
                  Remove<span className="sr-only"> {showClass.name}</span>
                </SubmitButton>
              ) : null}
            </Form>
            <Problem id={`class-${target}-error`} errors={actionErrors} />
            <div className="space-y-2">
              <h4 className="font-semibold">Judges</h4>
              {showClass.judges.length === 0 ? (
                <p className="text-sm text-muted">Nobody judges this class yet.</p>
              ) : (
                <ul className="divide-y divide-line">
                  {showClass.judges.map((judge) => (
                    <li key={judge.userId} className="flex flex-wrap items-center justify-between gap-3 py-2">
                      <span>
                        {judge.name} <span className="text-sm text-muted">{judge.email}</span>
                      </span>
                      <Form method="post">
                        <Hidden values={{ target, classId: showClass.id, userId: judge.userId }} />
                        <SubmitButton name="intent" value="judge-remove" variant="secondary" fit>
                          Remove<span className="sr-only"> {judge.name}</span>
                        </SubmitButton>
                      </Form>
                    </li>
                  ))}
                </ul>
              )}
              <Form
                method="post"
                className="flex flex-wrap items-end gap-3"
                key={showClass.judges.map((judge) => judge.userId).join()}
              >
                <Hidden values={{ target, classId: showClass.id }} />
                <div className="min-w-[16rem] flex-1 space-y-1.5">
                  <label htmlFor={`judge-${target}-email`} className="block font-semibold">
                    Judge&rsquo;s email address
                  </label>
                  <input
                    id={`judge-${target}-email`}
                    name="email"
                    type="email"
                    required
                    autoComplete="off"
                    maxLength={254}
                    aria-invalid={emailError ? true : undefined}
                    aria-describedby={emailError ? `judge-${target}-email-error` : undefined}
                    className={inputClass(Boolean(emailError))}
                  />
                  <FieldErrors id={`judge-${target}-email-error`} errors={emailError ? [emailError] : undefined} />
                </div>
                <SubmitButton name="intent" value="judge-add" pendingLabel="Adding…" fit>
                  Add judge
                </SubmitButton>
              </Form>
            </div>
          </Card>
        );
      })}
      <Card as="section" aria-labelledby="class-new-title" className="space-y-3 p-5">
        <h3 id="class-new-title" className="text-lg font-bold">
          Add a class
        </h3>
        <ClassForm showClass={null} key={classes.length} reply={reply} />
      </Card>
      <Card as="section" aria-labelledby="class-library-title" className="space-y-3 p-5">
        <h3 id="class-library-title" className="text-lg font-bold">
          Add from the library
        </h3>
        {templates.length === 0 ? (
          <p className="text-sm text-muted">The library is empty: save a class to it to use it at other events.</p>
        ) : (
          <Form method="post" className="flex flex-wrap items-end gap-3">
            <Hidden values={{ target: "library" }} />
            <div className="min-w-[14rem] flex-1 space-y-1.5">
              <label htmlFor="class-library" className="block font-semibold">
                Class
              </label>
              <select
                id="class-library"
                name="templateId"
                aria-describedby={libraryErrors.templateId ? "class-library-error" : undefined}
                className={`${inputClass(Boolean(libraryErrors.templateId))} h-12`}
              >
                {templates.map((template) => (
                  <option key={template.id} value={template.id}>
                    {template.name}
                  </option>
                ))}
              </select>
              <Problem id="class-library-error" errors={libraryErrors} />
            </div>
            <SubmitButton name="intent" value="class-library-add" pendingLabel="Adding…" fit>
              Add to this show
            </SubmitButton>
          </Form>
        )}
      </Card>
    </TabSection>
  );
}

function EntriesSection({
  eventId,
  classes,
  entries,
  reply,
}: {
  eventId: string;
  classes: ShowClass[];
  entries: Entry[];
  reply: Reply;
}) {
  const className = (id: string | null) => classes.find((row) => row.id === id)?.name ?? "None";
  const numberErrors = errorsFor(reply, "entries-number");
  return (
    <TabSection
      id="entries"
      title="Cars in the show"
      intro="Approved and paid applications. Put each car in a class and give it a number for its windscreen card."
      aside={
        <a href={`/admin/events/${eventId}/show/cards`} className="font-semibold text-accent underline">
          Print windscreen cards
        </a>
      }
    >
      <Form method="post" className="space-y-2">
        <SubmitButton name="intent" value="entries-number" variant="secondary" pendingLabel="Numbering…" fit>
          Number the cars
        </SubmitButton>
        <Problem id="entries-number-error" errors={numberErrors} />
      </Form>
      {entries.length === 0 ? (
        <Card as="p" variant="empty" className="p-5 text-muted">
          No cars are in the show yet.
        </Card>
      ) : (
        <Card as="ul" className="divide-y divide-line">
          {entries.map((entry) => {
            const target = entry.applicationId;
            const errors = errorsFor(reply, "entry-place", target);
            const prefix = `entry-${target}`;
            return (
              <li key={target} className="space-y-2 px-4 py-3">
                <p className="font-semibold">
                  {entry.showNumber ? `#${entry.showNumber} · ` : ""}
                  {entry.carLabel} <span className="font-normal text-muted">· {entry.ownerName}</span>
                </p>
                <p className="text-sm text-muted">
                  Suggested: {entry.suggestedClassId ? className(entry.suggestedClassId) : "no suggestion"}
                </p>
                <Form
                  method="post"
                  className="flex flex-wrap items-end gap-3"
                  key={`${entry.classId}:${entry.showNumber}`}
                >
                  <Hidden values={{ target, applicationId: target }} />
                  <div className="space-y-1.5">
                    <label htmlFor={`${prefix}-class`} className="block text-sm font-semibold">
                      Class
                    </label>
                    <select
                      id={`${prefix}-class`}
                      name="classId"
                      defaultValue={entry.classId ?? ""}
                      className={`${inputClass(Boolean(errors.classId))} h-12`}
                    >
                      <option value="">None</option>
                      {classes.map((row) => (
                        <option key={row.id} value={row.id}>
                          {row.name}
                        </option>
                      ))}
                    </select>
                  </div>
                  <div className="space-y-1.5">
                    <label htmlFor={`${prefix}-number`} className="block text-sm font-semibold">
                      Show number
                    </label>
                    <input
                      id={`${prefix}-number`}
                      name="showNumber"
                      type="number"
                      min={1}
                      max={9999}
                      defaultValue={entry.showNumber ?? undefined}
                      aria-invalid={errors.showNumber ? true : undefined}
                      aria-describedby={errors.showNumber ? `${prefix}-error` : undefined}
                      className={`${inputClass(Boolean(errors.showNumber))} w-28`}
                    />
                  </div>
                  <SubmitButton name="intent" value="entry-place" variant="secondary" pendingLabel="Saving…" fit>
                    Save<span className="sr-only"> {entry.carLabel}</span>
                  </SubmitButton>
                </Form>
                <Problem id={`${prefix}-error`} errors={errors} />
              </li>
            );
          })}
        </Card>
      )}
    </TabSection>
  );
}

const score = (value: number | null) => (value === null ? "–" : value.toFixed(2));

function AwardsSection({
  boards,
  awards,
  entries,
  reply,
}: {
  boards: Board[];
  awards: Award[];
  entries: Entry[];
  reply: Reply;
}) {
  const numbered = entries.filter((entry) => entry.showNumber !== null || entry.classId !== null);
  const showErrors = errorsFor(reply, "award-give", "show");
  const trophyErrors = errorsFor(reply, "award-give", "trophy");
  const takeBackErrors = errorsFor(reply, "award-take-back");
  const carOptions = numbered.map((entry) => (
    <option key={entry.applicationId} value={entry.applicationId}>
      {entry.showNumber ? `#${entry.showNumber} ` : ""}
      {entry.carLabel}
    </option>
  ));
  return (
    <TabSection
      id="awards"
      title="Leaderboards and awards"
      intro="Scores update every 10 seconds while judges mark. A score is provisional while any judge has not marked the car in full."
    >
      {boards.map((board) => {
        const errors = errorsFor(reply, "award-give", board.classId);
        return (
          <Card as="section" key={board.classId} aria-labelledby={`board-${board.classId}`} className="space-y-3 p-5">
            <h3 id={`board-${board.classId}`} className="text-lg font-bold">
              {board.name} {board.closed ? <Badge tone="warning">Closed</Badge> : null}
            </h3>
            <p className="text-sm text-muted">{board.ready.ready ? "Ready for its awards." : board.ready.why}</p>
            {board.standings.length ? (
              <div className="overflow-x-auto">
                <table className="w-full text-left text-sm">
                  <thead>
                    <tr>
                      <th scope="col">Place</th>
                      <th scope="col">No.</th>
                      <th scope="col">Car</th>
                      <th scope="col">Score</th>
                      {board.judges.map((judge) => (
                        <th scope="col" key={judge.userId}>
                          {judge.name}
                        </th>
                      ))}
                      <th scope="col">
                        <span className="sr-only">Best in Class</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {board.standings.map((row) => (
                      <tr key={row.carId} className="border-t border-line">
                        <td className="py-2">{row.place ?? "–"}</td>
                        <td>{row.showNumber ?? "–"}</td>
                        <td>
                          {row.carLabel} {row.incomplete ? <Badge tone="warning">Incomplete</Badge> : null}{" "}
                          {row.tied ? <Badge tone="danger">Tied</Badge> : null}
                        </td>
                        <td>
                          {score(row.score)}
                          {row.incomplete && row.score !== null ? (
                            <span className="text-muted"> (provisional)</span>
                          ) : null}
                        </td>
                        {row.byJudge.map((judge) => (
                          <td key={judge.judgeId}>{score(judge.total)}</td>
                        ))}
                        <td>
                          {board.closed && row.place === 1 ? (
                            <Form method="post">
                              <Hidden
                                values={{
                                  target: board.classId,
                                  kind: "class",
                                  classId: board.classId,
                                  applicationId: row.carId,
                                }}
                              />
                              <SubmitButton name="intent" value="award-give" variant="secondary" fit>
                                Best in Class<span className="sr-only"> to {row.carLabel}</span>
                              </SubmitButton>
                            </Form>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : null}
            <Problem id={`board-${board.classId}-error`} errors={errors} />
          </Card>
        );
      })}
      <Card as="section" aria-labelledby="awards-given" className="space-y-3 p-5">
        <h3 id="awards-given" className="text-lg font-bold">
          Awards given
        </h3>
        {awards.length === 0 ? (
          <p className="text-sm text-muted">None yet.</p>
        ) : (
          <ul className="divide-y divide-line">
            {awards.map((award) => (
              <li key={award.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
                <span>
                  <strong>
                    {award.title}
                    {award.className ? ` (${award.className})` : ""}
                  </strong>
                  : {award.showNumber ? `#${award.showNumber} ` : ""}
                  {award.carLabel}
                </span>
                <Form method="post">
                  <Hidden values={{ awardId: award.id }} />
                  <SubmitButton name="intent" value="award-take-back" variant="secondary" fit>
                    Take back<span className="sr-only"> {award.title}</span>
                  </SubmitButton>
                </Form>
              </li>
            ))}
          </ul>
        )}
        <Problem id="award-take-back-error" errors={takeBackErrors} />
        {numbered.length ? (
          <>
            <Form method="post" className="flex flex-wrap items-end gap-3">
              <Hidden values={{ target: "show", kind: "show" }} />
              <div className="min-w-[14rem] flex-1 space-y-1.5">
                <label htmlFor="award-show-car" className="block font-semibold">
                  Best in Show
                </label>
                <select id="award-show-car" name="applicationId" className={`${inputClass(false)} h-12`}>
                  {carOptions}
                </select>
                <Problem id="award-show-error" errors={showErrors} />
              </div>
              <SubmitButton name="intent" value="award-give" fit>
                Give Best in Show
              </SubmitButton>
            </Form>
            <Form method="post" className="flex flex-wrap items-end gap-3" key={awards.length}>
              <Hidden values={{ target: "trophy", kind: "trophy" }} />
              <div className="min-w-[12rem] flex-1 space-y-1.5">
                <label htmlFor="award-trophy-title" className="block font-semibold">
                  Trophy
                </label>
                <input
                  id="award-trophy-title"
                  name="title"
                  required
                  maxLength={60}
                  aria-invalid={trophyErrors.title ? true : undefined}
                  className={inputClass(Boolean(trophyErrors.title))}
                />
              </div>
              <div className="min-w-[12rem] flex-1 space-y-1.5">
                <label htmlFor="award-trophy-car" className="block font-semibold">
                  Car
                </label>
                <select id="award-trophy-car" name="applicationId" className={`${inputClass(false)} h-12`}>
                  {carOptions}
                </select>
              </div>
              <SubmitButton name="intent" value="award-give" fit>
                Give trophy
              </SubmitButton>
            </Form>
            <Problem id="award-trophy-error" errors={trophyErrors} />
          </>
        ) : null}
      </Card>
    </TabSection>
  );
}

function VotingSection({ timeZone, voting, reply }: { timeZone: string; voting: Voting; reply: Reply }) {
  const errors = errorsFor(reply, "voting-save");
  const categoryErrors = errorsFor(reply, ["category-add", "category-remove"]);
  const hasDefault = voting.categories.some((category) => category.slug === "peoples-choice");
  return (
    <TabSection id="voting" title="People’s Choice" intro={`Times are in the event’s time zone, ${timeZone}.`}>
      <Form method="post" className="space-y-3">
        <div className="flex flex-wrap gap-3">
          {(
            [
              ["opensAt", "Voting opens", voting.opensAtLocal],
              ["closesAt", "Voting closes", voting.closesAtLocal],
            ] as const
          ).map(([name, label, value]) => (
            <div key={name} className="space-y-1.5">
              <label htmlFor={`voting-${name}`} className="block font-semibold">
                {label}
              </label>
              <input
                id={`voting-${name}`}
                name={name}
                type="datetime-local"
                defaultValue={value}
                aria-invalid={errors[name] ? true : undefined}
                aria-describedby={errors[name] ? `voting-${name}-error` : undefined}
                className={inputClass(Boolean(errors[name]))}
              />
              <FieldErrors id={`voting-${name}-error`} errors={errors[name] ?? undefined} />
            </div>
          ))}
        </div>
        <label className="flex items-start gap-3">
          <input
            type="checkbox"
            name="showScores"
            defaultChecked={voting.showScores}
            className="mt-1 size-5 shrink-0 accent-[var(--color-accent)]"
          />
          <span className="font-semibold">Show scores on the results page</span>
        </label>
        <SubmitButton name="intent" value="voting-save" pendingLabel="Saving…" fit>
          Save voting
        </SubmitButton>
      </Form>
      <Form method="post" className="flex flex-wrap gap-2">
        <SubmitButton name="intent" value="voting-close" variant="secondary" fit>
          Close voting now
        </SubmitButton>
        {voting.resultsPublishedAt ? (
          <SubmitButton name="intent" value="results-unpublish" variant="secondary" fit>
            Unpublish results
          </SubmitButton>
        ) : (
          <SubmitButton name="intent" value="results-publish" fit>
            Publish results
          </SubmitButton>
        )}
      </Form>
      <Card as="section" aria-labelledby="voting-categories" className="space-y-3 p-5">
        <h3 id="voting-categories" className="text-lg font-bold">
          Categories
        </h3>
        <ul className="divide-y divide-line">
          {voting.categories.map((category) => (
            <li key={category.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
              <span>
                {category.name} <span className="text-sm text-muted">· {category.ballots} votes</span>
              </span>
              {category.ballots === 0 ? (
                <Form method="post">
                  <Hidden values={{ categoryId: category.id }} />
                  <SubmitButton name="intent" value="category-remove" variant="secondary" fit>
                    Remove<span className="sr-only"> {category.name}</span>
                  </SubmitButton>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
        {hasDefault ? null : (
          <Form method="post">
            <Hidden values={{ name: "People's Choice" }} />
            <SubmitButton name="intent" value="category-add" variant="secondary" fit>
              Add &ldquo;People&rsquo;s Choice&rdquo;
            </SubmitButton>
          </Form>
        )}
        <Form method="post" className="flex flex-wrap items-end gap-3" key={voting.categories.length}>
          <div className="min-w-[14rem] flex-1 space-y-1.5">
            <label htmlFor="category-name" className="block font-semibold">
              New category
            </label>
            <input
              id="category-name"
              name="name"
              required
              maxLength={40}
              aria-invalid={categoryErrors.name ? true : undefined}
              aria-describedby={categoryErrors.name ? "category-error" : undefined}
              className={inputClass(Boolean(categoryErrors.name))}
            />
          </div>
          <SubmitButton name="intent" value="category-add" pendingLabel="Adding…" fit>
            Add category
          </SubmitButton>
        </Form>
        <Problem id="category-error" errors={categoryErrors} />
      </Card>
    </TabSection>
  );
}
