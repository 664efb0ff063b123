import { Form, Link } from "react-router";
import type { EventPageTicket } from "~/features/events/catalogue.server";
import { countOf } from "~/ui/plural";
import { ordinal } from "./waiting-list-rules";
import type { MemberListOnEvent } from "./waiting-lists.server";

/** "You are 2nd in line" or "Places are held for you", for a member on this ticket type's list. */
function InLine({ entry }: { entry: MemberListOnEvent }) {
  const places = countOf(entry.quantity, "place", "places");
  return (
    <div className="basis-full rounded-xl bg-surface-sunken p-3 text-sm sm:max-w-72 sm:text-right">
      {entry.offerEndsLabel ? (
        <p className="font-semibold">
          {places} held for you until {entry.offerEndsLabel}.{" "}
          <Link to="/members/events#waiting-lists" className="text-link underline">
            Buy them
          </Link>
        </p>
      ) : (
        <p>
          You are <span className="font-semibold">{ordinal(entry.position ?? 1)} in line</span> for {places}.{" "}
          <Link to="/members/events#waiting-lists" className="font-semibold text-link underline">
            Your lists
          </Link>
        </p>
      )}
    </div>
  );
}

/**
 * Joining a sold-out ticket type's waiting list: how many places and the button, as a plain POST
 * form (a visitor is asked to sign in first).
 */
function JoinWaitingList({
  ticket,
  problem,
}: {
  ticket: Pick<EventPageTicket, "id" | "name" | "maxPerOrder">;
  problem?: string;
}) {
  const errorId = `waiting-${ticket.id}-error`;
  const most = Math.min(ticket.maxPerOrder, 10);
  return (
    <Form method="post" className="flex flex-wrap items-center gap-2 sm:justify-end">
      <input type="hidden" name="ticketTypeId" value={ticket.id} />
      <label className="text-sm font-semibold text-muted">
        Places{" "}
        <select
          name="quantity"
          aria-describedby={problem ? errorId : undefined}
          className="h-11 rounded-lg border border-line bg-surface px-3 text-text"
        >
          {Array.from({ length: most }, (_, index) => index + 1).map((count) => (
            <option key={count}>{count}</option>
          ))}
        </select>
      </label>
      <button
        type="submit"
        name="intent"
        value="join-waiting-list"
        aria-label={`Join the waiting list: ${ticket.name}`}
        className="rounded-full border-2 border-text px-5 py-2.5 font-bold hover:bg-surface-sunken"
      >
        Join the waiting list
      </button>
      <p className="basis-full text-sm text-muted sm:text-right">We email you if places come back.</p>
      {problem ? (
        <p id={errorId} role="alert" className="basis-full text-sm font-semibold text-red-700 dark:text-red-400">
          {problem}
        </p>
      ) : null}
    </Form>
  );
}

/**
 * Under a ticket type on the event page: the member's place in line or the places held for them,
 * else a way to join the type's waiting list when it takes people.
 */
export function TicketWaitingList({
  ticket,
  entry,
  problem,
}: {
  ticket: Pick<EventPageTicket, "id" | "name" | "maxPerOrder" | "waitingList">;
  entry?: MemberListOnEvent;
  problem?: string;
}) {
  if (entry) return <InLine entry={entry} />;
  return ticket.waitingList ? <JoinWaitingList ticket={ticket} problem={problem} /> : null;
}
