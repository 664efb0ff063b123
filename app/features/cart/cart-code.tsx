import { KeyRound, TicketPlus, X } from "lucide-react";
import { Form } from "react-router";
import type { UnlockedTicket } from "~/features/tickets/ticket-cart.server";
import { Card } from "~/ui/card";
import { inputClass } from "~/ui/form";
import { formatMoney } from "~/ui/money";
import type { CartPageVoucher } from "./cart-page.server";

/** What a refused code's message is shown beside, among the cart's messages: the code field. */
export const CODE_FIELD = "code";

const button =
  "inline-flex h-11 shrink-0 items-center gap-2 rounded-full border border-line px-4 text-sm font-bold hover:bg-surface-sunken focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent";

/**
 * The cart's discount code: a field to enter one, or the one entered with what it takes off (or
 * why it cannot be used now) and a way to take it out. Plain forms, so it works without
 * JavaScript; `problem` is the last refused entry's message.
 */
export function CartCode({
  voucher,
  currency,
  problem,
}: {
  voucher: CartPageVoucher | null;
  currency: string;
  problem: string | null;
}) {
  return (
    <section aria-labelledby="cart-code" className="space-y-3">
      <h2 id="cart-code" className="wide text-xl font-extrabold">
        Discount code
      </h2>
      {voucher ? (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-line bg-surface-raised p-4">
          <div className="space-y-1">
            <p className="flex items-center gap-2 font-bold">
              <KeyRound aria-hidden className="size-4 text-accent-ink" />
              <span className="font-mono tracking-wide">{voucher.code}</span>
            </p>
            {voucher.problem ? (
              <p id="cart-code-problem" className="text-sm font-medium text-red-700 dark:text-red-300">
                {voucher.problem}
              </p>
            ) : voucher.discount > 0 ? (
              <p className="text-sm text-muted">Takes {formatMoney(voucher.discount, currency)} off this order.</p>
            ) : voucher.keepsPlaces ? (
              <p className="text-sm text-muted">Keeps your places for you while you pay.</p>
            ) : (
              <p className="text-sm text-muted">Add what the code is for to your cart to use it.</p>
            )}
          </div>
          <Form method="post">
            <button type="submit" name="intent" value="remove-code" className={button}>
              <X aria-hidden className="size-4" />
              Remove code
            </button>
          </Form>
        </div>
      ) : (
        <Form method="post" className="flex flex-wrap items-end gap-3">
          <div className="min-w-0 flex-1 space-y-1">
            <label htmlFor="cart-code-input" className="text-sm font-semibold">
              Voucher or discount code
            </label>
            <input
              id="cart-code-input"
              name="code"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={64}
              required
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? "cart-code-error" : undefined}
              className={`${inputClass(Boolean(problem))} font-mono uppercase`}
            />
          </div>
          <button type="submit" name="intent" value="apply-code" className={button}>
            Apply
          </button>
          {problem ? (
            <p id="cart-code-error" className="w-full text-sm font-medium text-red-700 dark:text-red-300">
              {problem}
            </p>
          ) : null}
        </Form>
      )}
    </section>
  );
}

/** Hidden ticket types the cart's code lets the buyer add, each with its own Add button. */
export function UnlockedTickets({ tickets, currency }: { tickets: UnlockedTicket[]; currency: string }) {
  if (tickets.length === 0) return null;
  return (
    <Card className="space-y-3 p-5">
      <h2 className="wide text-xl font-extrabold">Your code unlocks</h2>
      <ul className="divide-y divide-line">
        {tickets.map((ticket) => (
          <li key={ticket.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div>
              <p className="font-bold">{ticket.name}</p>
              <p className="text-sm text-muted">
                {ticket.eventTitle} · <span className="tabular">{formatMoney(ticket.price, currency)}</span>
              </p>
            </div>
            <Form method="post">
              <input type="hidden" name="ticketTypeId" value={ticket.id} />
              <button
                type="submit"
                name="intent"
                value="add-unlocked"
                aria-label={`Add to cart: ${ticket.name}, ${ticket.eventTitle}`}
                className={button}
              >
                <TicketPlus aria-hidden className="size-4" />
                Add to cart
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </Card>
  );
}
