import type { SubmissionResult } from "@conform-to/react";
import { useMemo } from "react";
import { toLocalInputValue } from "~/features/dates/time-zones";
import { Checkbox, FieldErrors, inputClass } from "~/ui/form";
import { FormSection, InputField, RadioField } from "~/ui/form-fields";
import type { FieldLike } from "~/ui/light-form";
import { useLiveForm } from "~/ui/live-form";
import { currencySymbol, moneyInputValue } from "~/ui/money";
import { labelledOptions, RecordForm } from "~/ui/record-form";
import { TimeWindowFields, zoneName } from "~/ui/time-window";
import type { vouchers } from "../../../db/schema";
import {
  EFFECT_LABELS,
  KIND_LABELS,
  VOUCHER_LIMITS,
  type VoucherInput,
  voucherFormFields,
  voucherSchema,
} from "./schemas";

/** A code's form as text, the way the inputs hold it. */
export type VoucherFormValues = {
  mode?: "single" | "batch";
  code: string;
  count?: string;
  label: string;
  effect: string;
  amount: string;
  percent: string;
  kinds: string[];
  eventIds: string[];
  ticketTypeIds: string[];
  productIds: string[];
  tierIds: string[];
  drawIds: string[];
  maxUses: string;
  maxUsesPerMember: string;
  validFrom: string;
  validUntil: string;
  minBasket: string;
  holdsPlaces?: "on";
  active?: "on";
};

type SavedVoucher = Omit<typeof vouchers.$inferSelect, "id" | "batchId" | "createdBy" | "createdAt" | "updatedAt">;

const text = (value: number | null) => (value === null ? "" : String(value));
const money = (value: number | null) => (value === null ? "" : moneyInputValue(value));
const on = (value: boolean) => (value ? ("on" as const) : undefined);

/** A saved code as its form shows it; a new one starts as one active code for 10% off everything. */
export function voucherFormValues(voucher: SavedVoucher | null, timeZone: string): VoucherFormValues {
  const local = (instant: Date | null) => (instant ? toLocalInputValue(instant, timeZone) : "");
  if (!voucher) {
    return {
      mode: "single",
      code: "",
      count: "50",
      label: "",
      effect: "percent_off",
      amount: "",
      percent: "10",
      kinds: [],
      eventIds: [],
      ticketTypeIds: [],
      productIds: [],
      tierIds: [],
      drawIds: [],
      maxUses: "",
      maxUsesPerMember: "",
      validFrom: "",
      validUntil: "",
      minBasket: "",
      active: "on",
    };
  }
  const percent = voucher.effect === "percent_off";
  return {
    code: voucher.code,
    label: voucher.label,
    effect: voucher.effect,
    amount: percent ? "" : moneyInputValue(voucher.value),
    percent: percent ? String(voucher.value) : "",
    kinds: voucher.kinds,
    eventIds: voucher.eventIds,
    ticketTypeIds: voucher.ticketTypeIds,
    productIds: voucher.productIds,
    tierIds: voucher.tierIds,
    drawIds: voucher.drawIds,
    maxUses: text(voucher.maxUses),
    maxUsesPerMember: text(voucher.maxUsesPerMember),
    validFrom: local(voucher.validFrom),
    validUntil: local(voucher.validUntil),
    minBasket: money(voucher.minBasket),
    holdsPlaces: on(voucher.holdsPlaces),
    active: on(voucher.active),
  };
}

type Option = { value: string; label: string };

/** What the pickers offer: events, ticket types by event, products, tiers and draws. */
export type VoucherPickerOptions = {
  events: Option[];
  ticketTypes: { event: string; options: Option[] }[];
  products: Option[];
  tiers: Option[];
  draws: Option[];
};

const selected = (meta: FieldLike) =>
  Array.isArray(meta.initialValue)
    ? meta.initialValue.map(String)
    : typeof meta.initialValue === "string"
      ? [meta.initialValue]
      : [];

/**
 * A list to choose any number from, as a plain multiple select (server-rendered, works without
 * scripts); `groups` puts the choices under headings.
 */
function PickerField({
  meta,
  label,
  hint,
  options,
  groups,
}: {
  meta: FieldLike;
  label: string;
  hint: string;
  options?: Option[];
  groups?: { event: string; options: Option[] }[];
}) {
  const invalid = Boolean(meta.errors?.length);
  const rows = (options?.length ?? 0) + (groups ?? []).reduce((sum, group) => sum + group.options.length + 1, 0);
  const empty = rows === 0;
  const render = (option: Option) => (
    <option key={option.value} value={option.value}>
      {option.label}
    </option>
  );
  if (empty) {
    return (
      <div className="space-y-1.5">
        <p className="font-semibold">{label}</p>
        <p className="text-sm text-muted">None to choose from.</p>
      </div>
    );
  }
  return (
    <div className="space-y-1.5">
      <label htmlFor={meta.id} className="block font-semibold">
        {label}
      </label>
      <select
        key={meta.key}
        id={meta.id}
        name={meta.name}
        multiple
        size={Math.min(8, Math.max(3, rows))}
        defaultValue={selected(meta)}
        aria-invalid={invalid || undefined}
        aria-describedby={[`${meta.id}-hint`, invalid ? meta.errorId : undefined].filter(Boolean).join(" ")}
        className={inputClass(invalid)}
      >
        {options?.map(render)}
        {groups?.map((group) => (
          <optgroup key={group.event} label={group.event}>
            {group.options.map(render)}
          </optgroup>
        ))}
      </select>
      <p id={`${meta.id}-hint`} className="text-sm text-muted">
        {hint}
      </p>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/** The kinds of item a code may apply to all of, as tick boxes. */
function KindsField({ meta }: { meta: FieldLike }) {
  const chosen = selected(meta);
  const invalid = Boolean(meta.errors?.length);
  return (
    <fieldset key={meta.key} aria-describedby={invalid ? meta.errorId : undefined} className="space-y-1">
      <legend className="font-semibold">Every item of these kinds</legend>
      <div className="grid gap-x-5 sm:grid-cols-2">
        {labelledOptions(KIND_LABELS).map((kind) => (
          <label key={kind.value} className="flex min-h-11 items-center gap-2">
            <input
              type="checkbox"
              name={meta.name}
              value={kind.value}
              defaultChecked={chosen.includes(kind.value)}
              className="size-5 shrink-0 accent-[var(--color-accent)]"
            />
            {kind.label}
          </label>
        ))}
      </div>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}

/**
 * Staff's form for a voucher or discount code, on /admin/vouchers/new (one typed code or a batch
 * of generated ones) and on a code's own page. Times are typed in the site's time zone.
 */
export function VoucherForm({
  defaultValue,
  currency,
  timeZone,
  options,
  lastResult,
  submitLabel,
  isNew,
  codeLocked = false,
}: {
  defaultValue: VoucherFormValues;
  currency: string;
  timeZone: string;
  options: VoucherPickerOptions;
  lastResult?: SubmissionResult<string[]>;
  submitLabel: string;
  isNew: boolean;
  /** The code has been used: orders show it, so it stays as it is. */
  codeLocked?: boolean;
}) {
  const { schema, rules } = useMemo(
    () => ({ schema: voucherSchema({ currency, timeZone }), rules: voucherFormFields({ currency }) }),
    [currency, timeZone],
  );
  const [form, fields] = useLiveForm<VoucherFormValues, VoucherInput>({
    id: "voucher",
    schema,
    rules,
    lastResult,
    defaultValue,
  });
  const symbol = currencySymbol(currency);
  const zone = zoneName(timeZone);
  return (
    <RecordForm form={form} disabled={false} submitLabel={submitLabel}>
      <FormSection id="voucher-code" title={isNew ? "The code" : "Code"}>
        {isNew ? (
          <RadioField
            meta={fields.mode}
            legend="Make"
            options={[
              { value: "single", label: "One code, typed below" },
              { value: "batch", label: "A batch of random codes" },
            ]}
          />
        ) : null}
        <InputField
          meta={fields.code}
          label={isNew ? "Code (for one code)" : "Code"}
          hint={
            codeLocked
              ? "It has been used, so it stays as it is."
              : "3 to 32 letters and digits, like SPRING25. Spaces and dashes are left out, and case does not matter."
          }
          inputProps={{ autoCapitalize: "characters", spellCheck: false, readOnly: codeLocked || undefined }}
        />
        {isNew ? (
          <InputField
            meta={fields.count}
            label="How many codes (for a batch)"
            kind="number"
            hint={`1 to ${VOUCHER_LIMITS.batch}. Each is 10 random letters and digits, with the same terms; download them as CSV.`}
          />
        ) : null}
        <InputField
          meta={fields.label}
          label={isNew ? "Label (needed for a batch)" : "Label (optional)"}
          hint="Staff's own name for it, such as Crew 2027. Buyers never see it."
        />
      </FormSection>

      <FormSection id="voucher-effect" title="What it does">
        <RadioField meta={fields.effect} legend="Effect" options={labelledOptions(EFFECT_LABELS)} />
        <div className="grid gap-5 sm:grid-cols-2">
          <InputField
            meta={fields.percent}
            label="Percentage off"
            kind="number"
            hint="For a percentage off: 1 to 100."
          />
          <InputField
            meta={fields.amount}
            label={`Amount (${symbol})`}
            kind="money"
            prefix={symbol}
            hint="For an amount off each item, or the price each item is sold at."
          />
        </div>
      </FormSection>

      <FormSection
        id="voucher-targets"
        title="What it applies to"
        description="Choose nothing to have it apply to everything. Otherwise it applies to any item among the choices."
      >
        <KindsField meta={fields.kinds} />
        <PickerField
          meta={fields.eventIds}
          label="Tickets for these events"
          hint="Events not yet over. Hold Ctrl (or ⌘) to choose more than one."
          options={options.events}
        />
        <PickerField
          meta={fields.ticketTypeIds}
          label="These ticket types"
          hint="Hidden types among them can be bought with the code."
          groups={options.ticketTypes}
        />
        <PickerField
          meta={fields.productIds}
          label="These products"
          hint="Every size and colour."
          options={options.products}
        />
        <PickerField
          meta={fields.tierIds}
          label="These membership tiers"
          hint="Joining and renewing."
          options={options.tiers}
        />
        <PickerField
          meta={fields.drawIds}
          label="Entries to these draws"
          hint="Draws not yet ended."
          options={options.draws}
        />
      </FormSection>

      <FormSection id="voucher-limits" title="Limits">
        <div className="grid gap-5 sm:grid-cols-2">
          <InputField
            meta={fields.maxUses}
            label="Most uses in all (optional)"
            kind="number"
            hint="Items it can take off, across every buyer. Blank: no limit."
          />
          <InputField
            meta={fields.maxUsesPerMember}
            label="Most uses per member (optional)"
            kind="number"
            hint="Blank: no limit."
          />
        </div>
        <TimeWindowFields
          start={{ meta: fields.validFrom, label: "Valid from (optional)", hint: `In ${zone}. Blank: from now.` }}
          end={{ meta: fields.validUntil, label: "Valid until (optional)", hint: `In ${zone}. Blank: no end.` }}
        />
        <InputField
          meta={fields.minBasket}
          label={`Smallest basket (${symbol}, optional)`}
          kind="money"
          prefix={symbol}
          hint="What the basket must come to, before the discount, for the code to work."
        />
        <Checkbox meta={fields.holdsPlaces}>
          Keep places for this code's holders: its unused uses are kept from the public sale of its one ticket type
          until it ends (needs the most uses in all, and exactly one ticket type with nothing else chosen)
        </Checkbox>
        <Checkbox meta={fields.active}>Active: buyers can use it</Checkbox>
      </FormSection>
    </RecordForm>
  );
}
