import { CircleCheck, Printer, Receipt, Ticket } from "lucide-react";
import { Link, redirect } from "react-router";
import { PassCard } from "~/features/applications/pass-card";
import { OrderLines } from "~/features/orders/order-summary";
import { orderForBuyer, SETTLED_ORDER_STATUSES } from "~/features/orders/order-views.server";
import { TicketCard } from "~/features/orders/ticket-card";
import { withQrSvgs } from "~/features/tickets/qr.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { ErrorPage } from "~/ui/error-page";
import { formatMoney } from "~/ui/money";
import { notFound } from "~/ui/not-found";
import { plural } from "~/ui/plural";
import type { Route } from "./+types/success";

/**
 * After paying: the order number, what was bought and the e-tickets with
 * their QR codes. Only the buyer may see it; an order not paid yet goes to /return, which waits
 * for the payment to be confirmed.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { db, env } = context.get(runtimeContext);
  const order = await orderForBuyer(db, {
    orderId: url.searchParams.get("order") ?? "",
    userId: user.id,
    secret: env.AUTH_SECRET,
    siteTimeZone: env.TIME_ZONE,
  });
  if (!order) notFound("We could not find that order");
  if (!SETTLED_ORDER_STATUSES.includes(order.status)) throw redirect(`/return?order=${order.id}`);
  return { order: { ...order, tickets: await withQrSvgs(order.tickets), passes: await withQrSvgs(order.passes) } };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function Success({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  const count = order.tickets.length;
  const sent = [
    ...(count > 0 ? [plural(count, "ticket", "tickets")] : []),
    ...(order.entries.length > 0 ? ["entry numbers"] : []),
    ...(order.passes.length > 0 ? ["exhibitor pass"] : []),
  ];
  const emailed = `${sent.join(", ")}${sent.length > 0 ? " and " : ""}receipt`;
  return (
    <main id="main" data-print-page>
      <section className="dark-band bg-asphalt-950 text-white print:bg-white print:text-black">
        <div className="mx-auto flex max-w-[1200px] flex-col gap-4 px-4 py-10 sm:px-6 sm:py-14">
          <CircleCheck aria-hidden className="size-12 text-accent-strong print:hidden" />
          <h1 className="wide text-4xl font-black sm:text-5xl">You're in.</h1>
          <p className="text-lg text-asphalt-100 print:text-black">
            Order <strong className="tabular text-white print:text-black">{order.number}</strong> · {order.statusLabel}{" "}
            {formatMoney(order.total, order.currency)}
            {order.paidAt ? ` · ${order.paidAt}` : ""}
          </p>
          <p className="max-w-prose text-asphalt-300 print:text-black">
            We have emailed your {emailed} to {order.email}.
            {count > 0 ? " Show the QR code at the gate, on your phone or printed." : ""}
          </p>
          <div className="flex flex-wrap gap-3 pt-2" data-print-hidden>
            <PrintButton />
            <Link
              to="/members/events"
              className="inline-flex items-center gap-2 rounded-full border border-white/30 px-5 py-2.5 font-semibold hover:bg-white/10"
            >
              <Ticket aria-hidden className="size-4" /> All my tickets
            </Link>
            <Link
              to={`/transactions/${order.id}`}
              className="inline-flex items-center gap-2 rounded-full border border-white/30 px-5 py-2.5 font-semibold hover:bg-white/10"
            >
              <Receipt aria-hidden className="size-4" /> Receipt
            </Link>
          </div>
        </div>
      </section>

      <div className="mx-auto grid max-w-[1200px] gap-10 px-4 py-10 sm:px-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0 space-y-10">
          {order.entries.length > 0 ? (
            <section aria-labelledby="entries-title" className="space-y-4">
              <h2 id="entries-title" className="wide text-2xl font-extrabold">
                Your entry numbers
              </h2>
              <ul className="grid gap-3">
                {order.entries.map((draw) => (
                  <li key={draw.drawSlug} className="rounded-2xl border border-line p-4">
                    <Link to={`/giveaways/${draw.drawSlug}`} className="font-bold text-link underline">
                      {draw.drawTitle}
                    </Link>
                    <p className="wide tabular mt-1 text-xl font-black">{draw.numbers.join(", ")}</p>
                    {draw.instantWins.map((win) => (
                      <p
                        key={win.number}
                        className="mt-2 rounded-xl bg-amber-100 px-3 py-2 font-bold text-neutral-950"
                        data-testid="instant-win"
                      >
                        Instant win! Entry {win.number} wins {win.prize}. We will be in touch to arrange it.
                      </p>
                    ))}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {order.passes.length > 0 ? (
            <section aria-labelledby="passes-title" className="space-y-4">
              <h2 id="passes-title" className="wide text-2xl font-extrabold">
                Your exhibitor pass
              </h2>
              <ul className="grid gap-4">
                {order.passes.map((pass) => (
                  <li key={pass.id}>
                    <PassCard pass={pass} />
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {order.tickets.length > 0 || (order.entries.length === 0 && order.passes.length === 0) ? (
            <section aria-labelledby="tickets-title" className="min-w-0">
              <h2 id="tickets-title" className="wide text-2xl font-extrabold">
                Your e-tickets <span className="text-muted tabular">({count})</span>
              </h2>
              {count === 0 ? (
                <p className="mt-4 text-muted">This order has no tickets.</p>
              ) : (
                <ul className="mt-5 grid gap-4">
                  {order.tickets.map((ticket) => (
                    <li key={ticket.id}>
                      <TicketCard ticket={ticket} />
                    </li>
                  ))}
                </ul>
              )}
            </section>
          ) : null}
        </div>
        <section
          aria-labelledby="order-title"
          className="h-fit rounded-2xl border border-line p-5 print:break-before-page"
        >
          <h2 id="order-title" className="wide text-xl font-extrabold">
            Order {order.number}
          </h2>
          <p className="mt-1 text-sm text-muted">Placed {order.placedAt}</p>
          <div className="mt-4">
            <OrderLines order={order} caption={`Items in order ${order.number}`} />
          </div>
        </section>
      </div>
    </main>
  );
}

/** Printing needs the browser; without JavaScript the browser's own Print does the same. */
function PrintButton() {
  return (
    <button
      type="button"
      onClick={() => window.print()}
      className="inline-flex items-center gap-2 rounded-full bg-accent px-5 py-2.5 font-semibold text-on-accent hover:bg-accent-strong"
    >
      <Printer aria-hidden className="size-4" /> Print tickets
    </button>
  );
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `Order ${data.order.number} confirmed` : "Order" },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
