import { Printer } from "lucide-react";
import { data } from "react-router";
import { carrierLabel } from "~/features/fulfilment/carriers";
import { changeFulfilment, listFulfilment } from "~/features/fulfilment/fulfilment.server";
import {
  FulfilmentCard,
  type FulfilmentCardOrder,
  LowStockCard,
  type ShipErrors,
} from "~/features/fulfilment/fulfilment-parts";
import { FULFILMENT_VIEWS, FulfilmentActionSchema, FulfilmentQuerySchema } from "~/features/fulfilment/schemas";
import { lowStockVariants } from "~/features/fulfilment/stock-alerts.server";
import { requireRole } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { Card } from "~/ui/card";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { Notice } from "~/ui/form";
import { FilterTabs, ListPageHeader, listHref } from "~/ui/list-page";
import { ListSearch } from "~/ui/list-search";
import { countOf } from "~/ui/plural";
import type { Route } from "./+types/list";

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const query = FulfilmentQuerySchema.parse(Object.fromEntries(url.searchParams));
  const [list, lowStock] = await Promise.all([listFulfilment(db, query), lowStockVariants(db, new Date(), 10)]);
  const at = new Intl.DateTimeFormat("en-GB", { timeZone: env.TIME_ZONE, dateStyle: "medium", timeStyle: "short" });
  const orders: FulfilmentCardOrder[] = list.orders.map((order) => ({
    ...order,
    paidLabel: order.paidAt ? at.format(order.paidAt) : null,
    shippedLabel: order.shippedAt ? at.format(order.shippedAt) : null,
    carrierLabel: carrierLabel(order.carrier),
    eventLabel:
      order.eventStartsAt && order.eventTimeZone
        ? `${new Intl.DateTimeFormat("en-GB", { timeZone: order.eventTimeZone, dateStyle: "full" }).format(order.eventStartsAt)} · ${order.eventVenue}`
        : null,
  }));
  return { orders, counts: list.counts, view: query.view, q: query.q, lowStock };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const { db, env, outbox } = context.get(runtimeContext);
  const form = Object.fromEntries(await request.formData());
  const parsed = FulfilmentActionSchema.safeParse(form);
  const orderId = typeof form.orderId === "string" ? form.orderId : "";
  if (!parsed.success) {
    const errors: ShipErrors & { other?: string[] } = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      const key = field === "carrier" || field === "trackingNumber" || field === "trackingUrl" ? field : "other";
      errors[key] = [...(errors[key] ?? []), issue.message];
    }
    const values = {
      carrier: String(form.carrier ?? ""),
      trackingNumber: String(form.trackingNumber ?? ""),
      trackingUrl: String(form.trackingUrl ?? ""),
    };
    return data({ orderId, errors, values, problem: errors.other?.[0] ?? null }, { status: 400 });
  }
  const outcome = await changeFulfilment(db, parsed.data, {
    actorId: user.id,
    brand: { siteName: env.SITE_NAME, siteUrl: env.SITE_URL },
    now: new Date(),
    ip: context.get(requestContext).ip,
  });
  if (!outcome.ok)
    return data({ orderId, errors: {}, values: {}, problem: outcome.message }, { status: outcome.status });
  if (outcome.email) await outbox.sendEmail(outcome.email);
  return redirectWithFlash(url.pathname + url.search, { kind: "success", message: outcome.message });
}

export default function Fulfilment({ loaderData, actionData }: Route.ComponentProps) {
  const { orders, counts, view, q, lowStock } = loaderData;
  return (
    <div className="mx-auto max-w-[1100px] space-y-6">
      <ListPageHeader
        area="Shop"
        title="Fulfilment"
        intro="Paid merch, oldest first: pack it, post it or set it aside for the gate."
      />
      <LowStockCard variants={lowStock} />
      <FilterTabs
        label="Fulfilment views"
        names={FULFILMENT_VIEWS}
        show={view}
        counts={counts}
        href={(target) => listHref({ view: target, q }, { view: "to-ship" })}
      />
      <ListSearch id="fulfilment-search" label="Order number or name" q={q} resetKey={`${q}|${view}`}>
        <input type="hidden" name="view" value={view} />
      </ListSearch>
      {actionData?.problem ? (
        <Notice kind="error">
          <p>{actionData.problem}</p>
        </Notice>
      ) : null}
      <form
        id="packing"
        method="get"
        action="/admin/fulfilment/packing-list"
        className="flex flex-wrap items-center gap-3"
      >
        <p className="flex-1 text-sm text-muted" role="status">
          {countOf(orders.length, "order", "orders")}
          {q ? ` matching “${q}”` : ""}
        </p>
        {orders.length > 0 ? (
          <button
            type="submit"
            className="inline-flex items-center gap-2 rounded-full bg-surface-sunken px-5 py-2.5 font-bold hover:bg-line"
          >
            <Printer aria-hidden className="size-4" /> Print packing lists
          </button>
        ) : null}
      </form>
      {orders.length === 0 ? (
        <Card as="p" variant="empty" className="p-10 text-muted">
          {q
            ? "No orders match. Try the number (PL-000123 or 123) or the buyer's name."
            : "Nothing here: every paid order in this view is done."}
        </Card>
      ) : (
        <ul className="space-y-4">
          {orders.map((order) => (
            <FulfilmentCard
              key={order.id}
              order={order}
              errors={actionData?.orderId === order.id ? actionData.errors : undefined}
              values={actionData?.orderId === order.id ? actionData.values : undefined}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => dashboardMeta(matches, "Fulfilment");
