import { ChevronRight } from "lucide-react";
import { Link } from "react-router";
import { formatOrderNumber } from "~/features/commerce/order-number";
import { listOrders } from "~/features/orders/admin-orders.server";
import { ORDER_STATUS_LABELS, OrdersQuerySchema } from "~/features/orders/admin-schemas";
import { OrderStatusBadge } from "~/features/orders/order-status-badge";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { ListPageHeader, ListResults, listHref } from "~/ui/list-page";
import { ListFilter, ListSearch } from "~/ui/list-search";
import { formatMoney } from "~/ui/money";
import { countOf } from "~/ui/plural";
import type { Route } from "./+types/list";

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const query = OrdersQuerySchema.parse(Object.fromEntries(url.searchParams));
  const list = await listOrders(db, query);
  const format = new Intl.DateTimeFormat("en-GB", { timeZone: env.TIME_ZONE, dateStyle: "medium", timeStyle: "short" });
  return {
    ...list,
    orders: list.orders.map((order) => ({
      ...order,
      reference: formatOrderNumber(order.number),
      totalLabel: formatMoney(order.total, order.currency),
      placedLabel: format.format(order.createdAt),
    })),
    q: query.q,
    status: query.status,
  };
}

export default function Orders({ loaderData }: Route.ComponentProps) {
  const { orders, total, page, pageCount, q, status } = loaderData;
  const href = (target: number) => listHref({ q, status, page: target }, { status: "all", page: 1 });
  return (
    <div className="mx-auto max-w-[1100px]">
      <ListPageHeader area="Sales" title="Orders" />
      <ListSearch
        id="order-search"
        label="Order number, email or name"
        q={q}
        resetKey={`${q}|${status}`}
        className="mt-8"
      >
        <ListFilter
          id="order-status"
          name="status"
          label="Status"
          value={status}
          options={{ all: "All statuses", ...ORDER_STATUS_LABELS }}
        />
      </ListSearch>
      <ListResults
        total={total}
        noun={["order", "orders"]}
        q={q}
        showCount
        empty={
          orders.length === 0
            ? "No orders match. Try the number (PL-000123 or 123), an email address or part of a name."
            : null
        }
        page={page}
        pageCount={pageCount}
        href={href}
      >
        {orders.map((order) => (
          <li key={order.id}>
            <Link
              to={`/admin/orders/${order.id}`}
              className="group flex items-center gap-4 p-4 hover:bg-surface-sunken"
            >
              <span className="min-w-0 flex-1 space-y-1">
                <span className="flex flex-wrap items-center gap-2">
                  <span className="font-mono font-bold">{order.reference}</span>
                  <OrderStatusBadge status={order.status} />
                </span>
                <span className="block truncate">
                  <span className="font-semibold">{order.name ?? order.email}</span>
                  {order.name ? <span className="text-muted"> · {order.email}</span> : null}
                </span>
                <span className="block text-sm text-muted">
                  {order.placedLabel} · {countOf(order.items, "ticket", "tickets")}
                </span>
              </span>
              <span className="tabular text-lg font-bold">{order.totalLabel}</span>
              <ChevronRight aria-hidden className="size-5 shrink-0 text-muted group-hover:text-text" />
            </Link>
          </li>
        ))}
      </ListResults>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => dashboardMeta(matches, "Orders");
