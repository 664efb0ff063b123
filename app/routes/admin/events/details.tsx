import { data, useRouteLoaderData } from "react-router";
import { eventDetailsAction, readForm } from "~/features/events/admin-actions.server";
import { EventForm } from "~/features/events/admin-event-form";
import { EventStatusPanel } from "~/features/events/admin-event-status";
import { eventIdFrom, getEventFormValues } from "~/features/events/admin-queries.server";
import { timeZoneOptions } from "~/features/events/admin-schemas";
import { RefundHoldersCard } from "~/features/orders/admin-order-parts";
import { cancelledEventRefunds } from "~/features/orders/admin-orders.server";
import { refundHoldersAction } from "~/features/orders/refund-actions.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import type { Route } from "./+types/details";
import type { loader as eventLoader } from "./event";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  const user = requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db, env } = context.get(runtimeContext);
  const values = await getEventFormValues(db, eventId);
  if (!values) throw data("This page could not be found", { status: 404 });
  // A cancelled event's holders are refunded from here (admins only: PRODUCT.md roles).
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
  const { db, env, jobs } = context.get(runtimeContext);
  const form = await readForm(request);
  if (form.get("intent") === "refund-holders") {
    const admin = requireRole({ context, url }, "admin");
    const brand = { siteName: env.SITE_NAME, siteUrl: env.SITE_URL };
    return refundHoldersAction({ db, jobs, actorId: admin.id, brand, eventId, path: url.pathname });
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
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
      <div className="order-2 lg:order-1">
        <EventForm
          lastResult={resultFor("save")}
          defaultValue={loaderData.values}
          timeZones={loaderData.timeZones}
          currency={loaderData.currency}
          mapsKey={loaderData.mapsKey}
          submitLabel="Save changes"
          disabled={event.status === "cancelled"}
        />
      </div>
      <aside aria-label="Status" className="order-1 space-y-4 lg:sticky lg:top-24 lg:order-2">
        {loaderData.refunds ? <RefundHoldersCard {...loaderData.refunds} /> : null}
        <EventStatusPanel
          event={event}
          results={{ publish: resultFor("publish"), unpublish: resultFor("unpublish"), cancel: resultFor("cancel") }}
        />
      </aside>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = (matches[0]?.data as { site?: { name: string } } | undefined)?.site?.name ?? "Pitlane";
  const event = matches.find((match) => match?.id === "routes/admin/events/event")?.data as
    | { event?: { title: string } }
    | undefined;
  return [
    { title: `${event?.event?.title ?? "Event"} · Events · Dashboard · ${site}` },
    { name: "robots", content: "noindex" },
  ];
};
