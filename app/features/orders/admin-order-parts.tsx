import type { ReactNode } from "react";
import { Form } from "react-router";
import { DEFAULT_CREDIT_MONTHS } from "~/features/credit/credit-rules";
import { Card } from "~/ui/card";
import { inputClass, SubmitButton } from "~/ui/form";
import { formatMoney } from "~/ui/money";
import { countOf, plural } from "~/ui/plural";

const TICKET_LABELS = {
  valid: "Valid",
  checked_in: "Checked in",
  cancelled: "Cancelled",
  refunded: "Refunded",
  transferred: "Transferred",
};
export function TicketStatus({ status }: { status: keyof typeof TICKET_LABELS }) {
  const tone =
    status === "valid"
      ? "bg-surface-sunken ring-1 ring-line"
      : status === "checked_in"
        ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
        : "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100";
  return <span className={`rounded-full px-2 py-0.5 text-xs font-bold ${tone}`}>{TICKET_LABELS[status]}</span>;
}

export function Panel({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <Card as="section" aria-labelledby={id} className="p-5">
      <h2 id={id} className="wide text-lg font-extrabold">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </Card>
  );
}

function ReasonField({ id, error, defaultValue }: { id: string; error?: string; defaultValue?: string }) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block font-semibold">
        Reason
      </label>
      <input
        id={id}
        name="reason"
        required
        minLength={3}
        maxLength={300}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass(Boolean(error))}
      />
      {error ? (
        <p id={`${id}-error`} className="text-sm font-semibold text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export type RefundErrors = { key: string; reason?: string; quantity?: string } | null;

/** Step one of a refund: what to refund and why. Nothing happens until it is confirmed. */
export function RefundForms({
  items,
  refundedBefore,
  currency,
  errors,
}: {
  items: { id: string; description: string; unitPrice: number; refundable: number; variantId?: string | null }[];
  refundedBefore: number;
  currency: string;
  errors: RefundErrors;
}) {
  const refundable = items.reduce((sum, item) => sum + item.refundable, 0);
  if (refundable === 0) return <p className="text-muted">Nothing on this order can be refunded now.</p>;
  const errorFor = (key: string) => (errors?.key === key ? errors : null);
  return (
    <div className="space-y-6">
      <Form method="post" className="space-y-3">
        <input type="hidden" name="intent" value="review" />
        <input type="hidden" name="scope" value="order" />
        <input type="hidden" name="refundedBefore" value={refundedBefore} />
        <h3 className="font-bold">Whole order</h3>
        <p className="text-sm text-muted">
          Everything still refundable ({refundable}). Tickets already checked in are never refunded.
        </p>
        <ReasonField id="refund-order-reason" error={errorFor("order")?.reason} />
        <SubmitButton variant="secondary" intent="review">
          Review refund of the whole order
        </SubmitButton>
      </Form>
      {items
        .filter((item) => item.refundable > 0)
        .map((item) => {
          const error = errorFor(item.id);
          return (
            <Form key={item.id} method="post" className="space-y-3 border-t border-line pt-5">
              <input type="hidden" name="intent" value="review" />
              <input type="hidden" name="scope" value="item" />
              <input type="hidden" name="orderItemId" value={item.id} />
              <input type="hidden" name="refundedBefore" value={refundedBefore} />
              <h3 className="font-bold">{item.description}</h3>
              <p className="text-sm text-muted">
                {formatMoney(item.unitPrice, currency)} each · {item.refundable} can be refunded
              </p>
              <div className="space-y-1.5">
                <label htmlFor={`quantity-${item.id}`} className="block font-semibold">
                  {item.variantId ? "Items to refund" : "Tickets to refund"}
                </label>
                <input
                  id={`quantity-${item.id}`}
                  name="quantity"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={item.refundable}
                  defaultValue={1}
                  required
                  aria-invalid={error?.quantity ? true : undefined}
                  className={`${inputClass(Boolean(error?.quantity))} w-28`}
                />
                {error?.quantity ? (
                  <p className="text-sm font-semibold text-red-700 dark:text-red-300">{error.quantity}</p>
                ) : null}
              </div>
              <ReasonField id={`reason-${item.id}`} error={error?.reason} />
              <SubmitButton variant="secondary" intent="review">
                Review refund
              </SubmitButton>
            </Form>
          );
        })}
    </div>
  );
}

export type RefundReview = {
  scope: "order" | "item";
  orderItemId?: string;
  quantity?: number;
  reason: string;
  refundedBefore: number;
  summary: string;
  amount: number;
};

/** How long a refund to account credit keeps: the choices offered, in months (0: always). */
const CREDIT_MONTH_CHOICES = [3, 6, 12, 24, 0];

/** Step two: exactly what will happen, and the one button that does it. */
export function RefundConfirmation({
  review,
  currency,
  canCredit,
}: {
  review: RefundReview;
  currency: string;
  /** The buyer still has an account, so the refund may go to their account credit. */
  canCredit: boolean;
}) {
  return (
    <div
      role="alert"
      className="space-y-4 rounded-2xl border-2 border-red-700/60 bg-red-50 p-5 text-red-950 dark:bg-red-950 dark:text-red-50"
    >
      <p className="wide text-lg font-extrabold">Refund {formatMoney(review.amount, currency)}?</p>
      <p>{review.summary}</p>
      <p className="text-sm">Reason: {review.reason}</p>
      <p className="text-sm">
        The tickets stop working at once, their places go back on sale, and the buyer is emailed.
      </p>
      <Form method="post" className="flex flex-wrap gap-3">
        <input type="hidden" name="intent" value="refund" />
        <input type="hidden" name="scope" value={review.scope} />
        {review.orderItemId ? <input type="hidden" name="orderItemId" value={review.orderItemId} /> : null}
        {review.quantity ? <input type="hidden" name="quantity" value={review.quantity} /> : null}
        <input type="hidden" name="reason" value={review.reason} />
        <input type="hidden" name="refundedBefore" value={review.refundedBefore} />
        {canCredit ? (
          <fieldset className="basis-full space-y-2">
            <legend className="font-semibold">Refund to</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name="to" value="money" defaultChecked />
              The card it was paid with
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="to" value="credit" />
              The buyer's account credit
            </label>
            <label htmlFor="credit-months" className="block text-sm">
              Account credit keeps for
            </label>
            <select
              id="credit-months"
              name="creditMonths"
              defaultValue={DEFAULT_CREDIT_MONTHS}
              className={`${inputClass(false)} w-48`}
            >
              {CREDIT_MONTH_CHOICES.map((months) => (
                <option key={months} value={months}>
                  {months === 0 ? "Always" : countOf(months, "month", "months")}
                </option>
              ))}
            </select>
            <p className="text-sm">Account credit the order spent always goes back to credit first.</p>
          </fieldset>
        ) : null}
        <SubmitButton variant="danger" intent="refund" pendingLabel="Refunding…" fit>
          Confirm refund
        </SubmitButton>
        <a
          href="?"
          className="inline-flex items-center rounded-full px-6 py-3 font-bold hover:bg-red-100 dark:hover:bg-red-900"
        >
          Keep the order
        </a>
      </Form>
    </div>
  );
}

/** On a cancelled event: refund everyone still holding a ticket, in one press (admins only). */
export function RefundHoldersCard({ holders, canRefund }: { holders: number; canRefund: boolean }) {
  return (
    <section aria-label="Refunds" className="space-y-3 rounded-2xl border border-red-700/30 bg-surface p-5">
      <h2 className="wide text-base font-extrabold">Refunds</h2>
      {holders === 0 ? (
        <p className="text-sm text-muted">No ticket holders are waiting for a refund.</p>
      ) : canRefund ? (
        <Form method="post" className="space-y-3">
          <p className="text-sm">
            {countOf(holders, "order", "orders")} still {plural(holders, "holds", "hold")} valid tickets. Each buyer
            gets their money back for this event's tickets and an email.
          </p>
          <SubmitButton name="intent" value="refund-holders" variant="danger" pendingLabel="Refunding…">
            {holders === 1 ? "Refund the ticket holder" : `Refund all ${holders} ticket holders`}
          </SubmitButton>
        </Form>
      ) : (
        <p className="text-sm text-muted">
          {countOf(holders, "order", "orders")} still {plural(holders, "holds", "hold")} valid tickets. An admin can
          refund them all from this page.
        </p>
      )}
    </section>
  );
}
