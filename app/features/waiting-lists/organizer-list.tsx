import type { ReactNode } from "react";
import { Form } from "react-router";
import { Badge } from "~/ui/badge";
import { Card } from "~/ui/card";
import { inputClass } from "~/ui/form";
import { countOf } from "~/ui/plural";
import type { productWaitingLists, waitingListPage } from "./waiting-lists.server";

type Page = NonNullable<Awaited<ReturnType<typeof waitingListPage>>>;
type Line = Page["lists"][number];
type ProductPage = NonNullable<Awaited<ReturnType<typeof productWaitingLists>>>;
type Answer = { intent: string; errors: Record<string, string[] | null | undefined>; entryId: string | null };

const STATUS_WORDS = { waiting: "Waiting", offered: "Offered", bought: "Bought", lapsed: "Offer ended", left: "Left" };

function FieldError({ id, messages }: { id: string; messages?: string[] | null }) {
  if (!messages?.length) return null;
  return (
    <p id={id} className="text-sm font-semibold text-red-700 dark:text-red-400">
      {messages[0]}
    </p>
  );
}

function NumberSetting(props: {
  name: string;
  label: string;
  hint: string;
  value: number;
  min: number;
  error?: string[] | null;
}) {
  const hintId = `${props.name}-hint`;
  const errorId = `${props.name}-error`;
  return (
    <div className="space-y-1">
      <label htmlFor={props.name} className="block font-semibold">
        {props.label}
      </label>
      <p id={hintId} className="text-sm text-muted">
        {props.hint}
      </p>
      <input
        id={props.name}
        name={props.name}
        type="number"
        inputMode="numeric"
        min={props.min}
        required
        defaultValue={props.value}
        aria-invalid={props.error?.length ? true : undefined}
        aria-describedby={props.error?.length ? `${hintId} ${errorId}` : hintId}
        className={`${inputClass(Boolean(props.error?.length))} max-w-40`}
      />
      <FieldError id={errorId} messages={props.error} />
    </div>
  );
}

/**
 * Staff's view of waiting lines (an event's ticket types, or a product's variants): what could be
 * sold, each line with offers first, and moving someone up with a reason. Plain forms: no scripts.
 */
function WaitingLines({
  lists,
  couldSell,
  unit,
  intro,
  empty,
  answer,
}: {
  lists: Line[];
  couldSell: number;
  unit: "place" | "item";
  intro: ReactNode;
  empty: string;
  answer?: Answer;
}) {
  return (
    <Card as="section" aria-labelledby="lines-title" className="space-y-5 p-5 sm:p-6">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="lines-title" className="text-xl font-bold">
          Waiting lists
        </h2>
        <p className="font-semibold">
          {couldSell > 0
            ? `You could sell ${countOf(couldSell, `more ${unit}`, `more ${unit}s`)}`
            : "Nobody is waiting"}
        </p>
      </div>
      <p className="text-muted">{intro}</p>
      {lists.length === 0 ? <p>{empty}</p> : null}
      {lists.map((list) => (
        <section key={list.id} aria-labelledby={`list-${list.id}`} className="space-y-2">
          <h3 id={`list-${list.id}`} className="text-lg font-bold">
            {list.name}{" "}
            <span className="text-base font-normal text-muted">
              · {countOf(list.waiting, unit, `${unit}s`)} waited for
            </span>
          </h3>
          <div className="overflow-x-auto">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <thead className="text-muted">
                <tr>
                  <th scope="col" className="py-2 pr-3">
                    Place
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Member
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    {unit === "place" ? "Places" : "Items"}
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    State
                  </th>
                  <th scope="col" className="py-2">
                    Move up
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.entries.map((entry) => {
                  const errors = answer?.intent === "move" && answer.entryId === entry.id ? answer.errors : {};
                  const errorId = `move-${entry.id}-error`;
                  const problem = errors.position?.[0] ?? errors.reason?.[0] ?? errors[""]?.[0];
                  return (
                    <tr key={entry.id} className="border-t border-line align-top">
                      <td className="py-2 pr-3 tabular font-semibold">{entry.position ?? "—"}</td>
                      <td className="py-2 pr-3">
                        <span className="font-semibold">{entry.name}</span>
                        <br />
                        <span className="text-muted">{entry.email}</span>
                      </td>
                      <td className="py-2 pr-3 tabular">{entry.quantity}</td>
                      <td className="py-2 pr-3">
                        <Badge tone={entry.status === "offered" ? "accent" : "neutral"}>
                          {STATUS_WORDS[entry.status]}
                        </Badge>
                        <br />
                        <span className="text-muted">
                          {entry.offerEnds ? `until ${entry.offerEnds}` : `joined ${entry.joined}`}
                        </span>
                      </td>
                      <td className="py-2">
                        {entry.position !== null && entry.position > 1 ? (
                          <Form method="post" className="flex flex-wrap items-end gap-2">
                            <input type="hidden" name="entryId" value={entry.id} />
                            <label className="grid gap-1 text-xs font-semibold">
                              To place
                              <input
                                name="position"
                                type="number"
                                min={1}
                                max={entry.position - 1}
                                defaultValue={1}
                                required
                                aria-describedby={problem ? errorId : undefined}
                                className={`${inputClass(Boolean(problem))} h-9 w-20`}
                              />
                            </label>
                            <label className="grid gap-1 text-xs font-semibold">
                              Reason
                              <input
                                name="reason"
                                required
                                maxLength={200}
                                aria-describedby={problem ? errorId : undefined}
                                className={`${inputClass(Boolean(problem))} h-9 w-44`}
                              />
                            </label>
                            <button
                              type="submit"
                              name="intent"
                              value="move"
                              aria-label={`Move ${entry.name} up`}
                              className="h-9 rounded-full border border-line px-4 font-semibold hover:bg-surface-sunken"
                            >
                              Move
                            </button>
                            {problem ? (
                              <p
                                id={errorId}
                                role="alert"
                                className="basis-full text-sm font-semibold text-red-700 dark:text-red-400"
                              >
                                {problem}
                              </p>
                            ) : null}
                          </Form>
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </Card>
  );
}

/**
 * The organizer's waiting lists for one event: its lines, and the settings. Plain forms: no
 * scripts needed.
 */
export function WaitingListPanel({ page, answer }: { page: Page; answer?: Answer }) {
  const settingsErrors = answer?.intent === "settings" ? answer.errors : {};
  return (
    <div className="space-y-6">
      <WaitingLines
        lists={page.lists}
        couldSell={page.couldSell}
        unit="place"
        empty="No one has joined a list for this event yet."
        answer={answer}
        intro={
          <>
            When a ticket type sells out, members can join its list. Places that come back (a refund, an unpaid order, a
            raised capacity) are offered to the first in line, held for them for {page.settings.offerHours} hours, then
            passed on. {page.running ? `The lists close at ${page.closesLabel}.` : "The lists are not running now."}
          </>
        }
      />
      <Card as="section" aria-labelledby="list-settings" className="space-y-5 p-5 sm:p-6">
        <h2 id="list-settings" className="text-xl font-bold">
          Settings
        </h2>
        <Form method="post" className="space-y-5">
          <label className="flex items-center gap-3 font-semibold">
            <input type="checkbox" name="enabled" defaultChecked={page.settings.enabled} className="size-5" />
            Let members join a waiting list when tickets sell out
          </label>
          <NumberSetting
            name="offerHours"
            label="Hours an offer holds places"
            hint="At least 2. An offer never runs past the end of the ticket's sales."
            value={page.settings.offerHours}
            min={2}
            error={settingsErrors.offerHours}
          />
          <NumberSetting
            name="closesHours"
            label="Close the lists this many hours before the start"
            hint="After that nobody joins and places that come back go on public sale."
            value={page.settings.closesHours}
            min={0}
            error={settingsErrors.closesHours}
          />
          <button
            type="submit"
            name="intent"
            value="settings"
            className="rounded-full bg-accent px-6 py-2.5 font-bold text-on-accent hover:bg-accent-strong"
          >
            Save settings
          </button>
        </Form>
      </Card>
    </div>
  );
}

/**
 * A product's waiting lists for staff: each sold-out variant's line, and the switch that lets
 * members join them. Plain forms: no scripts needed.
 */
export function ProductWaitingListPanel({
  page,
  offerHours,
  answer,
}: {
  page: ProductPage;
  offerHours: number;
  answer?: Answer;
}) {
  return (
    <div className="space-y-6">
      <WaitingLines
        lists={page.lists}
        couldSell={page.couldSell}
        unit="item"
        empty="No one has joined a list for this product yet."
        answer={answer}
        intro={
          <>
            When a variant sells out, members can join its list. Units that come back (a delivery you add to the stock,
            a refund, an unpaid order) are offered to the first in line, held for them for {offerHours} hours, then
            passed on. {page.enabled ? "" : "The lists are switched off: nobody joins and nothing is offered."}
          </>
        }
      />
      <Card as="section" aria-labelledby="list-settings" className="space-y-5 p-5 sm:p-6">
        <h2 id="list-settings" className="text-xl font-bold">
          Settings
        </h2>
        <Form method="post" className="space-y-5">
          <label className="flex items-center gap-3 font-semibold">
            <input type="checkbox" name="enabled" defaultChecked={page.enabled} className="size-5" />
            Let members join a waiting list when a variant sells out
          </label>
          <button
            type="submit"
            name="intent"
            value="settings"
            className="rounded-full bg-accent px-6 py-2.5 font-bold text-on-accent hover:bg-accent-strong"
          >
            Save settings
          </button>
        </Form>
      </Card>
    </div>
  );
}
