import type { ReactNode } from "react";
import { Form } from "react-router";
import { Badge } from "~/ui/badge";
import { Card } from "~/ui/card";
import { FieldErrors, inputClass, Notice, SubmitButton } from "~/ui/form";
import { formatMoney, moneyInputValue } from "~/ui/money";
import { CATEGORY_LABELS } from "./catalogue-labels";
import { LIMITS } from "./limits";

/**
 * The shop editor's forms (docs/shop.md). Plain forms, checked on the server: a refused form
 * comes back with a message beside each field and what was typed, so nothing is lost.
 */

export type Reply = {
  intent: string;
  target: string | null;
  errors: Record<string, string>;
  values: Record<string, string>;
};

/** The reply meant for this form (its intent and, for a variant or photo, its target). */
export function replyFor(reply: Reply | undefined, intent: string, target: string | null = null) {
  return reply && reply.intent === intent && reply.target === target ? reply : undefined;
}

function fieldId(form: string, name: string) {
  return `${form}-${name}`.replace(/[^A-Za-z0-9_-]/g, "-");
}

export function TextInput({
  form,
  name,
  label,
  value,
  reply,
  hint,
  type = "text",
  required = false,
  maxLength,
  inputMode,
  className,
  min,
  max,
}: {
  form: string;
  name: string;
  label: ReactNode;
  value: string;
  reply?: Reply;
  hint?: ReactNode;
  type?: "text" | "number" | "url";
  required?: boolean;
  maxLength?: number;
  inputMode?: "numeric" | "decimal" | "text";
  className?: string;
  min?: number;
  max?: number;
}) {
  const id = fieldId(form, name);
  const error = reply?.errors[name];
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className={`space-y-1.5 ${className ?? ""}`}>
      <label htmlFor={id} className="block text-sm font-semibold">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={reply ? (reply.values[name] ?? "") : value}
        required={required || undefined}
        maxLength={maxLength}
        inputMode={inputMode}
        min={min}
        max={max}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        className={inputClass(Boolean(error))}
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={`${id}-error`} errors={error ? [error] : undefined} />
    </div>
  );
}

function TextArea({
  form,
  name,
  label,
  value,
  reply,
  hint,
  rows = 6,
  maxLength,
}: {
  form: string;
  name: string;
  label: string;
  value: string;
  reply?: Reply;
  hint?: ReactNode;
  rows?: number;
  maxLength: number;
}) {
  const id = fieldId(form, name);
  const error = reply?.errors[name];
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-semibold">
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        rows={rows}
        maxLength={maxLength}
        defaultValue={reply ? (reply.values[name] ?? "") : value}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        className={`${inputClass(Boolean(error))} font-mono text-sm`}
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={`${id}-error`} errors={error ? [error] : undefined} />
    </div>
  );
}

function Select({
  form,
  name,
  label,
  value,
  reply,
  options,
  hint,
}: {
  form: string;
  name: string;
  label: string;
  value: string;
  reply?: Reply;
  options: [string, string][];
  hint?: ReactNode;
}) {
  const id = fieldId(form, name);
  const error = reply?.errors[name];
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-semibold">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={reply ? (reply.values[name] ?? value) : value}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        className={inputClass(Boolean(error))}
      >
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={`${id}-error`} errors={error ? [error] : undefined} />
    </div>
  );
}

export function Checkbox({
  form,
  name,
  label,
  checked,
  reply,
}: {
  form: string;
  name: string;
  label: string;
  checked: boolean;
  reply?: Reply;
}) {
  const id = fieldId(form, name);
  return (
    <label htmlFor={id} className="flex min-h-11 items-center gap-3 text-sm font-semibold">
      <input
        id={id}
        type="checkbox"
        name={name}
        defaultChecked={reply ? reply.values[name] === "on" : checked}
        className="size-5 accent-[var(--color-accent)]"
      />
      {label}
    </label>
  );
}

export function FormProblem({ reply }: { reply?: Reply }) {
  const message = reply?.errors.form;
  if (!message) return null;
  return (
    <Notice kind="error">
      <p>{message}</p>
    </Notice>
  );
}

export type ProductFields = {
  title: string;
  slug: string;
  category: string;
  status: string;
  summary: string;
  description: string;
  sizeGuide: string;
  optionNames: string[];
  lowStockThreshold: number;
};

const STATUS_OPTIONS: [string, string][] = [
  ["draft", "Draft — only staff see it"],
  ["active", "On sale"],
  ["archived", "Archived — off the shop, kept for old orders"],
];

/** The product's own fields: the new-product page and the top of the editor. */
export function ProductForm({ product, reply, isNew }: { product: ProductFields; reply?: Reply; isNew: boolean }) {
  const form = isNew ? "new-product" : "product";
  return (
    <Form method="post" className="space-y-5" noValidate>
      <input type="hidden" name="intent" value={isNew ? "create" : "save"} />
      <FormProblem reply={reply} />
      <TextInput
        form={form}
        name="title"
        label="Title"
        value={product.title}
        reply={reply}
        required
        maxLength={LIMITS.title}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextInput
          form={form}
          name="slug"
          label="Address"
          value={product.slug}
          reply={reply}
          maxLength={LIMITS.slug}
          hint={isNew ? "/shop/… — leave blank to make it from the title." : "/shop/… — changing it breaks old links."}
        />
        <Select
          form={form}
          name="category"
          label="Category"
          value={product.category}
          reply={reply}
          options={Object.entries(CATEGORY_LABELS)}
        />
      </div>
      {isNew ? (
        <input type="hidden" name="status" value="draft" />
      ) : (
        <Select
          form={form}
          name="status"
          label="Status"
          value={product.status}
          reply={reply}
          options={STATUS_OPTIONS}
        />
      )}
      <TextInput
        form={form}
        name="summary"
        label="Summary"
        value={product.summary}
        reply={reply}
        maxLength={LIMITS.summary}
        hint="One line under the title."
      />
      <TextArea
        form={form}
        name="description"
        label="Description"
        value={product.description}
        reply={reply}
        maxLength={LIMITS.description}
        hint="Markdown: **bold**, lists, links."
      />
      <TextArea
        form={form}
        name="sizeGuide"
        label="Size guide"
        value={product.sizeGuide}
        reply={reply}
        rows={5}
        maxLength={LIMITS.sizeGuide}
        hint="Markdown, a table works well. Leave blank when sizes do not apply."
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextInput
          form={form}
          name="optionNames"
          label="Options"
          value={product.optionNames.join(", ")}
          reply={reply}
          maxLength={200}
          hint="What buyers choose between, separated by commas: Size, Colour. Blank for one kind only."
        />
        <TextInput
          form={form}
          name="lowStockThreshold"
          label="Low-stock threshold"
          type="number"
          inputMode="numeric"
          min={0}
          max={LIMITS.threshold}
          value={String(product.lowStockThreshold)}
          reply={reply}
          hint={'At this many left or fewer, the shop says "Few left" and the list highlights it.'}
        />
      </div>
      <SubmitButton fit pendingLabel="Saving…">
        {isNew ? "Save draft" : "Save product"}
      </SubmitButton>
    </Form>
  );
}

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
