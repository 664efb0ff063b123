import { Form } from "react-router";
import { Badge } from "~/ui/badge";
import { Card } from "~/ui/card";
import { FieldErrors, SubmitButton } from "~/ui/form";
import { formatMoney, moneyInputValue } from "~/ui/money";
import { Checkbox, FormProblem, type Reply, replyFor, TextInput } from "./admin-fields";
import { LIMITS } from "./limits";

/**
 * A product's variants in the editor (docs/shop.md): each with its stock at a glance, its fields,
 * a stock adjustment form and the adjustment history; and the form that adds one.
 */

export type EditorVariant = {
  id: string;
  sku: string;
  options: string[];
  price: number;
  stock: number;
  held: number;
  maxPerOrder: number;
  active: boolean;
  hasOrders: boolean;
  history: { id: string; delta: number; stockAfter: number; reason: string; actor: string | null; createdAt: string }[];
};

function VariantFields({
  form,
  optionNames,
  variant,
  reply,
}: {
  form: string;
  optionNames: string[];
  variant?: EditorVariant;
  reply?: Reply;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {optionNames.map((name, index) => (
        <TextInput
          key={name}
          form={form}
          name={`option-${index}`}
          label={name}
          value={variant?.options[index] ?? ""}
          reply={
            reply
              ? { ...reply, errors: { ...reply.errors, [`option-${index}`]: reply.errors[`options.${index}`] ?? "" } }
              : undefined
          }
          maxLength={LIMITS.optionValue}
          required
        />
      ))}
      <TextInput
        form={form}
        name="sku"
        label="SKU"
        value={variant?.sku ?? ""}
        reply={reply}
        maxLength={LIMITS.sku}
        required
      />
      <TextInput
        form={form}
        name="price"
        label="Price"
        value={variant ? moneyInputValue(variant.price) : ""}
        reply={reply}
        inputMode="decimal"
        required
      />
      <TextInput
        form={form}
        name="maxPerOrder"
        label="Most per order"
        type="number"
        inputMode="numeric"
        min={1}
        max={LIMITS.maxPerOrder}
        value={String(variant?.maxPerOrder ?? 10)}
        reply={reply}
      />
      <div className="flex items-end">
        <Checkbox form={form} name="active" label="On sale" checked={variant?.active ?? true} reply={reply} />
      </div>
      {reply?.errors.options ? (
        <p className="text-sm font-medium text-red-700 sm:col-span-2 lg:col-span-4 dark:text-red-300">
          {reply.errors.options}
        </p>
      ) : null}
    </div>
  );
}

function StockForm({ variant, reply }: { variant: EditorVariant; reply?: Reply }) {
  const form = `stock-${variant.id}`;
  const modeError = reply?.errors.mode;
  const mode = reply?.values.mode ?? "add";
  return (
    <Form method="post" className="space-y-3" noValidate aria-label={`Adjust stock of ${variant.sku}`}>
      <input type="hidden" name="intent" value="stock" />
      <input type="hidden" name="variantId" value={variant.id} />
      <fieldset className="flex flex-wrap gap-4 text-sm font-semibold">
        <legend className="sr-only">Set or add</legend>
        <label className="flex min-h-11 items-center gap-2">
          <input type="radio" name="mode" value="add" defaultChecked={mode === "add"} className="size-4" /> Add or take
          away
        </label>
        <label className="flex min-h-11 items-center gap-2">
          <input type="radio" name="mode" value="set" defaultChecked={mode === "set"} className="size-4" /> Set the
          count to
        </label>
      </fieldset>
      <FieldErrors id={`${form}-mode-error`} errors={modeError ? [modeError] : undefined} />
      <div className="grid gap-3 sm:grid-cols-[8rem_1fr_auto] sm:items-start">
        <TextInput
          form={form}
          name="amount"
          label="Amount"
          type="number"
          inputMode="numeric"
          value=""
          reply={reply}
          hint="Negative takes away."
          required
        />
        <TextInput
          form={form}
          name="reason"
          label="Reason"
          value=""
          reply={reply}
          maxLength={LIMITS.reason}
          hint="Delivery, stock count, damaged…"
          required
        />
        <div className="sm:pt-7">
          <SubmitButton fit intent="stock" pendingLabel="Saving…" variant="secondary">
            Adjust stock
          </SubmitButton>
        </div>
      </div>
    </Form>
  );
}

/** One variant: its stock at a glance, its fields, stock adjustments and their history. */
export function VariantCard({
  variant,
  optionNames,
  threshold,
  reply,
  currency,
}: {
  variant: EditorVariant;
  optionNames: string[];
  threshold: number;
  reply?: Reply;
  currency: string;
}) {
  const available = Math.max(0, variant.stock - variant.held);
  const label = variant.options.join(" / ") || variant.sku;
  const low = variant.active && available <= threshold;
  const updateReply = replyFor(reply, "update-variant", variant.id);
  const deleteReply = replyFor(reply, "delete-variant", variant.id);
  const stockReply = replyFor(reply, "stock", variant.id);
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
          </span>
        </div>
      </div>
      <FormProblem reply={updateReply ?? deleteReply ?? stockReply} />
      <details className="group" open={Boolean(updateReply)}>
        <summary className="cursor-pointer text-sm font-bold text-link">Edit variant</summary>
        <Form method="post" className="mt-3 space-y-4" noValidate>
          <input type="hidden" name="intent" value="update-variant" />
          <input type="hidden" name="variantId" value={variant.id} />
          <VariantFields
            form={`variant-${variant.id}`}
            optionNames={optionNames}
            variant={variant}
            reply={updateReply}
          />
          <SubmitButton fit intent="update-variant" pendingLabel="Saving…" variant="secondary">
            Save variant
          </SubmitButton>
        </Form>
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
      <StockForm variant={variant} reply={stockReply} />
      {variant.history.length > 0 ? (
        <details>
          <summary className="cursor-pointer text-sm font-bold text-link">
            Stock history ({variant.history.length})
          </summary>
          <table className="mt-2 w-full text-left text-sm">
            <caption className="sr-only">Stock adjustments of {label}</caption>
            <thead className="text-muted">
              <tr>
                <th scope="col" className="py-1 pr-3 font-semibold">
                  When
                </th>
                <th scope="col" className="py-1 pr-3 font-semibold">
                  Change
                </th>
                <th scope="col" className="py-1 pr-3 font-semibold">
                  After
                </th>
                <th scope="col" className="py-1 pr-3 font-semibold">
                  Reason
                </th>
                <th scope="col" className="py-1 font-semibold">
                  By
                </th>
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
      ) : null}
    </Card>
  );
}

export function AddVariantForm({ optionNames, reply }: { optionNames: string[]; reply?: Reply }) {
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
      <FormProblem reply={reply} />
      <Form method="post" className="space-y-4" noValidate>
        <input type="hidden" name="intent" value="add-variant" />
        <VariantFields form="new-variant" optionNames={optionNames} reply={reply} />
        <SubmitButton fit intent="add-variant" pendingLabel="Adding…">
          Add variant
        </SubmitButton>
      </Form>
    </Card>
  );
}
