import { Printer } from "lucide-react";
import { Link } from "react-router";
import { classChoicesOf, showEntriesOf, showEventOf } from "~/features/judging/show-setup.server";
import { WindscreenCard, WindscreenPrintStyle } from "~/features/judging/windscreen-card";
import { qrSvg } from "~/features/tickets/qr.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/show-cards";
import { eventIdFrom } from "./event-id.server";

// Outside the dashboard frame: a plain page made for paper, one A5 windscreen card per car placed
// in a class, with the QR of its vote address.

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db, env } = context.get(runtimeContext);
  const event = await showEventOf(db, eventId);
  if (!event) notFound();
  const [entries, classes] = await Promise.all([showEntriesOf(db, eventId), classChoicesOf(db, eventId)]);
  const classNames = new Map(classes.map((row) => [row.id, row.name]));
  const placed = entries.filter((entry) => entry.classId !== null && entry.voteKey !== null);
  const cards = await Promise.all(
    placed.map(async (entry) => {
      const voteUrl = new URL(`/events/${eventId}/vote/${entry.voteKey}`, env.SITE_URL).href;
      return {
        applicationId: entry.applicationId,
        showNumber: entry.showNumber,
        className: classNames.get(entry.classId!) ?? null,
        carLabel: entry.carLabel,
        voteUrl,
        qrSvg: await qrSvg(voteUrl),
      };
    }),
  );
  return { event: { id: event.id, title: event.title }, cards };
}

export default function ShowCards({ loaderData }: Route.ComponentProps) {
  const { event, cards } = loaderData;
  return (
    <main id="main" className="mx-auto max-w-[800px] bg-white px-6 py-8 text-black print:max-w-none print:p-0">
      <WindscreenPrintStyle />
      <div className="mb-8 flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to={`/admin/events/${event.id}/show#entries`} className="font-semibold underline">
          Back to the show
        </Link>
        {cards.length > 0 ? (
          <button
            type="button"
            onClick={() => window.print()}
            className="inline-flex min-h-12 items-center gap-2 rounded-full bg-black px-5 py-2.5 font-bold text-white"
          >
            <Printer aria-hidden className="size-4" /> Print
          </button>
        ) : null}
      </div>
      <h1 className="sr-only">Windscreen cards for {event.title}</h1>
      {cards.length === 0 ? <p>No car is placed in a class yet. Place the cars on the show tab first.</p> : null}
      {cards.map((card) => (
        <WindscreenCard key={card.applicationId} card={card} />
      ))}
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data }) => [{ title: `Windscreen cards · ${data?.event.title ?? "Show"}` }];
