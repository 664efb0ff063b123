import { ChevronRight } from "lucide-react";
import { Link } from "react-router";
import { Pagination } from "~/features/admin/members-list";
import { formatOrderNumber } from "~/features/commerce/order-number";
import { listOrders } from "~/features/orders/admin-orders.server";
import { ORDER_STATUS_LABELS, OrdersQuerySchema } from "~/features/orders/admin-schemas";
import { OrderStatusBadge } from "~/features/orders/order-status-badge";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { ListFilter, ListSearch } from "~/ui/list-search";
import { formatMoney } from "~/ui/money";
import { pageTitle } from "~/ui/page-title";
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
  const href = (target: number) => {
    const params = new URLSearchParams();
    if (q) params.set("q", q);
    if (status !== "all") params.set("status", status);
    if (target > 1) params.set("page", String(target));
    const search = params.toString();
    return search ? `?${search}` : ".";
  };
  return (
    <div className="mx-auto max-w-[1100px]">
      <p className="text-sm font-bold uppercase tracking-[0.18em] text-accent-ink">Sales</p>
      <h1 className="wide mt-1 text-3xl font-extrabold sm:text-4xl">Orders</h1>
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
      <p className="mt-8 text-sm text-muted" role="status">
        {countOf(total, "order", "orders")}
        {q ? ` matching “${q}”` : ""}
      </p>
      {orders.length === 0 ? (
        <Card as="p" variant="empty" className="mt-3 p-10 text-muted">
          No orders match. Try the number (PL-000123 or 123), an email address or part of a name.
        </Card>
      ) : (
        <Card as="ul" variant="list" className="mt-3">
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
        </Card>
      )}
      <Pagination page={page} pageCount={pageCount} href={href} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  return [{ title: pageTitle(matches, "Orders", "Dashboard") }, { name: "robots", content: "noindex" }];
};
