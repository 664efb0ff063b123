import { Form } from "react-router";
import { Badge } from "~/ui/badge";
import { Card } from "~/ui/card";
import { inputClass } from "~/ui/form";
import { countOf } from "~/ui/plural";
import type { waitingListPage } from "./waiting-lists.server";

type Page = NonNullable<Awaited<ReturnType<typeof waitingListPage>>>;
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
 * The organizer's waiting lists for one event: what it could sell, each ticket type's line with
 * offers first, moving someone up with a reason, and the settings. Plain forms: no scripts needed.
 */
export function WaitingListPanel({ page, answer }: { page: Page; answer?: Answer }) {
  const settingsErrors = answer?.intent === "settings" ? answer.errors : {};
  return (
    <div className="space-y-6">
      <Card as="section" aria-labelledby="lines-title" className="space-y-5 p-5 sm:p-6">
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          <h2 id="lines-title" className="text-xl font-bold">
            Waiting lists
          </h2>
          <p className="font-semibold">
            {page.couldSell > 0
              ? `You could sell ${countOf(page.couldSell, "more place", "more places")}`
              : "Nobody is waiting"}
          </p>
        </div>
        <p className="text-muted">
          When a ticket type sells out, members can join its list. Places that come back (a refund, an unpaid order, a
          raised capacity) are offered to the first in line, held for them for {page.settings.offerHours} hours, then
          passed on. {page.running ? `The lists close at ${page.closesLabel}.` : "The lists are not running now."}
        </p>
        {page.lists.length === 0 ? <p>No one has joined a list for this event yet.</p> : null}
        {page.lists.map((list) => (
          <section key={list.id} aria-labelledby={`list-${list.id}`} className="space-y-2">
            <h3 id={`list-${list.id}`} className="text-lg font-bold">
              {list.name}{" "}
              <span className="text-base font-normal text-muted">
                · {countOf(list.waitingPlaces, "place", "places")} waited for
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
                      Places
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
