import { Form } from "react-router";
import { inputClass, SubmitButton } from "~/ui/form";
import { formatMoney } from "~/ui/money";

/** A ticket line of the order that has tickets a move could take. */
type MovableLine = { id: string; description: string; unitPrice: number; movable: number };

/** Where a booking can go: each upcoming event's ticket types. */
type MoveTarget = { id: string; title: string; when: string; types: { id: string; name: string; price: number }[] };

export type MoveErrors = { orderItemId: string; fields: Record<string, string> } | null;

/**
 * The order page's "Move tickets" (docs/transfers.md "Moves"): for each ticket line, how many of
 * its tickets, to which tickets of which event, and what happens to a difference in price. The
 * move happens when the form is sent; the buyer is emailed.
 */
export function MoveForms({
  lines,
  targets,
  currency,
  errors,
}: {
  lines: MovableLine[];
  targets: MoveTarget[];
  currency: string;
  errors: MoveErrors;
}) {
  if (lines.length === 0) return <p className="text-muted">This order has no tickets that can move.</p>;
  if (targets.length === 0) return <p className="text-muted">There is no upcoming event to move tickets to.</p>;
  return (
    <div className="space-y-6">
      {lines.map((line, index) => {
        const own = errors?.orderItemId === line.id ? errors.fields : {};
        const id = (field: string) => `move-${index}-${field}`;
        const error = (field: string) =>
          own[field] ? (
            <p id={`${id(field)}-error`} className="text-sm font-semibold text-red-700 dark:text-red-300">
              {own[field]}
            </p>
          ) : null;
        const described = (field: string) => (own[field] ? `${id(field)}-error` : undefined);
        return (
          <Form
            key={line.id}
            method="post"
            className="space-y-3 border-t border-line pt-5 first:border-t-0 first:pt-0"
            aria-labelledby={id("title")}
          >
            <input type="hidden" name="intent" value="move" />
            <input type="hidden" name="orderItemId" value={line.id} />
            <h3 id={id("title")} className="font-bold">
              {line.description}
            </h3>
            <p className="text-sm text-muted">
              {formatMoney(line.unitPrice, currency)} each · {line.movable} can move
            </p>
            <div className="space-y-1.5">
              <label htmlFor={id("quantity")} className="block font-semibold">
                Tickets to move
              </label>
              <input
                id={id("quantity")}
                name="quantity"
                type="number"
                inputMode="numeric"
                min={1}
                max={line.movable}
                defaultValue={line.movable}
                required
                aria-invalid={own.quantity ? true : undefined}
                aria-describedby={described("quantity")}
                className={`${inputClass(Boolean(own.quantity))} w-28`}
              />
              {error("quantity")}
            </div>
            <div className="space-y-1.5">
              <label htmlFor={id("to")} className="block font-semibold">
                Move them to
              </label>
              <select
                id={id("to")}
                name="toTicketTypeId"
                required
                defaultValue=""
                aria-invalid={own.toTicketTypeId ? true : undefined}
                aria-describedby={described("toTicketTypeId")}
                className={inputClass(Boolean(own.toTicketTypeId))}
              >
                <option value="" disabled>
                  Choose tickets
                </option>
                {targets.map((event) => (
                  <optgroup key={event.id} label={`${event.title} · ${event.when}`}>
                    {event.types.map((type) => (
                      <option key={type.id} value={type.id}>
                        {type.name} · {formatMoney(type.price, currency)}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
              {error("toTicketTypeId")}
            </div>
            <fieldset className="space-y-1.5">
              <legend className="font-semibold">If the new tickets cost less, the difference goes to</legend>
              <label className="flex items-center gap-2">
                <input type="radio" name="backTo" value="money" defaultChecked />
                The card it was paid with
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name="backTo" value="credit" />
                The buyer's account credit
              </label>
            </fieldset>
            <fieldset className="space-y-1.5">
              <legend className="font-semibold">If they cost more</legend>
              <label className="flex items-center gap-2">
                <input type="radio" name="extra" value="charge" defaultChecked />
                The buyer pays the difference (their account credit first)
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name="extra" value="waive" />
                Waive it
              </label>
            </fieldset>
            <div className="space-y-1.5">
              <label htmlFor={id("reason")} className="block font-semibold">
                Reason
              </label>
              <input
                id={id("reason")}
                name="reason"
                required
                maxLength={200}
                aria-invalid={own.reason ? true : undefined}
                aria-describedby={described("reason")}
                className={inputClass(Boolean(own.reason))}
              />
              {error("reason")}
            </div>
            <p className="text-sm text-muted">
              The old tickets stop working at once. The new ones, with new QR codes, are issued as soon as nothing is
              left to pay; the buyer is emailed.
            </p>
            <SubmitButton variant="secondary" intent="move" pendingLabel="Moving…">
              Move tickets
            </SubmitButton>
          </Form>
        );
      })}
    </div>
  );
}
