import { formatMoney } from "~/ui/money";
import { HeaderRow } from "~/ui/table";
import type { OrderView } from "./order-views.server";

/** An order's lines and totals as a table, for /success and the printable receipt. */
export function OrderLines({ order, caption }: { order: OrderView; caption: string }) {
  const money = (minor: number) => formatMoney(minor, order.currency);
  return (
    <>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-xs uppercase tracking-wider text-muted">
          <HeaderRow
            className="border-b border-line"
            cellClassName="py-2 font-semibold"
            columns={[
              { label: "Item", className: "pr-3" },
              { label: "Qty", className: "pr-3 text-right" },
              { label: "Unit price", className: "hidden pr-3 text-right sm:table-cell" },
              { label: "Amount", className: "text-right" },
            ]}
          />
        </thead>
        <tbody>
          {order.items.map((item) => (
            <tr key={item.id} className="border-b border-line align-top">
              <td className="py-3 pr-3">
                {item.description}
                <span className="block text-muted sm:hidden">{money(item.unitPrice)} each</span>
                {item.refundedQuantity > 0 ? (
                  <span className="block text-muted">{item.refundedQuantity} refunded</span>
                ) : null}
              </td>
              <td className="py-3 pr-3 text-right tabular">{item.quantity}</td>
              <td className="hidden py-3 pr-3 text-right tabular sm:table-cell">{money(item.unitPrice)}</td>
              <td className="py-3 text-right tabular">{money(item.lineTotal)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          {order.discount > 0 ? (
            <tr>
              <th scope="row" colSpan={3} className="pt-3 pr-3 text-right font-normal text-muted">
                Code <span className="font-mono">{order.voucherCode}</span>
              </th>
              <td className="pt-3 text-right tabular">−{money(order.discount)}</td>
            </tr>
          ) : null}
          {order.shipping > 0 ? (
            <tr>
              <th scope="row" colSpan={3} className="pt-3 pr-3 text-right font-normal text-muted">
                {order.delivery?.method === "collection" ? "Collection" : "Shipping"}
              </th>
              <td className="pt-3 text-right tabular">{money(order.shipping)}</td>
            </tr>
          ) : null}
          {order.credit > 0 ? (
            <tr>
              <th scope="row" colSpan={3} className="pt-3 pr-3 text-right font-normal text-muted">
                Account credit
              </th>
              <td className="pt-3 text-right tabular">−{money(order.credit)}</td>
            </tr>
          ) : null}
          <tr>
            <th scope="row" colSpan={3} className="pt-3 pr-3 text-right text-base font-bold">
              Total
            </th>
            <td className="pt-3 text-right text-base font-bold tabular">{money(order.total)}</td>
          </tr>
        </tfoot>
      </table>
      {order.delivery ? (
        <div className="mt-4 text-sm">
          <p className="font-semibold">{order.delivery.heading}</p>
          <address className="not-italic text-muted">
            {order.delivery.lines.map((line) => (
              <span key={line} className="block">
                {line}
              </span>
            ))}
          </address>
        </div>
      ) : null}
    </>
  );
}

/** "Payment £87.00 · Sat 12 Jun 2027, 10:00 BST"; refunds with their state and reason. */
export function OrderPayments({ order }: { order: OrderView }) {
  if (order.transactions.length === 0) return <p className="text-sm text-muted">No payment was needed.</p>;
  return (
    <ul className="divide-y divide-line text-sm">
      {order.transactions.map((entry) => (
        <li key={entry.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
          <span>
            <span className="font-semibold">
              {entry.kind === "charge" ? "Payment" : entry.status === "pending" ? "Refund (on its way)" : "Refund"}
              {entry.status === "failed" ? " (failed)" : ""}
            </span>{" "}
            <span className="text-muted">{entry.at}</span>
            {entry.kind === "refund" && entry.reason ? <span className="block text-muted">{entry.reason}</span> : null}
          </span>
          <span className="tabular font-semibold">
            {entry.kind === "refund" ? "−" : ""}
            {formatMoney(entry.amount, order.currency)}
          </span>
        </li>
      ))}
    </ul>
  );
}
