import { Form } from "react-router";
import { inputClass, SubmitButton } from "~/ui/form";
import { formatMoney } from "~/ui/money";
import type { PassingOn } from "./transfers.server";

/** A problem with one ticket's passing-on forms, shown beside them. */
export type PassingOnProblem = { ticketId: string; message: string; fields?: Record<string, string> };

/**
 * Under one of the member's tickets: a transfer waiting for its recipient or a ticket back on
 * sale, with the way to undo it; else "Pass this ticket on", closed until opened, with the two
 * ways: send it to someone, or hand it back for resale at face value.
 */
export function PassingOnPanel({
  ticketId,
  state,
  currency,
  problem,
}: {
  ticketId: string;
  state: PassingOn;
  currency: string;
  problem?: PassingOnProblem;
}) {
  const mine = problem?.ticketId === ticketId ? problem : undefined;
  const alert = mine && !mine.fields ? mine.message : null;
  const errorId = `passing-on-${ticketId}-error`;
  const shown = alert ? (
    <p id={errorId} role="alert" className="text-sm font-semibold text-red-700 dark:text-red-400">
      {alert}
    </p>
  ) : null;

  if (state.transferredTo) {
    return <p className="text-sm">Transferred to {state.transferredTo}. This ticket no longer admits anyone.</p>;
  }
  if (state.handBack?.status === "sold") {
    return (
      <p className="text-sm">
        Someone bought this place. {refundWords(state.handBack.refund, currency)} This ticket no longer admits anyone.
      </p>
    );
  }
  if (state.pending) {
    return (
      <Form method="post" className="space-y-2">
        <p className="text-sm">
          Sent to <strong>{state.pending.toName}</strong> ({state.pending.toEmail}). It stays yours and valid until they
          accept it.
        </p>
        <input type="hidden" name="transferId" value={state.pending.id} />
        <SubmitButton variant="secondary" fit intent="cancel-transfer" name="intent" value="cancel-transfer">
          Cancel the transfer
        </SubmitButton>
        {shown}
      </Form>
    );
  }
  if (state.handBack?.status === "listed") {
    return (
      <Form method="post" className="space-y-2">
        <p className="text-sm">
          Back on sale, to the waiting list first. It stays yours and valid until someone buys it; then{" "}
          {refundWords(state.handBack.refund, currency).toLowerCase()}
        </p>
        <input type="hidden" name="ticketId" value={ticketId} />
        <SubmitButton variant="secondary" fit name="intent" value="withdraw-hand-back">
          Take it off sale
        </SubmitButton>
        {shown}
      </Form>
    );
  }
  if (state.transferRefusal && state.handBackRefusal) return null;

  const fields = mine?.fields ?? {};
  const field = (name: "toName" | "toEmail", label: string, type: string, autoComplete: string) => {
    const id = `${name}-${ticketId}`;
    const fieldError = fields[name];
    return (
      <div className="space-y-1">
        <label htmlFor={id} className="block text-sm font-semibold">
          {label}
        </label>
        <input
          id={id}
          name={name}
          type={type}
          autoComplete={autoComplete}
          required
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? `${id}-error` : undefined}
          className={inputClass(Boolean(fieldError))}
        />
        {fieldError ? (
          <p id={`${id}-error`} className="text-sm font-semibold text-red-700 dark:text-red-400">
            {fieldError}
          </p>
        ) : null}
      </div>
    );
  };
  return (
    <details className="group rounded-xl border border-line p-4" open={Boolean(mine)}>
      <summary className="cursor-pointer font-semibold">Can’t go? Pass this ticket on</summary>
      <div className="mt-4 grid gap-6 sm:grid-cols-2">
        {state.transferRefusal ? null : (
          <Form method="post" noValidate className="space-y-3" aria-label="Send this ticket to someone">
            <h4 className="font-bold">Send it to someone</h4>
            <input type="hidden" name="ticketId" value={ticketId} />
            {field("toName", "Their name", "text", "off")}
            {field("toEmail", "Their email address", "email", "off")}
            <SubmitButton fit name="intent" value="send-transfer">
              Send this ticket
            </SubmitButton>
            <p className="text-xs text-muted">
              They accept it by the link we email them, until {state.closesAt}. Then it is theirs with a new QR code,
              and this one stops working.
            </p>
          </Form>
        )}
        {state.handBackRefusal ? null : (
          <Form method="post" className="space-y-3" aria-label="Hand this ticket back">
            <h4 className="font-bold">Hand it back</h4>
            <p className="text-sm">
              We put it back on sale at face value, to the waiting list first. It stays yours until someone buys it, and
              you are refunded only then. Nobody can sell it for more.
            </p>
            <input type="hidden" name="ticketId" value={ticketId} />
            <SubmitButton variant="secondary" fit name="intent" value="hand-back">
              Hand it back
            </SubmitButton>
          </Form>
        )}
      </div>
      <p className="mt-4 text-xs text-muted">Prize-draw entries and memberships cannot be transferred.</p>
      {shown}
    </details>
  );
}

function refundWords(refund: number, currency: string) {
  return refund > 0
    ? `You are refunded ${formatMoney(refund, currency)}.`
    : "Nothing was paid for it, so there is no refund.";
}
