import { CircleCheck, Clock, ShoppingCart } from "lucide-react";
import { Form } from "react-router";
import type { EventPageTicket, TicketState } from "./catalogue.server";
import { usePrice } from "./event-tile";

function Availability({ state }: { state: TicketState }) {
  switch (state.kind) {
    case "on_sale":
      return (
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm font-semibold text-emerald-800 dark:text-emerald-300">
          <CircleCheck aria-hidden className="size-4" />
          On sale
          {state.remaining !== null ? (
            <span className="tabular font-normal text-muted">· {state.remaining} left</span>
          ) : null}
          {state.fewLeft ? (
            <span className="rounded-full bg-accent px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-on-accent">
              Few left
            </span>
          ) : null}
        </p>
      );
    case "not_yet":
      return (
        <p className="flex items-center gap-2 text-sm font-semibold">
          <Clock aria-hidden className="size-4 text-accent-ink" />
          <span>
            On sale from <time dateTime={state.opensAt}>{state.opensLabel}</time>
          </span>
        </p>
      );
    case "sold_out":
      return <p className="text-sm font-bold">Sold out</p>;
    case "ended":
      return <p className="text-sm font-semibold text-muted">Sales ended</p>;
    case "cancelled":
      return <p className="text-sm font-semibold text-red-700 dark:text-red-400">Event cancelled</p>;
  }
}

/** "Sat 12 June, Sun 13 June and Mon 14 June". */
function listDays(days: string[]) {
  return days.length > 1 ? `${days.slice(0, -1).join(", ")} and ${days.at(-1)}` : (days[0] ?? "");
}

/** Past this many choices the quantity is typed rather than picked from a list. */
const MAX_SELECT_OPTIONS = 30;

/** Quantity and Add to cart for one ticket type on sale: a plain POST form to the event page. */
function AddToCart({ ticket, problem }: { ticket: EventPageTicket; problem: string | null }) {
  if (ticket.state.kind !== "on_sale") return null;
  const max = Math.max(1, Math.min(ticket.maxPerOrder, ticket.state.remaining ?? ticket.maxPerOrder));
  const quantityId = `quantity-${ticket.id}`;
  const problemId = `cart-problem-${ticket.id}`;
  const control = {
    id: quantityId,
    name: "quantity",
    defaultValue: "1",
    "aria-describedby": problem ? problemId : undefined,
    "aria-invalid": problem ? true : undefined,
    className:
      "h-11 rounded-lg border border-line bg-surface px-3 font-semibold tabular focus-visible:outline-2 focus-visible:outline-accent",
  };
  return (
    <Form method="post" preventScrollReset className="grid gap-2 sm:justify-items-end">
      <input type="hidden" name="ticketTypeId" value={ticket.id} />
      <div className="flex items-center gap-2">
        <label htmlFor={quantityId} className="text-sm font-semibold text-muted">
          Quantity
        </label>
        {max <= MAX_SELECT_OPTIONS ? (
          <select {...control}>
            {Array.from({ length: max }, (_, index) => index + 1).map((count) => (
              <option key={count} value={count}>
                {count}
              </option>
            ))}
          </select>
        ) : (
          <input
            {...control}
            type="number"
            inputMode="numeric"
            min={1}
            max={max}
            required
            className={`w-20 ${control.className}`}
          />
        )}
        <button
          type="submit"
          aria-label={`Add ${ticket.name} to cart`}
          className="inline-flex h-11 items-center gap-2 rounded-full bg-accent px-5 font-bold text-on-accent hover:bg-accent-strong focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
        >
          <ShoppingCart aria-hidden className="size-4" />
          Add to cart
        </button>
      </div>
      {problem ? (
        <p
          id={problemId}
          role="alert"
          className="max-w-xs text-sm font-semibold text-red-700 sm:text-right dark:text-red-400"
        >
          {problem}
        </p>
      ) : null}
    </Form>
  );
}

/**
 * The seed's Tickets part: every ticket type a visitor may buy, its price, the days a pass
 * covers, whether it can be had now and, when it can, a quantity and Add to cart.
 */
export function TicketList({
  tickets,
  problem = null,
}: {
  tickets: EventPageTicket[];
  /** A refused Add to cart: shown by its ticket type, or above the list if it names none of them. */
  problem?: { ticketTypeId: string | null; message: string } | null;
}) {
  const price = usePrice();
  if (tickets.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-line bg-surface-raised p-6 text-muted">
        Tickets have not been announced yet. Add the event to your calendar and check back soon.
      </p>
    );
  }
  const general = problem && !tickets.some((ticket) => ticket.id === problem.ticketTypeId) ? problem.message : null;
  return (
    <>
      {general ? (
        <p
          role="alert"
          className="rounded-xl border border-red-700/40 bg-red-50 p-4 font-semibold text-red-800 dark:bg-red-950/40 dark:text-red-300"
        >
          {general}
        </p>
      ) : null}
      <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface-raised">
        {tickets.map((ticket) => {
          const unavailable = ticket.state.kind !== "on_sale" && ticket.state.kind !== "not_yet";
          return (
            <li key={ticket.id} className="grid gap-4 p-5 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center sm:p-6">
              <div className="min-w-0 space-y-1.5">
                <h3 className="text-lg font-bold">{ticket.name}</h3>
                {ticket.description ? <p className="text-muted">{ticket.description}</p> : null}
                {ticket.days.length > 0 ? (
                  <p className="text-sm">
                    <span className="font-semibold">{ticket.days.length > 1 ? "Covers " : "Admits on "}</span>
                    {listDays(ticket.days)}
                  </p>
                ) : null}
                <Availability state={ticket.state} />
              </div>
              <div className="grid gap-3 sm:min-w-40 sm:justify-items-end">
                <p className={`wide tabular text-2xl font-black ${unavailable ? "text-muted" : ""}`}>
                  <span className="sr-only">Price: </span>
                  {price(ticket.price)}
                </p>
                <AddToCart ticket={ticket} problem={problem?.ticketTypeId === ticket.id ? problem.message : null} />
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}
