import { Ticket } from "lucide-react";
import { Link } from "react-router";
import type { EventTickets } from "~/features/orders/order-views.server";
import { ticketsForMember } from "~/features/orders/order-views.server";
import { withQrSvgs } from "~/features/tickets/qr.server";
import { TicketCard, type TicketWithQr } from "~/features/tickets/ticket-card";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import type { Route } from "./+types/events";

/**
 * "My tickets": upcoming events with each ticket's QR code, and
 * past ones for the record, without codes. Show-car applications join this page when they exist.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { db, env } = context.get(runtimeContext);
  const { upcoming, past } = await ticketsForMember(db, { userId: user.id, now: new Date(), secret: env.AUTH_SECRET });
  const withCodes = (groups: EventTickets[]) =>
    Promise.all(groups.map(async (group) => ({ ...group, tickets: await withQrSvgs(group.tickets) })));
  return { upcoming: await withCodes(upcoming), past: await withCodes(past) };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function MyTickets({ loaderData }: Route.ComponentProps) {
  const { upcoming, past } = loaderData;
  return (
    <div className="space-y-10" data-print-page>
      <header>
        <h1 className="wide text-3xl font-black sm:text-4xl">My tickets</h1>
        <p className="mt-1 text-muted">Show the QR code at the gate, on your phone or printed.</p>
      </header>
      {upcoming.length === 0 && past.length === 0 ? (
        <Card variant="empty" className="p-10">
          <Ticket aria-hidden className="mx-auto size-10 text-muted" />
          <p className="mt-3 text-lg font-semibold">
            No tickets yet —{" "}
            <Link to="/events" className="text-link underline">
              find an event
            </Link>
          </p>
        </Card>
      ) : null}
      {upcoming.length > 0 ? <EventGroups id="upcoming" title="Upcoming" groups={upcoming} /> : null}
      {past.length > 0 ? <EventGroups id="past" title="Past events" groups={past} /> : null}
    </div>
  );
}

function EventGroups({
  id,
  title,
  groups,
}: {
  id: string;
  title: string;
  groups: { event: EventTickets["event"]; tickets: TicketWithQr[] }[];
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-6">
      <h2 id={`${id}-title`} className="text-sm font-bold uppercase tracking-[0.16em] text-muted">
        {title}
      </h2>
      {groups.map(({ event, tickets }) => (
        <section key={event.id} aria-labelledby={`event-${event.id}`} className="space-y-3">
          <div className="flex items-center gap-4">
            <div className="dark-band grid size-14 shrink-0 place-items-center rounded-xl bg-asphalt-950 text-center leading-none text-white">
              <span className="wide text-xl font-black tabular">{event.day}</span>
              <span className="text-xs font-bold uppercase text-accent-strong">{event.month}</span>
            </div>
            <div className="min-w-0">
              <h3 id={`event-${event.id}`} className="wide text-xl font-extrabold leading-tight">
                <Link to={`/events/${event.slug}`} className="hover:underline">
                  {event.title}
                </Link>
              </h3>
              <p className="text-sm text-muted">
                {event.dates} · {event.venue}, {event.town} · {tickets.length}{" "}
                {tickets.length === 1 ? "ticket" : "tickets"}
              </p>
            </div>
          </div>
          <ul className="grid gap-4">
            {tickets.map((ticket) => (
              <li key={ticket.id}>
                <TicketCard ticket={ticket} showEvent={false} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "My tickets" }, { name: "robots", content: "noindex" }];
