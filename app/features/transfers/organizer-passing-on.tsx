import { Form } from "react-router";
import { Card } from "~/ui/card";
import { inputClass } from "~/ui/form";
import { moneyInputValue } from "~/ui/money";
import type { passingOnPage } from "./transfers.server";

type Page = NonNullable<Awaited<ReturnType<typeof passingOnPage>>>;
type Errors = Record<string, string[] | null | undefined>;

const TRANSFER_CHOICES = [
  { value: "unlimited", label: "Allowed", hint: "A ticket may be passed on any number of times." },
  { value: "once", label: "Once per ticket", hint: "Whoever accepts a ticket keeps it." },
  { value: "off", label: "Not allowed", hint: "Tickets stay with their buyers." },
] as const;

const TRANSFER_WORDS = { pending: "Waiting", accepted: "Accepted", cancelled: "Cancelled", lapsed: "Ran out" };
const HAND_BACK_WORDS = { listed: "On sale", sold: "Resold, refunded", withdrawn: "Taken off sale" };

function FieldError({ id, messages }: { id: string; messages?: string[] | null }) {
  if (!messages?.length) return null;
  return (
    <p id={id} className="text-sm font-semibold text-red-700 dark:text-red-400">
      {messages[0]}
    </p>
  );
}

/**
 * The organizer's transfers and resale for one event: the settings, then the transfers and the
 * tickets handed back. Plain forms: no scripts needed.
 */
export function OrganizerPassingOn({ page, errors = {} }: { page: Page; errors?: Errors }) {
  return (
    <div className="space-y-6">
      <Card as="section" aria-labelledby="passing-on-settings" className="space-y-5 p-5 sm:p-6">
        <h2 id="passing-on-settings" className="text-xl font-bold">
          Transfers and resale
        </h2>
        <p className="text-muted">
          Holders who cannot come can send their ticket to someone, or hand it back to be resold at face value, to the
          waiting list first. Both close at {page.closesLabel}. Prize-draw entries and memberships are never
          transferable.
        </p>
        <Form method="post" className="space-y-5">
          <fieldset className="space-y-2" aria-describedby={errors.transfers?.length ? "transfers-error" : undefined}>
            <legend className="font-semibold">Sending tickets to someone else</legend>
            {TRANSFER_CHOICES.map((choice) => (
              <label key={choice.value} className="flex items-start gap-3">
                <input
                  type="radio"
                  name="transfers"
                  value={choice.value}
                  defaultChecked={page.settings.transfers === choice.value}
                  className="mt-1 size-5"
                />
                <span>
                  <span className="font-semibold">{choice.label}</span>
                  <span className="block text-sm text-muted">{choice.hint}</span>
                </span>
              </label>
            ))}
            <FieldError id="transfers-error" messages={errors.transfers} />
          </fieldset>
          <div className="space-y-1">
            <label htmlFor="closesHours" className="block font-semibold">
              Close transfers and resale this many hours before the start
            </label>
            <input
              id="closesHours"
              name="closesHours"
              type="number"
              inputMode="numeric"
              min={0}
              required
              defaultValue={page.settings.closesHours}
              aria-invalid={errors.closesHours?.length ? true : undefined}
              aria-describedby={errors.closesHours?.length ? "closesHours-error" : undefined}
              className={`${inputClass(Boolean(errors.closesHours?.length))} max-w-40`}
            />
            <FieldError id="closesHours-error" messages={errors.closesHours} />
          </div>
          <label className="flex items-center gap-3 font-semibold">
            <input
              type="checkbox"
              name="handBackEnabled"
              defaultChecked={page.settings.handBackEnabled}
              className="size-5"
            />
            Let holders hand tickets back for resale
          </label>
          <div className="space-y-1">
            <label htmlFor="handBackFee" className="block font-semibold">
              Resale fee kept from each refund
            </label>
            <p id="handBackFee-hint" className="text-sm text-muted">
              Taken only when someone buys the place; never more than the ticket cost.
            </p>
            <input
              id="handBackFee"
              name="handBackFee"
              inputMode="decimal"
              required
              defaultValue={moneyInputValue(page.settings.handBackFee)}
              aria-invalid={errors.handBackFee?.length ? true : undefined}
              aria-describedby={errors.handBackFee?.length ? "handBackFee-hint handBackFee-error" : "handBackFee-hint"}
              className={`${inputClass(Boolean(errors.handBackFee?.length))} max-w-40`}
            />
            <FieldError id="handBackFee-error" messages={errors.handBackFee} />
          </div>
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
      <Card as="section" aria-labelledby="transfers-title" className="space-y-4 p-5 sm:p-6">
        <h2 id="transfers-title" className="text-xl font-bold">
          Transfers
        </h2>
        {page.transfers.length === 0 ? (
          <p className="text-muted">No tickets for this event were sent on yet.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead>
                <tr className="border-b border-line">
                  <th className="py-2 pr-4">Sent</th>
                  <th className="py-2 pr-4">Ticket</th>
                  <th className="py-2 pr-4">From</th>
                  <th className="py-2 pr-4">To</th>
                  <th className="py-2">State</th>
                </tr>
              </thead>
              <tbody>
                {page.transfers.map((transfer) => (
                  <tr key={transfer.id} className="border-b border-line">
                    <td className="py-2 pr-4">{transfer.sentAt}</td>
                    <td className="py-2 pr-4">{transfer.ticketTypeName}</td>
                    <td className="py-2 pr-4">{transfer.from}</td>
                    <td className="py-2 pr-4">
                      {transfer.toName} <span className="text-muted">({transfer.toEmail})</span>
                    </td>
                    <td className="py-2">{TRANSFER_WORDS[transfer.status]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <Card as="section" aria-labelledby="hand-backs-title" className="space-y-4 p-5 sm:p-6">
        <h2 id="hand-backs-title" className="text-xl font-bold">
          Handed back
        </h2>
        {page.handBacks.length === 0 ? (
          <p className="text-muted">No tickets for this event were handed back yet.</p>
        ) : (
          <ul className="divide-y divide-line">
            {page.handBacks.map((handBack) => (
              <li key={handBack.id} className="flex flex-wrap justify-between gap-2 py-2 text-sm">
                <span>
                  {handBack.holder} · {handBack.ticketTypeName} · {handBack.listedAt}
                </span>
                <span className="font-semibold">{HAND_BACK_WORDS[handBack.status]}</span>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
