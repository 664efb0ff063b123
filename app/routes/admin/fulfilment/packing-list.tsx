import { Printer } from "lucide-react";
import { Link } from "react-router";
import { packingList } from "~/features/fulfilment/fulfilment.server";
import { addressLines, lineLabel } from "~/features/fulfilment/lines";
import { packingListIds } from "~/features/fulfilment/schemas";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { HeaderRow } from "~/ui/table";
import type { Route } from "./+types/packing-list";

// Outside the dashboard frame: a plain page made for paper, one order per sheet.

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const ids = packingListIds(url.searchParams.getAll("orders").join(","));
  const orders = await packingList(db, ids);
  return {
    siteName: env.SITE_NAME,
    orders: orders.map((order) => ({
      id: order.id,
      reference: order.reference,
      name: order.name,
      email: order.email,
      address:
        order.shippingMethod === "delivery" && order.shippingAddress ? addressLines(order.shippingAddress) : null,
      collection: order.shippingMethod === "collection" ? order.eventTitle : null,
      lines: order.lines.map((line) => ({
        id: line.id,
        label: lineLabel({ ...line, quantity: 1 }).replace(/^1 × /, ""),
        quantity: line.quantity,
      })),
    })),
  };
}

export default function PackingList({ loaderData }: Route.ComponentProps) {
  const { orders, siteName } = loaderData;
  return (
    <main id="main" className="mx-auto max-w-[800px] bg-white px-6 py-8 text-black print:max-w-none print:p-0">
      <div className="mb-8 flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to="/admin/fulfilment" className="font-semibold underline">
          Back to fulfilment
        </Link>
        {orders.length > 0 ? (
          <button
            type="button"
            onClick={() => window.print()}
            className="inline-flex items-center gap-2 rounded-full bg-black px-5 py-2.5 font-bold text-white"
          >
            <Printer aria-hidden className="size-4" /> Print
          </button>
        ) : null}
      </div>
      <h1 className="sr-only">Packing lists</h1>
      {orders.length === 0 ? (
        <p>No paid merch orders were chosen. Select orders on the fulfilment page and print again.</p>
      ) : null}
      {orders.map((order) => (
        <section
          key={order.id}
          aria-labelledby={`packing-${order.id}`}
          className="mb-10 break-after-page border-b border-black/20 pb-10 last:border-0 print:mb-0 print:border-0"
        >
          <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between sm:gap-6 print:flex-row print:justify-between">
            <div>
              <p className="text-sm font-bold uppercase tracking-widest">{siteName} · Packing list</p>
              <h2 id={`packing-${order.id}`} className="mt-1 font-mono text-3xl font-black">
                {order.reference}
              </h2>
              <p className="mt-1">{order.name ? `${order.name} · ${order.email}` : order.email}</p>
            </div>
            <div className="sm:text-right print:text-right">
              {order.address ? (
                <address className="not-italic leading-snug">
                  <span className="block text-sm font-bold uppercase tracking-widest">Deliver to</span>
                  {order.address.map((line) => (
                    <span key={line} className="block">
                      {line}
                    </span>
                  ))}
                </address>
              ) : (
                <p>
                  <span className="block text-sm font-bold uppercase tracking-widest">Collect at</span>
                  {order.collection}
                </p>
              )}
            </div>
          </div>
          <table className="mt-6 w-full border-collapse text-left">
            <thead>
              <HeaderRow
                className="border-b-2 border-black"
                cellClassName="py-2"
                columns={[
                  { label: "Packed", className: "w-16" },
                  "Item",
                  { label: "Qty", className: "w-16 text-right" },
                ]}
              />
            </thead>
            <tbody>
              {order.lines.map((line) => (
                <tr key={line.id} className="border-b border-black/30">
                  <td className="py-3">
                    <span aria-hidden className="inline-block size-5 border-2 border-black" />
                    <span className="sr-only">Not packed yet</span>
                  </td>
                  <td className="py-3">{line.label}</td>
                  <td className="tabular py-3 text-right text-lg font-bold">{line.quantity}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </main>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Packing lists" }, { name: "robots", content: "noindex" }];
