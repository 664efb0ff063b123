import { Receipt } from "lucide-react";
import { Link } from "react-router";
import { formatOrderNumber } from "~/features/commerce/order-number";
import { CreditSection } from "~/features/credit/credit-section";
import { creditViewFor } from "~/features/credit/credit-view.server";
import { OrderStatusBadge } from "~/features/orders/order-status-badge";
import { ordersForMember } from "~/features/orders/order-views.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { formatMoney } from "~/ui/money";
import type { Route } from "./+types/transactions";

/** The member's orders and refunds, each with a printable receipt. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { db, env } = context.get(runtimeContext);
  const [history, credit] = await Promise.all([
    ordersForMember(db, { userId: user.id, siteTimeZone: env.TIME_ZONE }),
    creditViewFor(db, { userId: user.id, now: new Date(), timeZone: env.TIME_ZONE }),
  ]);
  return {
    ...history,
    credit: credit && {
      ...credit,
      lines: credit.lines.map((line) => ({
        ...line,
        order: line.orderNumber === null ? null : formatOrderNumber(line.orderNumber),
      })),
    },
  };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function Transactions({ loaderData }: Route.ComponentProps) {
  const { orders, refunds, credit } = loaderData;
  return (
    <div className="space-y-10">
      <header>
        <h1 className="wide text-3xl font-black sm:text-4xl">Orders</h1>
        <p className="mt-1 text-muted">
          Everything you have bought, any money sent back and your account credit, newest first.
        </p>
      </header>

      {orders.length === 0 ? (
        <Card as="p" variant="empty" className="p-10 text-muted">
          No orders yet —{" "}
          <Link to="/events" className="font-semibold text-link underline">
            find an event
          </Link>
          .
        </Card>
      ) : (
        <section aria-labelledby="orders-title">
          <h2 id="orders-title" className="sr-only">
            Your orders
          </h2>
          <Card as="ul" variant="list" className="overflow-hidden">
            {orders.map((order) => (
              <li key={order.id} className="grid gap-x-4 gap-y-2 p-4 sm:grid-cols-[1fr_auto] sm:items-center">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-bold tabular">{order.number}</span>
                    <OrderStatusBadge status={order.status} />
                  </p>
                  <p className="mt-1 line-clamp-2">{order.summary}</p>
                  <p className="text-sm text-muted">{order.placedAt}</p>
                </div>
                <div className="flex items-center justify-between gap-4 sm:flex-col sm:items-end sm:gap-1">
                  <p className="text-right">
                    <span className="block text-lg font-bold tabular">{formatMoney(order.total, order.currency)}</span>
                    {order.refunded > 0 ? (
                      <span className="block text-sm text-muted tabular">
                        {formatMoney(order.refunded, order.currency)} refunded
                      </span>
                    ) : null}
                    {order.refundPending > 0 ? (
                      <span className="block text-sm text-muted tabular">
                        {formatMoney(order.refundPending, order.currency)} refund on its way
                      </span>
                    ) : null}
                  </p>
                  <Link
                    to={`/transactions/${order.id}`}
                    className="inline-flex items-center gap-1.5 rounded-full border border-line px-3 py-1.5 text-sm font-semibold hover:bg-surface-sunken"
                  >
                    <Receipt aria-hidden className="size-4" /> Receipt
                    <span className="sr-only"> for {order.number}</span>
                  </Link>
                </div>
              </li>
            ))}
          </Card>
        </section>
      )}

      {credit ? <CreditSection credit={credit} /> : null}

      {refunds.length > 0 ? (
        <section aria-labelledby="refunds-title" className="space-y-3">
          <h2 id="refunds-title" className="wide text-xl font-extrabold">
            Refunds
          </h2>
          <ul className="divide-y divide-line rounded-2xl border border-line">
            {refunds.map((refund) => (
              <li key={refund.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 p-4">
                <span>
                  <span className="font-semibold tabular">{refund.orderNumber}</span>{" "}
                  <span className="text-muted">
                    · {refund.at} ·{" "}
                    {refund.status === "pending" ? "On its way" : refund.status === "failed" ? "Failed" : "Refunded"}
                  </span>
                  {refund.reason ? <span className="block text-sm text-muted">{refund.reason}</span> : null}
                </span>
                <span className="font-bold tabular">{formatMoney(refund.amount, refund.currency)}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Orders" }, { name: "robots", content: "noindex" }];
