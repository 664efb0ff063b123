import { getTicketTypesPage } from "~/features/events/organizer/queries.server";
import { TicketTypeCard, TicketTypeForm } from "~/features/events/organizer/ticket-types";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { Notice } from "~/ui/form";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import { countOf } from "~/ui/plural";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/tickets";
import { ticketTypesAction } from "./event-forms.server";
import { eventIdFrom } from "./event-id.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const page = await getTicketTypesPage(db, eventIdFrom(params.eventId));
  if (!page) notFound();
  const edit = url.searchParams.get("edit");
  const editing = page.ticketTypes.some((type) => type.id === edit) ? edit : null;
  return { ...page, editing, currency: env.CURRENCY };
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db, env } = context.get(runtimeContext);
  const call = { db, actorId: user.id, currency: env.CURRENCY, eventId };
  return ticketTypesAction(call, await readForm(request), url.pathname);
}

export default function EventTickets({ loaderData, actionData }: Route.ComponentProps) {
  const { event, ticketTypes, currency } = loaderData;
  const failedEdit = actionData?.intent === "update" ? actionData.ticketTypeId : null;
  const editing = failedEdit ?? loaderData.editing;
  const rowError = (id: string) =>
    actionData && ["hide", "show", "delete"].includes(actionData.intent) && actionData.ticketTypeId === id
      ? (actionData.result.error?.[""] ?? undefined)
      : undefined;
  const readOnly = event.status === "cancelled";
  const nextPosition = ticketTypes.reduce((top, type) => Math.max(top, type.sortOrder + 1), 0);
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] lg:items-start">
      <section aria-labelledby="ticket-types-title" className="space-y-3">
        <h2 id="ticket-types-title" className="wide text-xl font-extrabold">
          Ticket types
        </h2>
        <p className="text-muted">
          {event.capacity ? `At most ${countOf(event.capacity, "person", "people")} across all types. ` : ""}
          Types with sales cannot be deleted; hide them to stop selling.
        </p>
        {ticketTypes.length === 0 ? (
          <Card as="p" variant="empty" className="p-8 text-muted">
            No ticket types yet. Add the first one: most events have a day ticket, and weekends a pass.
          </Card>
        ) : (
          <Card as="ul" variant="list" className="overflow-hidden">
            {ticketTypes.map((type) => (
              <TicketTypeCard
                key={type.id}
                type={type}
                event={event}
                currency={currency}
                error={rowError(type.id)}
                readOnly={readOnly}
              />
            ))}
          </Card>
        )}
      </section>
      <div className="lg:sticky lg:top-24">
        {readOnly ? (
          <Notice kind="info">
            <p>This event is cancelled, so its tickets can no longer change.</p>
          </Notice>
        ) : editing ? (
          <TicketTypeForm
            key={editing}
            event={event}
            currency={currency}
            ticketTypeId={editing}
            defaultValue={ticketTypes.find((type) => type.id === editing)?.formValues ?? {}}
            lastResult={failedEdit ? actionData?.result : undefined}
          />
        ) : (
          <TicketTypeForm
            key={`new-${ticketTypes.length}`}
            event={event}
            currency={currency}
            defaultValue={{ maxPerOrder: "10", sortOrder: String(nextPosition) }}
            lastResult={actionData?.intent === "create" ? actionData.result : undefined}
          />
        )}
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const event = matches.find((match) => match?.id === "routes/admin/events/event")?.data as
    | { event?: { title: string } }
    | undefined;
  return [
    { title: pageTitle(matches, "Tickets", event?.event?.title ?? "Event", "Dashboard") },
    { name: "robots", content: "noindex" },
  ];
};
