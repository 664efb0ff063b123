import { getTicketTypesPage } from "~/features/events/organizer/queries.server";
import { TicketTypeCard, TicketTypeForm } from "~/features/events/organizer/ticket-types";
import { tiersForPrices } from "~/features/membership/tiers.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { dashboardMeta, recordTitle } from "~/ui/dashboard-meta";
import { Notice } from "~/ui/form";
import { notFound } from "~/ui/not-found";
import { countOf } from "~/ui/plural";
import { TabColumns, TabSection } from "~/ui/record-page";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/tickets";
import { ticketTypesAction } from "./event-forms.server";
import { eventIdFrom } from "./event-id.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const [page, tiers] = await Promise.all([getTicketTypesPage(db, eventIdFrom(params.eventId)), tiersForPrices(db)]);
  if (!page) notFound();
  const edit = url.searchParams.get("edit");
  const editing = page.ticketTypes.some((type) => type.id === edit) ? edit : null;
  return { ...page, tiers, editing, currency: env.CURRENCY };
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db, env } = context.get(runtimeContext);
  const call = { db, actorId: user.id, currency: env.CURRENCY, eventId };
  return ticketTypesAction(call, await readForm(request), url.pathname);
}

export default function EventTickets({ loaderData, actionData }: Route.ComponentProps) {
  const { event, tiers, ticketTypes, currency } = loaderData;
  const failedEdit = actionData?.intent === "update" ? actionData.ticketTypeId : null;
  const editing = failedEdit ?? loaderData.editing;
  const rowError = (id: string) =>
    actionData && ["hide", "show", "delete"].includes(actionData.intent) && actionData.ticketTypeId === id
      ? (actionData.result.error?.[""] ?? undefined)
      : undefined;
  const readOnly = event.status === "cancelled";
  const nextPosition = ticketTypes.reduce((top, type) => Math.max(top, type.sortOrder + 1), 0);
  return (
    <TabColumns
      sideWidth="half"
      sticky
      side={
        readOnly ? (
          <Notice kind="info">
            <p>This event is cancelled, so its tickets can no longer change.</p>
          </Notice>
        ) : editing ? (
          <TicketTypeForm
            key={editing}
            event={event}
            tiers={tiers}
            currency={currency}
            ticketTypeId={editing}
            defaultValue={ticketTypes.find((type) => type.id === editing)?.formValues ?? {}}
            lastResult={failedEdit ? actionData?.result : undefined}
          />
        ) : (
          <TicketTypeForm
            key={`new-${ticketTypes.length}`}
            event={event}
            tiers={tiers}
            currency={currency}
            defaultValue={{ maxPerOrder: "10", sortOrder: String(nextPosition) }}
            lastResult={actionData?.intent === "create" ? actionData.result : undefined}
          />
        )
      }
    >
      <TabSection
        id="ticket-types"
        title="Ticket types"
        intro={`${event.capacity ? `At most ${countOf(event.capacity, "person", "people")} across all types. ` : ""}Types with sales cannot be deleted; hide them to stop selling.`}
      >
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
                tiers={tiers}
                currency={currency}
                error={rowError(type.id)}
                readOnly={readOnly}
              />
            ))}
          </Card>
        )}
      </TabSection>
    </TabColumns>
  );
}

const EVENT_LAYOUT = { id: "routes/admin/events/event", key: "event", fallback: "Event" };

export const meta: Route.MetaFunction = ({ matches }) =>
  dashboardMeta(matches, "Tickets", recordTitle(matches, EVENT_LAYOUT));
