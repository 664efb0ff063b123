import { useRouteLoaderData } from "react-router";
import { EventForm } from "~/features/events/organizer/event-form";
import { EventStatusPanel } from "~/features/events/organizer/event-status";
import { getEventFormValues } from "~/features/events/organizer/queries.server";
import { timeZoneOptions } from "~/features/events/organizer/schemas";
import { RefundHoldersCard } from "~/features/orders/admin-order-parts";
import { cancelledEventRefunds } from "~/features/orders/admin-orders.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { dashboardMeta, recordTitle } from "~/ui/dashboard-meta";
import { notFound } from "~/ui/not-found";
import { TabColumns } from "~/ui/record-page";
import { readForm } from "~/web/form-data.server";
import { refundHoldersAction } from "../orders/refund-forms.server";
import type { Route } from "./+types/details";
import type { loader as eventLoader } from "./event";
import { eventDetailsAction } from "./event-forms.server";
import { eventIdFrom } from "./event-id.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  const user = requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db, env } = context.get(runtimeContext);
  const values = await getEventFormValues(db, eventId);
  if (!values) notFound();
  // A cancelled event's holders are refunded from here (admins only).
  const holders = await cancelledEventRefunds(db, eventId);
  const refunds = holders === null ? null : { holders, canRefund: user.role === "admin" };
  return {
    refunds,
    values,
    timeZones: timeZoneOptions(env.TIME_ZONE, values.timeZone),
    currency: env.CURRENCY,
    mapsKey: env.GOOGLE_MAPS_API_KEY ?? null,
  };
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db, env, jobs, outbox } = context.get(runtimeContext);
  const form = await readForm(request);
  if (form.get("intent") === "refund-holders") {
    const admin = requireRole({ context, url }, "admin");
    const brand = { siteName: env.SITE_NAME, siteUrl: env.SITE_URL };
    return refundHoldersAction({ db, jobs, outbox, actorId: admin.id, brand, eventId, path: url.pathname });
  }
  const call = { db, actorId: user.id, currency: env.CURRENCY, eventId };
  return eventDetailsAction(call, form, url.pathname);
}

export default function EventDetails({ loaderData, actionData }: Route.ComponentProps) {
  const parent = useRouteLoaderData<typeof eventLoader>("routes/admin/events/event");
  const resultFor = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  if (!parent) return null;
  const { event } = parent;
  return (
    <TabColumns
      sideLabel="Status"
      sideFirst
      sticky
      side={
        <>
          {loaderData.refunds ? <RefundHoldersCard {...loaderData.refunds} /> : null}
          <EventStatusPanel
            event={event}
            results={{ publish: resultFor("publish"), unpublish: resultFor("unpublish"), cancel: resultFor("cancel") }}
          />
        </>
      }
    >
      <EventForm
        lastResult={resultFor("save")}
        defaultValue={loaderData.values}
        timeZones={loaderData.timeZones}
        currency={loaderData.currency}
        mapsKey={loaderData.mapsKey}
        submitLabel="Save changes"
        disabled={event.status === "cancelled"}
      />
    </TabColumns>
  );
}

const EVENT_LAYOUT = { id: "routes/admin/events/event", key: "event", fallback: "Event" };

export const meta: Route.MetaFunction = ({ matches }) =>
  dashboardMeta(matches, recordTitle(matches, EVENT_LAYOUT), "Events");
