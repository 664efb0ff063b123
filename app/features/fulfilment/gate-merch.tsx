import { PackageCheck, ShoppingBag } from "lucide-react";
import { useFetcher } from "react-router";
import { lineLabel, type MerchLine } from "./lines";

export type GateMerchOrder = { id: string; reference: string; lines: MerchLine[] };

function HandOver({ order }: { order: GateMerchOrder }) {
  const fetcher = useFetcher<{ handedOver?: string; problem?: string }>();
  const done = fetcher.data?.handedOver;
  return (
    <li className="flex flex-wrap items-center gap-3 border-t border-current/20 pt-3 first:border-0 first:pt-0">
      <p className="min-w-0 flex-1 font-semibold">
        {order.lines.map(lineLabel).join(", ")} — order <span className="font-mono">{order.reference}</span>
      </p>
      {done ? (
        <p role="status" className="inline-flex items-center gap-1.5 font-bold">
          <PackageCheck aria-hidden className="size-5" /> Handed over
        </p>
      ) : (
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="handover" />
          <input type="hidden" name="orderId" value={order.id} />
          <button
            type="submit"
            aria-disabled={fetcher.state !== "idle" || undefined}
            className="inline-flex items-center gap-1.5 rounded-full bg-asphalt-950 px-4 py-2 text-sm font-bold text-white aria-disabled:opacity-70"
          >
            {fetcher.state !== "idle" ? "Saving…" : "Mark handed over"}
            <span className="sr-only"> ({order.reference})</span>
          </button>
        </fetcher.Form>
      )}
      {fetcher.data?.problem ? (
        <p role="alert" className="w-full text-sm font-semibold">
          {fetcher.data.problem}
        </p>
      ) : null}
    </li>
  );
}

/** At the gate, under the scan result: merch this ticket holder bought to collect here. */
export function GateMerch({ orders }: { orders: GateMerchOrder[] }) {
  if (orders.length === 0) return null;
  return (
    <section aria-labelledby="gate-merch" className="rounded-2xl bg-amber-300 p-5 text-asphalt-950 shadow-lg">
      <h3 id="gate-merch" className="flex items-center gap-2 text-lg font-extrabold">
        <ShoppingBag aria-hidden className="size-5" /> Merch to collect
      </h3>
      <ul className="mt-3 space-y-3">
        {orders.map((order) => (
          <HandOver key={order.id} order={order} />
        ))}
      </ul>
    </section>
  );
}
