import { Link } from "react-router";
import { formatOrderNumber } from "~/features/commerce/order-number";
import { MoveForms } from "~/features/moves/move-form";
import { movesOfOrder, moveTargets } from "~/features/moves/moves.server";
import { Panel, RefundConfirmation, RefundForms, TicketStatus } from "~/features/orders/admin-order-parts";
import { getOrderDetail } from "~/features/orders/admin-orders.server";
import { ORDER_STATUS_LABELS } from "~/features/orders/admin-schemas";
import { isOrderId } from "~/features/orders/order-id";
import { OrderStatusBadge } from "~/features/orders/order-status-badge";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { Notice } from "~/ui/form";
import { formatMoney } from "~/ui/money";
import { notFound } from "~/ui/not-found";
import { countOf } from "~/ui/plural";
import { BackLink } from "~/ui/record-header";
import type { Route } from "./+types/order";
import { orderMoveAction } from "./move-form.server";
import { orderRefundAction } from "./refund-forms.server";

async function loadOrder(context: Route.LoaderArgs["context"], orderId: string | undefined) {
  if (!isOrderId(orderId)) notFound();
  const detail = await getOrderDetail(context.get(runtimeContext).db, orderId.toLowerCase());
  if (!detail) notFound();
  return detail;
}

export async function loader({ context, url, params }: Route.LoaderArgs) {
  const user = requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const detail = await loadOrder(context, params.orderId);
  const canRefund = user.role === "admin";
  const now = new Date();
  const [moves, targets] = await Promise.all([
    movesOfOrder(db, detail.order.id),
    canRefund && detail.order.hasAccount ? moveTargets(db, now) : [],
  ]);
  const at = new Intl.DateTimeFormat("en-GB", { timeZone: env.TIME_ZONE, dateStyle: "medium", timeStyle: "short" });
  const when = (date: Date | null) => (date ? at.format(date) : null);
  return {
    ...detail,
    reference: formatOrderNumber(detail.order.number),
    placed: when(detail.order.createdAt),
    tickets: detail.tickets.map((ticket) => ({ ...ticket, checkedInLabel: when(ticket.checkedInAt) })),
    transactions: detail.transactions.map((row) => ({ ...row, when: when(row.createdAt) })),
    history: detail.history.map((row) => ({ ...row, when: when(row.createdAt) })),
    moves: moves.map((move) => ({ ...move, when: when(move.createdAt) })),
    moveTargets: targets,
    // The ticket lines with tickets a move could take (the move itself checks each ticket).
    movableLines: detail.items.flatMap((item) =>
      item.kind === "ticket" && item.refundable > 0
        ? [{ id: item.id, description: item.description, unitPrice: item.unitPrice, movable: item.refundable }]
        : [],
    ),
    // Organizers see orders, only admins refund and move bookings (both move money).
    canRefund,
  };
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "admin");
  const { db, env, jobs, outbox, payments } = context.get(runtimeContext);
  const detail = await loadOrder(context, params.orderId);
  const brand = { siteName: env.SITE_NAME, siteUrl: env.SITE_URL };
  const formData = await request.formData();
  if (formData.get("intent") === "move") {
    return orderMoveAction(
      { db, jobs, outbox, payments, actorId: user.id, brand, detail, path: url.pathname },
      formData,
    );
  }
  return orderRefundAction({ db, jobs, outbox, actorId: user.id, brand, detail, path: url.pathname }, formData);
}

export default function OrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { order, items, tickets, transactions, history, reference, placed, canRefund, refundedBefore } = loaderData;
  const money = (minor: number) => formatMoney(minor, order.currency);
  return (
    <div className="mx-auto max-w-[1100px] space-y-6">
      <BackLink to="/admin/orders" label="Orders" />
      <header className="dark-band flex flex-wrap items-end justify-between gap-4 rounded-3xl bg-asphalt-950 p-6 text-white ring-1 ring-white/10">
        <div className="space-y-1">
          <h1 className="wide font-mono text-3xl font-extrabold">{reference}</h1>
          <p>{order.name ? `${order.name} · ${order.email}` : order.email}</p>
          <p className="text-sm text-asphalt-300">
            Placed {placed} · paid with {order.provider === "test" ? "the test checkout" : "Stripe"}
          </p>
        </div>
        <div className="space-y-2 sm:text-right">
          <OrderStatusBadge status={order.status} />
          <p className="wide tabular text-3xl font-black">{money(order.total)}</p>
        </div>
      </header>
      {actionData && "problem" in actionData && actionData.problem ? (
        <Notice kind="error">
          <p>{actionData.problem}</p>
        </Notice>
      ) : null}
      {actionData && "review" in actionData && actionData.review ? (
        <RefundConfirmation review={actionData.review} currency={order.currency} canCredit={order.hasAccount} />
      ) : null}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <div className="space-y-6">
          <Panel title="Items" id="items-heading">
            <ul className="divide-y divide-line">
              {items.map((item) => (
                <li key={item.id} className="flex flex-wrap justify-between gap-2 py-3">
                  <span>
                    <span className="font-semibold">{item.description}</span>
                    <span className="block text-sm text-muted">
                      {item.quantity} × {money(item.unitPrice)}
                      {item.refundedQuantity > 0 ? ` · ${item.refundedQuantity} refunded` : ""}
                    </span>
                  </span>
                  <span className="tabular font-bold">{money(item.unitPrice * item.quantity)}</span>
                </li>
              ))}
            </ul>
            {order.discount > 0 ? (
              <p className="flex justify-between gap-2 border-t border-line pt-3">
                <span>
                  Code <span className="font-mono">{order.voucherCode}</span>
                </span>
                <span className="tabular font-bold">−{money(order.discount)}</span>
              </p>
            ) : null}
            {order.shipping > 0 ? (
              <p className="flex justify-between gap-2 border-t border-line pt-3">
                <span>{loaderData.delivery?.heading === "Collect at" ? "Collection" : "Shipping"}</span>
                <span className="tabular font-bold">{money(order.shipping)}</span>
              </p>
            ) : null}
            {order.credit > 0 ? (
              <p className="flex justify-between gap-2 border-t border-line pt-3">
                <span>Paid with account credit</span>
                <span className="tabular font-bold">−{money(order.credit)}</span>
              </p>
            ) : null}
          </Panel>
          {loaderData.delivery ? (
            <Panel title={loaderData.delivery.heading} id="delivery-heading">
              <address className="not-italic">
                {loaderData.delivery.lines.map((line) => (
                  <span key={line} className="block">
                    {line}
                  </span>
                ))}
              </address>
              {order.fulfilmentStatus ? (
                <p className="mt-2 text-sm text-muted">
                  {order.fulfilmentStatus.replaceAll("_", " ")}
                  {order.trackingNumber ? ` · ${order.carrier ?? "Tracking"} ${order.trackingNumber}` : ""}
                </p>
              ) : null}
            </Panel>
          ) : null}
          <Panel title="Tickets" id="tickets-heading">
            {tickets.length === 0 ? (
              <p className="text-muted">No tickets were issued (the order was not paid).</p>
            ) : (
              <ul className="divide-y divide-line">
                {tickets.map((ticket) => (
                  <li key={ticket.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                    <span>
                      <span className="font-semibold">{ticket.ticketType}</span>
                      <span className="block text-sm text-muted">
                        {ticket.attendeeName ? `${ticket.attendeeName} · ` : ""}code …{ticket.codeEnd}
                        {ticket.checkedInLabel
                          ? ` · in at ${ticket.checkedInLabel}${ticket.checkedInBy ? ` by ${ticket.checkedInBy}` : ""}`
                          : ""}
                      </span>
                    </span>
                    <TicketStatus status={ticket.status} />
                  </li>
                ))}
              </ul>
            )}
          </Panel>
          <Panel title="Payments and refunds" id="money-heading">
            {transactions.length === 0 ? (
              <p className="text-muted">No money has moved.</p>
            ) : (
              <ul className="divide-y divide-line">
                {transactions.map((row) => (
                  <li key={row.id} className="flex flex-wrap justify-between gap-2 py-3">
                    <span>
                      <span className="font-semibold">
                        {row.kind === "charge" ? "Payment" : "Refund"} · {row.status}
                      </span>
                      <span className="block text-sm text-muted">
                        {row.when}
                        {row.reason ? ` · ${row.reason}` : ""}
                      </span>
                    </span>
                    <span className="tabular font-bold">
                      {row.kind === "refund" ? "−" : ""}
                      {formatMoney(row.amount, row.currency)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Panel>
          {loaderData.moves.length > 0 ? (
            <Panel title="Moves" id="moves-heading">
              <ul className="divide-y divide-line">
                {loaderData.moves.map((move) => (
                  <li key={move.id} className="py-3">
                    <p className="font-semibold">
                      {countOf(move.quantity, "ticket", "tickets")}{" "}
                      {move.direction === "out" ? (
                        <>
                          moved to <Link to={`/admin/orders/${move.toOrderId}`}>{move.to}</Link>
                        </>
                      ) : (
                        <>
                          moved here from <Link to={`/admin/orders/${move.fromOrderId}`}>{move.from}</Link>
                        </>
                      )}
                    </p>
                    <p className="text-sm text-muted">
                      {move.when} · {move.reason}
                    </p>
                  </li>
                ))}
              </ul>
            </Panel>
          ) : null}
          <Panel title="History" id="history-heading">
            <ol className="space-y-3 border-l-2 border-line pl-4">
              {history.map((row) => (
                <li key={row.id}>
                  <p className="font-semibold">{ORDER_STATUS_LABELS[row.toStatus]}</p>
                  <p className="text-sm text-muted">
                    {row.when}
                    {row.actor ? ` · ${row.actor}` : ""}
                    {row.note ? ` · ${row.note}` : ""}
                  </p>
                </li>
              ))}
            </ol>
          </Panel>
        </div>
        <aside aria-label="Refunds and moves" className="space-y-6">
          <Panel title="Refund" id="refund-heading">
            {canRefund ? (
              <RefundForms
                items={items}
                refundedBefore={refundedBefore}
                currency={order.currency}
                errors={actionData && "errors" in actionData ? (actionData.errors ?? null) : null}
              />
            ) : (
              <p className="text-muted">Only admins can refund orders.</p>
            )}
          </Panel>
          {canRefund && loaderData.movableLines.length > 0 ? (
            <Panel title="Move tickets" id="move-heading">
              <MoveForms
                lines={loaderData.movableLines}
                targets={loaderData.moveTargets}
                currency={order.currency}
                errors={actionData && "moveErrors" in actionData ? actionData.moveErrors : null}
              />
            </Panel>
          ) : null}
        </aside>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) =>
  dashboardMeta(matches, data?.reference ?? "Order", "Orders");
