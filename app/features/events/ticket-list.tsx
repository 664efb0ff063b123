import { CircleCheck, Clock } from "lucide-react";
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

/**
 * The seed's Tickets part: every ticket type a visitor may buy, its price, the days a pass
 * covers and whether it can be had now. Each row keeps its right-hand column for the quantity
 * picker and Add to cart that come with the cart.
 */
export function TicketList({ tickets }: { tickets: EventPageTicket[] }) {
  const price = usePrice();
  if (tickets.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-line bg-surface-raised p-6 text-muted">
        Tickets have not been announced yet. Add the event to your calendar and check back soon.
      </p>
    );
  }
  return (
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
            <div className="flex items-center justify-between gap-4 sm:min-w-40 sm:justify-end">
              <p className={`wide tabular text-2xl font-black ${unavailable ? "text-muted" : ""}`}>
                <span className="sr-only">Price: </span>
                {price(ticket.price)}
              </p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
