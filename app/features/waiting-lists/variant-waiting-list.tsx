import { Clock, ListOrdered } from "lucide-react";
import { Form, Link } from "react-router";
import { countOf } from "~/ui/plural";
import { ordinal } from "./waiting-list-rules";
import type { MemberListOnProduct } from "./waiting-lists.server";

/** A sold-out variant as the product page's waiting list offers it. */
export type SoldOutVariant = { id: string; label: string; maxPerOrder: number };

/**
 * Under a product's Add to cart, when some of its variants have sold out: where the member stands
 * on the lines they are on (or what is held for them), and a plain POST form to join the line for
 * another (a visitor is asked to sign in first).
 */
export function VariantWaitingList({
  soldOut,
  entries,
  offerHours,
  problem,
}: {
  soldOut: SoldOutVariant[];
  offerHours: number;
  entries: Record<string, MemberListOnProduct>;
  problem?: string;
}) {
  const mine = soldOut.flatMap((variant) => {
    const entry = entries[variant.id];
    return entry ? [{ variant, entry }] : [];
  });
  const open = soldOut.filter((variant) => !entries[variant.id]);
  if (mine.length === 0 && open.length === 0) return null;
  const errorId = "variant-waiting-error";
  const most = Math.min(Math.max(...open.map((variant) => variant.maxPerOrder), 1), 10);
  return (
    <section aria-labelledby="variant-waiting-title" className="space-y-3 rounded-2xl bg-surface-sunken p-4">
      <h2 id="variant-waiting-title" className="font-bold">
        Sold out in the one you want?
      </h2>
      {mine.length > 0 ? (
        <ul className="space-y-2 text-sm">
          {mine.map(({ variant, entry }) => (
            <li key={variant.id} className="flex items-start gap-2">
              {entry.offerEndsLabel ? (
                <>
                  <Clock aria-hidden className="mt-0.5 size-4 shrink-0 text-accent-ink" />
                  <p>
                    <span className="font-semibold">
                      {variant.label}: {countOf(entry.quantity, "item", "items")} held for you until{" "}
                      {entry.offerEndsLabel}.
                    </span>{" "}
                    {/* A document request: the offer's link is a resource route that fills the cart. */}
                    <Link to={`/members/offers/${entry.entryId}`} reloadDocument className="text-link underline">
                      {entry.quantity === 1 ? "Buy it now" : "Buy them now"}
                    </Link>
                  </p>
                </>
              ) : (
                <>
                  <ListOrdered aria-hidden className="mt-0.5 size-4 shrink-0" />
                  <p>
                    {variant.label}: you are{" "}
                    <span className="font-semibold">{ordinal(entry.position ?? 1)} in line</span> for{" "}
                    {countOf(entry.quantity, "item", "items")}.{" "}
                    <Link to="/members/events#waiting-lists" className="font-semibold text-link underline">
                      Your lists
                    </Link>
                  </p>
                </>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {open.length > 0 ? (
        <Form method="post" className="flex flex-wrap items-end gap-3" aria-describedby={problem ? errorId : undefined}>
          {open.length === 1 ? (
            <>
              <input type="hidden" name="variantId" value={open[0]!.id} />
              <p className="basis-full text-sm">{open[0]!.label} has sold out.</p>
            </>
          ) : (
            <label className="grid gap-1 text-sm font-semibold">
              Sold out
              <select
                name="variantId"
                required
                className="h-11 rounded-lg border border-line bg-surface px-3 font-normal"
              >
                {open.map((variant) => (
                  <option key={variant.id} value={variant.id}>
                    {variant.label}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label className="grid gap-1 text-sm font-semibold">
            How many
            <select name="quantity" className="h-11 rounded-lg border border-line bg-surface px-3 font-normal">
              {Array.from({ length: most }, (_, index) => index + 1).map((count) => (
                <option key={count}>{count}</option>
              ))}
            </select>
          </label>
          <button
            type="submit"
            name="intent"
            value="join-waiting-list"
            className="h-11 rounded-full border-2 border-text px-5 font-bold hover:bg-surface"
          >
            Join the waiting list
          </button>
          <p className="basis-full text-sm text-muted">
            When it is back in stock, we email the first in line and hold it for them for {offerHours} hours.
          </p>
          {problem ? (
            <p id={errorId} role="alert" className="basis-full text-sm font-semibold text-red-700 dark:text-red-400">
              {problem}
            </p>
          ) : null}
        </Form>
      ) : null}
    </section>
  );
}
