import { Ruler } from "lucide-react";
import { useEffect, useState } from "react";
import { Form } from "react-router";
import { Badge } from "~/ui/badge";
import { Card } from "~/ui/card";
import { formatMoney } from "~/ui/money";
import { useSite } from "~/ui/site";
import type { ProductImage } from "../../../db/schema";
import type { StockBadge } from "./catalogue-labels";
import { ProductPicture } from "./product-picture";

/**
 * The product page's parts. Adding to the cart is a plain POST form, so it works without
 * JavaScript; with it, the option pickers show what is left of each combination.
 */

/**
 * The product photos: a row that scrolls with a swipe or the arrow keys (it is focusable), each
 * photo snapping into place, and thumbnails that jump to a photo. No script needed.
 */
export function ProductGallery({ images, title }: { images: ProductImage[]; title: string }) {
  if (images.length === 0) {
    return <ProductPicture image={null} layout="gallery" className="aspect-[4/5] w-full rounded-2xl" />;
  }
  return (
    <section aria-label={`Photos of ${title}`} className="space-y-3">
      <ul
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so keyboards can scroll it.
        tabIndex={0}
        className="flex snap-x snap-mandatory gap-3 overflow-x-auto rounded-2xl focus-visible:outline-2 focus-visible:outline-accent"
      >
        {images.map((image, index) => (
          <li
            key={image.hash}
            id={`photo-${index + 1}`}
            className="w-full shrink-0 snap-center overflow-hidden rounded-2xl bg-surface-sunken"
          >
            <ProductPicture image={image} layout="gallery" priority={index === 0} className="aspect-[4/5] size-full" />
          </li>
        ))}
      </ul>
      {images.length > 1 ? (
        <>
          <ul className="flex gap-2" aria-label="Choose a photo">
            {images.map((image, index) => (
              <li key={image.hash}>
                <a
                  href={`#photo-${index + 1}`}
                  className="block w-16 overflow-hidden rounded-lg ring-1 ring-line hover:ring-2 hover:ring-accent focus-visible:ring-2 focus-visible:ring-accent"
                >
                  <ProductPicture image={{ ...image, alt: "" }} layout="thumb" className="aspect-[4/5] w-full" />
                  <span className="sr-only">
                    Photo {index + 1}: {image.alt}
                  </span>
                </a>
              </li>
            ))}
          </ul>
          <p className="text-sm text-muted">
            {images.length} photos: swipe, or focus the photos and use the arrow keys.
          </p>
        </>
      ) : null}
    </section>
  );
}

export type PickerVariant = {
  id: string;
  options: string[];
  price: number;
  available: number;
  maxPerOrder: number;
  badge: StockBadge;
};

function stockNote(variant: Pick<PickerVariant, "available" | "badge">) {
  if (variant.badge === "Sold out") return "Sold out";
  if (variant.badge === "Few left") return `Only ${variant.available} left`;
  return null;
}

/** The variants that match `chosen` on every option but `except` (null: not chosen yet, anything goes). */
function matching(variants: PickerVariant[], chosen: (string | null)[], except: number) {
  return variants.filter((variant) =>
    chosen.every((value, index) => index === except || value === null || variant.options[index] === value),
  );
}

export type AddToCartProblem = { error: string; field: string | null; values: { options: string[]; quantity: string } };

/**
 * Options as radio groups (Size, Colour…), a quantity and Add to cart. Before scripts run, an
 * option is only disabled when it is sold out in every combination; once they run, each choice
 * narrows the others, shows the price and what is left of the combination, and a choice that
 * has run out with the others picked is disabled.
 */
export function AddToCartForm({
  optionNames,
  optionValues,
  variants,
  problem,
}: {
  optionNames: string[];
  optionValues: string[][];
  variants: PickerVariant[];
  problem?: AddToCartProblem;
}) {
  const { currency } = useSite();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [chosen, setChosen] = useState<(string | null)[]>(() =>
    optionNames.map((_, index) => problem?.values.options[index] || null),
  );
  const effective = hydrated ? chosen : optionNames.map(() => null);
  const selected =
    optionNames.length === 0
      ? variants[0]
      : chosen.every(Boolean)
        ? variants.find((variant) => variant.options.every((value, index) => value === chosen[index]))
        : undefined;
  const prices = variants.map((variant) => variant.price);
  const samePrice = prices.every((price) => price === prices[0]);
  const allSoldOut = variants.every((variant) => variant.available === 0);
  const maxQuantity = selected ? Math.max(1, Math.min(selected.maxPerOrder, selected.available)) : 10;

  const choose = (index: number, value: string) => {
    setChosen((current) => {
      const next = current.map((item, i) => (i === index ? value : item));
      // A choice elsewhere that has run out with this one is let go, so it is picked again.
      return next.map((item, i) => {
        if (i === index || item === null) return item;
        const left = matching(variants, next, -1).reduce((sum, variant) => sum + variant.available, 0);
        return left > 0 ? item : null;
      });
    });
  };

  const errorId = "add-to-cart-error";
  return (
    <Form method="post" className="space-y-6" aria-describedby={problem ? errorId : undefined}>
      {problem ? (
        <p
          id={errorId}
          role="alert"
          className="rounded-xl bg-red-100 px-4 py-3 font-semibold text-red-900 dark:bg-red-950 dark:text-red-100"
        >
          {problem.error}
        </p>
      ) : null}
      {optionNames.map((name, index) => (
        <fieldset key={name} className="space-y-2">
          <legend className="text-sm font-bold uppercase tracking-[0.14em] text-muted">{name}</legend>
          <div className="flex flex-wrap gap-2">
            {(optionValues[index] ?? []).map((value) => {
              const candidates = matching(variants, effective, index).filter(
                (variant) => variant.options[index] === value,
              );
              const left = candidates.reduce((sum, variant) => sum + variant.available, 0);
              const disabled = left === 0;
              // Once the other options are picked, this value names one variant: show its price and stock.
              const one =
                candidates.length === 1 && effective.every((item, i) => i === index || item !== null)
                  ? candidates[0]
                  : undefined;
              const note = one ? stockNote(one) : disabled ? "Sold out" : null;
              const id = `option-${index}-${value.replace(/[^A-Za-z0-9]+/g, "-")}`;
              return (
                <div key={value}>
                  <input
                    type="radio"
                    id={id}
                    name={`option-${index}`}
                    value={value}
                    required
                    disabled={disabled}
                    checked={chosen[index] === value}
                    onChange={() => choose(index, value)}
                    className="peer sr-only"
                  />
                  <label
                    htmlFor={id}
                    className="flex min-h-11 min-w-14 cursor-pointer flex-col items-center justify-center rounded-xl px-3 py-1.5 text-center ring-1 ring-line transition-colors hover:ring-accent peer-checked:bg-text peer-checked:text-surface peer-checked:ring-text peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-accent peer-disabled:cursor-not-allowed peer-disabled:text-muted peer-disabled:line-through peer-disabled:hover:ring-line"
                  >
                    <span className="font-bold">{value}</span>
                    {one && !samePrice ? (
                      <span className="tabular text-xs">{formatMoney(one.price, currency)}</span>
                    ) : null}
                    {note ? <span className="text-xs font-semibold no-underline">{note}</span> : null}
                  </label>
                </div>
              );
            })}
          </div>
        </fieldset>
      ))}
      {optionNames.length > 0 ? (
        <p aria-live="polite" className="min-h-6 text-sm font-semibold">
          {selected ? (
            <>
              {selected.options.join(" / ")}: <span className="tabular">{formatMoney(selected.price, currency)}</span>
              {stockNote(selected) ? (
                <Badge tone={selected.available === 0 ? "danger" : "warning"} className="ml-2">
                  {stockNote(selected)}
                </Badge>
              ) : null}
            </>
          ) : hydrated ? (
            `Choose ${optionNames.map((name) => name.toLowerCase()).join(" and ")}`
          ) : null}
        </p>
      ) : selected && stockNote(selected) ? (
        <p>
          <Badge tone={selected.available === 0 ? "danger" : "warning"}>{stockNote(selected)}</Badge>
        </p>
      ) : null}
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="quantity" className="mb-1.5 block text-sm font-bold">
            Quantity
          </label>
          <input
            id="quantity"
            name="quantity"
            type="number"
            inputMode="numeric"
            min={1}
            max={maxQuantity}
            defaultValue={problem?.values.quantity || "1"}
            required
            aria-invalid={problem?.field === "quantity" ? true : undefined}
            className="h-12 w-24 rounded-xl border border-line bg-surface px-3 text-base"
          />
        </div>
        <button
          type="submit"
          disabled={allSoldOut}
          className="inline-flex h-12 flex-1 items-center justify-center rounded-xl bg-accent px-6 font-bold text-on-accent transition-colors hover:bg-accent-strong disabled:cursor-not-allowed disabled:opacity-60 sm:flex-none"
        >
          {allSoldOut ? "Sold out" : "Add to cart"}
        </button>
      </div>
      {!samePrice && !selected ? (
        <p className="text-sm text-muted">The price depends on the options you choose.</p>
      ) : null}
    </Form>
  );
}

/** The size guide's table, folded away until asked for. */
export function SizeGuide({ html }: { html: string }) {
  return (
    <Card as="details" className="group p-0">
      <summary className="flex min-h-12 cursor-pointer items-center gap-2 px-5 font-bold">
        <Ruler aria-hidden className="size-5 text-accent-ink" />
        Size guide
      </summary>
      {/* Markdown rendered on the server with raw HTML escaped. */}
      <div className="prose-pitlane overflow-x-auto px-5 pb-5" dangerouslySetInnerHTML={{ __html: html }} />
    </Card>
  );
}
