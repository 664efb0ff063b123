import { CircleCheck, Clock } from "lucide-react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Badge } from "~/ui/badge";
import { Card } from "~/ui/card";
import type { EventPageTicket as CatalogueTicket, TicketState } from "./catalogue.server";
import { usePrice } from "./price";

/** A ticket type as the event page shows it, with the quantities Add to cart offers (none when not on sale). */
export type EventPageTicket = CatalogueTicket & { quantities: number[] };

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
          {state.fewLeft ? <Badge tone="accent">Few left</Badge> : null}
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
 * Quantity and Add to cart for one ticket type on sale: a plain POST form to the event page,
 * so it works before (or without) JavaScript. The button carries the ticket type. Kept small:
 * this page is at the edge of its script budget.
 */
function AddToCart({ ticket, problem }: { ticket: EventPageTicket; problem?: string }) {
  return (
    <Form method="post" className="flex flex-wrap items-center gap-2 sm:justify-end">
      <label className="text-sm font-semibold text-muted">
        Quantity{" "}
        <select name="quantity" className="h-11 rounded-lg border border-line bg-surface px-3 text-text">
          {ticket.quantities.map((count) => (
            <option key={count}>{count}</option>
          ))}
        </select>
      </label>
      <button
        type="submit"
        name="ticketTypeId"
        value={ticket.id}
        aria-label={`Add to cart: ${ticket.name}`}
        className="rounded-full bg-accent px-6 py-3 font-bold text-on-accent hover:bg-accent-strong"
      >
        Add to cart
      </button>
      {problem ? (
        <p role="alert" className="basis-full text-sm font-semibold text-red-700 dark:text-red-400">
          {problem}
        </p>
      ) : null}
    </Form>
  );
}

/** What membership changes for this ticket: the price a member pays, or a presale they are in. */
function MemberOffer({ ticket, price }: { ticket: EventPageTicket; price: (minor: number) => string }) {
  if (ticket.memberPriced) {
    return <p className="text-sm font-semibold text-emerald-800 dark:text-emerald-300">Member price</p>;
  }
  if (ticket.memberPrice === null && !(ticket.presale && ticket.state.kind === "not_yet")) return null;
  const offers = [
    ticket.presale && ticket.state.kind === "not_yet" ? "Members can buy now, in the members' presale." : null,
    ticket.memberPrice !== null ? `Members pay ${price(ticket.memberPrice)}.` : null,
  ].filter(Boolean);
  return (
    <p className="text-sm">
      {offers.join(" ")}{" "}
      <Link to="/membership" className="font-semibold text-link underline">
        Join the club
      </Link>
    </p>
  );
}

/**
 * The event page's tickets: every ticket type a visitor may buy, its price, the days a pass covers,
 * whether it can be had now and, when it can, a quantity and Add to cart.
 */
export function TicketList({
  tickets,
  problems,
  waitingList,
  membersOnlyHidden = false,
}: {
  tickets: EventPageTicket[];
  /** What a ticket type's waiting list shows under it: a way to join, or the member's place. */
  waitingList?: (ticket: EventPageTicket) => ReactNode;
  /** Some tickets are for club members only, and the buyer is not one. */
  membersOnlyHidden?: boolean;
  /** A refused Add to cart's message, by the ticket type it is about. */
  problems?: Record<string, string>;
}) {
  const price = usePrice();
  const membersNote = membersOnlyHidden ? (
    <p className="rounded-2xl bg-surface-sunken p-5">
      {tickets.length === 0
        ? "Tickets for this event are for club members only."
        : "More tickets are for club members."}{" "}
      <Link to="/membership" className="font-semibold text-link underline">
        Join the club
      </Link>{" "}
      or sign in as a member to buy them.
    </p>
  ) : null;
  if (tickets.length === 0 && membersNote) return membersNote;
  if (tickets.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-line bg-surface-raised p-6 text-muted">
        Tickets have not been announced yet. Add the event to your calendar and check back soon.
      </p>
    );
  }
  return (
    <div className="space-y-4">
      <Card as="ul" variant="list" className="overflow-hidden">
        {tickets.map((ticket) => {
          const unavailable = ticket.state.kind !== "on_sale" && ticket.state.kind !== "not_yet";
          return (
            <li key={ticket.id} className="grid gap-4 p-5 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center sm:p-6">
              <div className="min-w-0 space-y-1.5">
                <h3 className="flex flex-wrap items-center gap-2 text-lg font-bold">
                  {ticket.name}
                  {ticket.membersOnly ? <Badge tone="accent">Members only</Badge> : null}
                </h3>
                {ticket.description ? <p className="text-muted">{ticket.description}</p> : null}
                {ticket.days.length > 0 ? (
                  <p className="text-sm">
                    <span className="font-semibold">{ticket.days.length > 1 ? "Covers " : "Admits on "}</span>
                    {listDays(ticket.days)}
                  </p>
                ) : null}
                <Availability state={ticket.state} />
                <MemberOffer ticket={ticket} price={price} />
              </div>
              <div className="grid gap-3 sm:min-w-40 sm:justify-items-end">
                <p className={`wide tabular text-2xl font-black ${unavailable ? "text-muted" : ""}`}>
                  <span className="sr-only">Price: </span>
                  {price(ticket.price)}
                </p>
                {ticket.quantities.length > 0 ? <AddToCart ticket={ticket} problem={problems?.[ticket.id]} /> : null}
                {waitingList?.(ticket)}
              </div>
            </li>
          );
        })}
      </Card>
      {membersNote}
    </div>
  );
}
