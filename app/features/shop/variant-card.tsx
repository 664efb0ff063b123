import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { useMemo } from "react";
import { Form } from "react-router";
import { type PriceTier, tierPriceInputValues } from "~/features/forms/fields";
import { Badge } from "~/ui/badge";
import { Card } from "~/ui/card";
import { Checkbox, FieldErrors, FormErrors, SubmitButton } from "~/ui/form";
import { InputField, RadioField } from "~/ui/form-fields";
import { useLiveForm } from "~/ui/live-form";
import { currencySymbol, formatMoney, moneyInputValue } from "~/ui/money";
import type { AdminVariant } from "./admin.server";
import {
  STOCK_MODE_LABELS,
  type StockInput,
  stockSchema,
  type VariantFormDefaults,
  type VariantInput,
  variantSchema,
} from "./schemas";

/**
 * A product's variants in the editor (docs/shop.md): each with its stock at a glance, its fields,
 * a stock adjustment form and the adjustment history; and the form that adds one.
 */

type Result = SubmissionResult<string[]>;

/** A variant as the editor's page receives it: its history's times as ISO text. */
export type EditorVariant = Omit<AdminVariant, "history"> & {
  history: (Omit<AdminVariant["history"][number], "createdAt"> & { createdAt: string })[];
};

/** The answers to one variant's forms, each given to the form it came from. */
type VariantResults = { update?: Result; remove?: Result; stock?: Result };

/** A variant's fields: one value per option, SKU, price, what members (of each tier) pay, most per order, on sale. */
function VariantForm({
  id,
  intent,
  variantId,
  optionNames,
  tiers,
  currency,
  defaultValue,
  lastResult,
  submit,
}: {
  id: string;
  intent: "add-variant" | "update-variant";
  variantId?: string;
  optionNames: string[];
  tiers: readonly PriceTier[];
  currency: string;
  defaultValue: VariantFormDefaults;
  lastResult?: Result;
  submit: { label: string; pending: string; variant: "primary" | "secondary" };
}) {
  const schema = useMemo(() => variantSchema({ optionNames, currency, tiers }), [optionNames, currency, tiers]);
  const [form, fields] = useLiveForm<VariantFormDefaults, VariantInput>({ id, schema, lastResult, defaultValue });
  const options = fields.options.getFieldList();
  const tierFields = fields.tierPrices.getFieldset();
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value={intent} />
      {variantId ? <input type="hidden" name="variantId" value={variantId} /> : null}
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {optionNames.map((name, index) =>
          options[index] ? <InputField key={name} meta={options[index]} label={name} /> : null,
        )}
        <InputField meta={fields.sku} label="SKU" inputProps={{ autoCapitalize: "characters", spellCheck: false }} />
        <InputField meta={fields.price} label="Price" kind="money" prefix={currencySymbol(currency)} />
        <InputField
          meta={fields.memberPrice}
          label="What members pay (optional)"
          kind="money"
          prefix={currencySymbol(currency)}
          hint="What club members pay. Empty: the same as everyone."
        />
        {tiers.map((tier) => (
          <InputField
            key={tier.id}
            meta={tierFields[tier.id]!}
            label={`What ${tier.name} members pay (optional)`}
            kind="money"
            prefix={currencySymbol(currency)}
            hint="Empty: what members pay."
          />
        ))}
        <InputField meta={fields.maxPerOrder} label="Most per order" kind="number" />
        <div className="flex items-end pb-3">
          <Checkbox meta={fields.active}>On sale</Checkbox>
        </div>
        <div className="sm:col-span-2 lg:col-span-4">
          <FieldErrors id={fields.options.errorId} errors={fields.options.errors} />
        </div>
      </div>
      <SubmitButton fit intent={intent} pendingLabel={submit.pending} variant={submit.variant}>
        {submit.label}
      </SubmitButton>
    </Form>
  );
}

function StockForm({ variant, lastResult }: { variant: EditorVariant; lastResult?: Result }) {
  const [form, fields] = useLiveForm<{ mode: string; amount: string; reason: string }, StockInput>({
    id: `stock-${variant.id}`,
    schema: stockSchema,
    lastResult,
    defaultValue: { mode: "add" },
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3" aria-label={`Adjust stock of ${variant.sku}`}>
      <input type="hidden" name="intent" value="stock" />
      <input type="hidden" name="variantId" value={variant.id} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <RadioField
        meta={fields.mode}
        legend="Set or add"
        legendHidden
        options={Object.entries(STOCK_MODE_LABELS).map(([value, label]) => ({ value, label }))}
      />
      <div className="grid gap-3 sm:grid-cols-[8rem_1fr_auto] sm:items-start">
        <InputField meta={fields.amount} label="Amount" kind="number" hint="Negative takes away." />
        <InputField meta={fields.reason} label="Reason" hint="Delivery, stock count, damaged…" />
        <div className="sm:pt-8">
          <SubmitButton fit intent="stock" pendingLabel="Saving…" variant="secondary">
            Adjust stock
          </SubmitButton>
        </div>
      </div>
    </Form>
  );
}

function StockHistory({ variant, label }: { variant: EditorVariant; label: string }) {
  if (variant.history.length === 0) return null;
  return (
    <details>
      <summary className="cursor-pointer text-sm font-bold text-link">Stock history ({variant.history.length})</summary>
      <table className="mt-2 w-full text-left text-sm">
        <caption className="sr-only">Stock adjustments of {label}</caption>
        <thead className="text-muted">
          <tr>
            {["When", "Change", "After", "Reason", "By"].map((heading) => (
              <th key={heading} scope="col" className="py-1 pr-3 font-semibold last:pr-0">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {variant.history.map((row) => (
            <tr key={row.id}>
              <td className="tabular py-1.5 pr-3">{row.createdAt.slice(0, 16).replace("T", " ")}</td>
              <td className="tabular py-1.5 pr-3 font-semibold">{row.delta > 0 ? `+${row.delta}` : row.delta}</td>
              <td className="tabular py-1.5 pr-3">{row.stockAfter}</td>
              <td className="py-1.5 pr-3">{row.reason}</td>
              <td className="py-1.5">{row.actor ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** One variant: its stock at a glance, its fields, stock adjustments and their history. */
export function VariantCard({
  variant,
  optionNames,
  tiers,
  threshold,
  results,
  currency,
}: {
  variant: EditorVariant;
  optionNames: string[];
  tiers: readonly PriceTier[];
  threshold: number;
  results: VariantResults;
  currency: string;
}) {
  const available = Math.max(0, variant.stock - variant.held);
  const label = variant.options.join(" / ") || variant.sku;
  const low = variant.active && available <= threshold;
  return (
    <Card
      as="li"
      className={`space-y-4 p-5 ${low ? "border-amber-500" : ""}`}
      aria-labelledby={`variant-${variant.id}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id={`variant-${variant.id}`} className="text-lg font-extrabold">
          {label} <span className="text-sm font-semibold text-muted">{variant.sku}</span>
        </h3>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          {!variant.active ? <Badge tone="quiet">Off sale</Badge> : null}
          {variant.active && available === 0 ? <Badge tone="danger">Sold out</Badge> : null}
          {variant.active && available > 0 && low ? <Badge tone="warning">Low stock</Badge> : null}
          <span className="tabular font-semibold">
            {variant.stock} on the shelf{variant.held > 0 ? `, ${variant.held} held` : ""} ·{" "}
            {formatMoney(variant.price, currency)}
            {variant.memberPrice !== null ? ` · Members pay ${formatMoney(variant.memberPrice, currency)}` : ""}
            {tiers.map((tier) =>
              variant.tierPrices[tier.id] === undefined
                ? ""
                : ` · ${tier.name} members pay ${formatMoney(variant.tierPrices[tier.id]!, currency)}`,
            )}
          </span>
        </div>
      </div>
      <FormErrors id={`variant-${variant.id}-error`} errors={results.remove?.error?.[""] ?? undefined} />
      <details className="group" open={Boolean(results.update)}>
        <summary className="cursor-pointer text-sm font-bold text-link">Edit variant</summary>
        <div className="mt-3">
          <VariantForm
            id={`variant-form-${variant.id}`}
            intent="update-variant"
            variantId={variant.id}
            optionNames={optionNames}
            tiers={tiers}
            currency={currency}
            defaultValue={{
              options: optionNames.map((_, index) => variant.options[index] ?? ""),
              sku: variant.sku,
              price: moneyInputValue(variant.price),
              memberPrice: variant.memberPrice === null ? "" : moneyInputValue(variant.memberPrice),
              tierPrices: tierPriceInputValues(variant.tierPrices),
              maxPerOrder: String(variant.maxPerOrder),
              active: variant.active ? "on" : undefined,
            }}
            lastResult={results.update}
            submit={{ label: "Save variant", pending: "Saving…", variant: "secondary" }}
          />
        </div>
        {variant.hasOrders ? (
          <p className="mt-3 text-sm text-muted">
            Sold before, so it cannot be deleted: untick "On sale" to stop selling it.
          </p>
        ) : (
          <Form method="post" className="mt-3">
            <input type="hidden" name="intent" value="delete-variant" />
            <input type="hidden" name="variantId" value={variant.id} />
            <SubmitButton fit intent="delete-variant" variant="danger" pendingLabel="Deleting…">
              Delete variant
            </SubmitButton>
          </Form>
        )}
      </details>
      {/* A new count remounts the form, so it starts empty after an adjustment. */}
      <StockForm key={variant.stock} variant={variant} lastResult={results.stock} />
      <StockHistory variant={variant} label={label} />
    </Card>
  );
}

export function AddVariantForm({
  optionNames,
  tiers,
  currency,
  lastResult,
}: {
  optionNames: string[];
  tiers: readonly PriceTier[];
  currency: string;
  lastResult?: Result;
}) {
  return (
    <Card as="section" aria-labelledby="add-variant" className="space-y-4 p-5">
      <h3 id="add-variant" className="text-lg font-extrabold">
        Add a variant
      </h3>
      <p className="text-sm text-muted">
        {optionNames.length > 0
          ? `One per combination of ${optionNames.join(" and ").toLowerCase()}. It starts with no stock: add it below once saved.`
          : "This product has no options: its one variant is what is sold. It starts with no stock."}
      </p>
      <VariantForm
        id="new-variant"
        intent="add-variant"
        optionNames={optionNames}
        tiers={tiers}
        currency={currency}
        defaultValue={{ options: optionNames.map(() => ""), maxPerOrder: "10", active: "on" }}
        lastResult={lastResult}
        submit={{ label: "Add variant", pending: "Adding…", variant: "primary" }}
      />
    </Card>
  );
}
