import { CalendarDays, MapPin, UserRound } from "lucide-react";
import type { ReactNode } from "react";
import type { TicketView } from "~/features/orders/order-views.server";
import { QrStub } from "~/features/tickets/qr-stub";

export type TicketWithQr = TicketView & { qrSvg: string | null };

const STATUS_STYLES: Record<TicketView["status"], string> = {
  valid: "bg-emerald-700 text-white",
  checked_in: "bg-asphalt-700 text-white",
  refunded: "bg-asphalt-100 text-asphalt-900",
  cancelled: "bg-asphalt-100 text-asphalt-900",
  transferred: "bg-asphalt-100 text-asphalt-900",
};

/**
 * An e-ticket as the buyer keeps it: a stub with the event, the pass and the attendee, and the
 * QR on white with the typable code under it, so staff can scan it or key it in. The QR markup
 * is drawn on the server by the QR library from our own signed code, never from a person's text.
 * `children` go under the ticket's details (the member's page puts passing it on there).
 */
export function TicketCard({
  ticket,
  showEvent = true,
  children,
}: {
  ticket: TicketWithQr;
  showEvent?: boolean;
  children?: ReactNode;
}) {
  // A refunded or cancelled ticket is drawn flat with a dashed edge (not faded, which would take
  // its text below contrast); its status badge says why it no longer admits.
  const void_ = ticket.status === "refunded" || ticket.status === "cancelled" || ticket.status === "transferred";
  return (
    <article
      aria-label={`${ticket.ticketTypeName} for ${ticket.event.title}`}
      className={`break-inside-avoid overflow-hidden rounded-2xl border border-line sm:grid sm:grid-cols-[1fr_auto] ${void_ ? "border-dashed bg-surface" : "bg-surface-raised shadow-sm"}`}
    >
      <div className="flex min-w-0 flex-col gap-3 p-5">
        <div className="flex flex-wrap items-center gap-2">
          <p className="text-xs font-bold uppercase tracking-[0.14em] text-accent-ink">{ticket.ticketTypeName}</p>
          <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_STYLES[ticket.status]}`}>
            {ticket.statusLabel}
          </span>
        </div>
        {showEvent ? <h3 className="wide text-xl font-extrabold leading-tight">{ticket.event.title}</h3> : null}
        <ul className="space-y-1.5 text-sm">
          <li className="flex gap-2">
            <CalendarDays aria-hidden className="mt-0.5 size-4 shrink-0 text-muted" />
            <span>
              {ticket.event.dates} · {ticket.event.times} {ticket.event.zone}
              {ticket.validDays.length > 0 ? (
                <span className="block font-semibold">Admits on {ticket.validDays.join(" and ")}</span>
              ) : null}
            </span>
          </li>
          <li className="flex gap-2">
            <MapPin aria-hidden className="mt-0.5 size-4 shrink-0 text-muted" />
            <span>
              {ticket.event.venue}, {ticket.event.town}
            </span>
          </li>
          {ticket.attendeeName ? (
            <li className="flex gap-2">
              <UserRound aria-hidden className="mt-0.5 size-4 shrink-0 text-muted" />
              <span>
                <span className="sr-only">Attendee: </span>
                <strong>{ticket.attendeeName}</strong>
              </span>
            </li>
          ) : null}
        </ul>
        <p className="mt-auto text-xs text-muted tabular">Order {ticket.orderNumber}</p>
        {children}
      </div>
      {ticket.qrSvg ? <QrStub svg={ticket.qrSvg} code={ticket.shortCode} what="ticket" codeName="Ticket code" /> : null}
    </article>
  );
}
