import { ArrowLeft, Printer } from "lucide-react";
import { Form, Link } from "react-router";
import { fulfilmentOf } from "~/features/fulfilment/fulfilment.server";
import { FulfilmentStatus } from "~/features/fulfilment/fulfilment-parts";
import { OrderLines, OrderPayments } from "~/features/orders/order-summary";
import { orderForBuyer } from "~/features/orders/order-views.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { formatMoney } from "~/ui/money";
import { notFound } from "~/ui/not-found";
import { useSite } from "~/ui/site";
import type { Route } from "./+types/receipt";

/** A printable receipt for one of the member's orders. */
export async function loader({ context, url, params }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { db, env } = context.get(runtimeContext);
  const order = await orderForBuyer(db, {
    orderId: params.orderId,
    userId: user.id,
    secret: env.AUTH_SECRET,
    siteTimeZone: env.TIME_ZONE,
  });
  if (!order) notFound("We could not find that order");
  // The receipt is about money: the tickets' signed codes stay off it.
  return {
    order: { ...order, tickets: [] },
    // An order waiting for payment whose places are still held can be paid from here.
    payable: order.holdEndsAt !== null && order.holdEndsAt > new Date() && order.total > 0,
    siteUrl: env.SITE_URL,
    merch: await fulfilmentOf(db, order.id),
  };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function ReceiptPage({ loaderData }: Route.ComponentProps) {
  const { order, siteUrl, merch } = loaderData;
  const site = useSite();
  return (
    <div data-print-page className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3" data-print-hidden>
        <Link to="/transactions" className="inline-flex items-center gap-1.5 font-semibold text-link underline">
          <ArrowLeft aria-hidden className="size-4" /> All orders
        </Link>
        <button
          type="button"
          onClick={() => window.print()}
          className="inline-flex items-center gap-2 rounded-full bg-accent px-5 py-2.5 font-semibold text-on-accent hover:bg-accent-strong"
        >
          <Printer aria-hidden className="size-4" /> Print receipt
        </button>
      </div>

      {loaderData.payable ? (
        <section
          aria-labelledby="pay-title"
          data-print-hidden
          className="flex flex-wrap items-center justify-between gap-4 rounded-2xl border-2 border-accent bg-surface p-5"
        >
          <div>
            <h2 id="pay-title" className="text-lg font-extrabold">
              {formatMoney(order.total, order.currency)} to pay
            </h2>
            <p className="text-sm text-muted">The places are held for you until {order.holdEndsLabel}.</p>
          </div>
          {/* The cart's own way back to a held order's payment. */}
          <Form method="post" action="/cart">
            <input type="hidden" name="orderId" value={order.id} />
            <button
              type="submit"
              name="intent"
              value="resume"
              className="rounded-full bg-accent px-6 py-2.5 font-bold text-on-accent hover:bg-accent-strong"
            >
              Pay {formatMoney(order.total, order.currency)}
            </button>
          </Form>
        </section>
      ) : null}

      {merch ? (
        <div data-print-hidden>
          <FulfilmentStatus order={merch} />
        </div>
      ) : null}

      <article className="rounded-2xl border border-line bg-surface p-6 sm:p-10 print:border-0 print:p-0">
        <div className="flex flex-wrap items-start justify-between gap-4 border-b-4 border-accent pb-5">
          <div>
            <p className="wide text-lg font-black uppercase tracking-wide">{site.name}</p>
            <h1 className="wide mt-3 text-3xl font-black">Receipt</h1>
          </div>
          <dl className="grid grid-cols-[auto_auto] gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted">Order</dt>
            <dd className="font-bold tabular">{order.number}</dd>
            <dt className="text-muted">Date</dt>
            <dd>{order.paidAt ?? order.placedAt}</dd>
            <dt className="text-muted">Status</dt>
            <dd>{order.statusLabel}</dd>
            <dt className="text-muted">Email</dt>
            <dd className="break-all">{order.email}</dd>
          </dl>
        </div>
        <div className="mt-6">
          <OrderLines order={order} caption={`Items in order ${order.number}`} />
        </div>
        <section aria-labelledby="payments-title" className="mt-8">
          <h2 id="payments-title" className="text-sm font-bold uppercase tracking-wider text-muted">
            Payments and refunds
          </h2>
          <div className="mt-2">
            <OrderPayments order={order} />
          </div>
        </section>
        <p className="mt-8 text-xs text-muted">{siteUrl}</p>
      </article>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `Receipt ${data.order.number}` : "Receipt" },
  { name: "robots", content: "noindex" },
];
