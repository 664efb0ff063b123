import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { useMemo } from "react";
import { Form } from "react-router";
import { Checkbox, FormErrors, SubmitButton } from "~/ui/form";
import { FormSection, InputField, RadioField, SelectField, TextAreaField } from "~/ui/form-fields";
import { useLiveForm } from "~/ui/live-form";
import { currencySymbol, moneyInputValue } from "~/ui/money";
import { dayOfYear } from "./membership-labels";
import { type TierInput, tierSchema } from "./schemas";

/** A tier's form as text, the way the inputs hold it. */
export type TierFormValues = {
  name: string;
  summary: string;
  benefits: string;
  price: string;
  period: "season" | "rolling";
  rollingMonths: string;
  seasonStartMonth: string;
  seasonStartDay: string;
  lateJoinMonth: string;
  lateJoinDay: string;
  lateJoinPrice: string;
  people: string;
  capacity: string;
  autoRenews?: "on";
  admitsToMembersEvents?: "on";
  onSale?: "on";
};

type SavedTier = {
  name: string;
  summary: string;
  benefits: string;
  price: number;
  period: "season" | "rolling";
  rollingMonths: number | null;
  seasonStartMonth: number | null;
  seasonStartDay: number | null;
  lateJoinMonth: number | null;
  lateJoinDay: number | null;
  lateJoinPrice: number | null;
  people: number;
  capacity: number | null;
  autoRenews: boolean;
  admitsToMembersEvents: boolean;
  onSale: boolean;
};

const text = (value: number | null) => (value === null ? "" : String(value));
const on = (value: boolean) => (value ? ("on" as const) : undefined);

/** A saved tier as its form shows it; a new tier starts as a yearly season from 1 January. */
export function tierFormValues(tier: SavedTier | null): TierFormValues {
  if (!tier) {
    return {
      name: "",
      summary: "",
      benefits: "",
      price: "",
      period: "season",
      rollingMonths: "12",
      seasonStartMonth: "1",
      seasonStartDay: "1",
      lateJoinMonth: "",
      lateJoinDay: "",
      lateJoinPrice: "",
      people: "1",
      capacity: "",
      autoRenews: "on",
      admitsToMembersEvents: "on",
    };
  }
  return {
    name: tier.name,
    summary: tier.summary,
    benefits: tier.benefits,
    price: moneyInputValue(tier.price),
    period: tier.period,
    rollingMonths: text(tier.rollingMonths ?? 12),
    seasonStartMonth: text(tier.seasonStartMonth ?? 1),
    seasonStartDay: text(tier.seasonStartDay ?? 1),
    lateJoinMonth: text(tier.lateJoinMonth),
    lateJoinDay: text(tier.lateJoinDay),
    lateJoinPrice: tier.lateJoinPrice === null ? "" : moneyInputValue(tier.lateJoinPrice),
    people: String(tier.people),
    capacity: text(tier.capacity),
    autoRenews: on(tier.autoRenews),
    admitsToMembersEvents: on(tier.admitsToMembersEvents),
    onSale: on(tier.onSale),
  };
}

const MONTH_OPTIONS = Array.from({ length: 12 }, (_, index) => ({
  value: String(index + 1),
  label: dayOfYear(index + 1, 1).replace(/^1 /, ""),
}));

/** The organizer's form for a membership tier: what it is, its price, how its periods run, its limits. */
export function TierForm({
  defaultValue,
  currency,
  lastResult,
  submitLabel,
}: {
  defaultValue: TierFormValues;
  currency: string;
  lastResult?: SubmissionResult<string[]>;
  submitLabel: string;
}) {
  const schema = useMemo(() => tierSchema({ currency }), [currency]);
  const [form, fields] = useLiveForm<TierFormValues, TierInput>({ id: "tier", schema, lastResult, defaultValue });
  const symbol = currencySymbol(currency);
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-6">
      <FormErrors id={form.errorId} errors={form.errors} />
      <FormSection id="tier-about" title="The tier">
        <InputField meta={fields.name} label="Name" hint="Such as Annual, Family or Junior." />
        <InputField meta={fields.summary} label="Summary (optional)" hint="One line under the name." />
        <TextAreaField
          meta={fields.benefits}
          label="Benefits"
          hint="One a line: they are listed on the membership page and in the key terms."
          rows={5}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <InputField meta={fields.price} label={`Price (${symbol})`} kind="money" hint="For one period." />
          <InputField
            meta={fields.people}
            label="People it covers"
            kind="number"
            hint="1 for one person; more for a family tier, whose member names the others."
          />
        </div>
      </FormSection>
      <FormSection id="tier-period" title="How it runs">
        <RadioField
          meta={fields.period}
          legend="Period"
          options={[
            { value: "season", label: "A club year: every member's year starts on the same day" },
            { value: "rolling", label: "Rolling: from the day each member joins" },
          ]}
        />
        <SelectField
          meta={fields.rollingMonths}
          label="Rolling period"
          options={[
            { value: "12", label: "A year" },
            { value: "1", label: "A month" },
          ]}
          hint="Used for a rolling tier."
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <SelectField meta={fields.seasonStartMonth} label="Club year starts: month" options={MONTH_OPTIONS} />
          <InputField meta={fields.seasonStartDay} label="Club year starts: day" kind="number" />
        </div>
        <div className="grid gap-5 sm:grid-cols-3">
          <SelectField
            meta={fields.lateJoinMonth}
            label="Late joining from: month"
            options={[{ value: "", label: "No late-join price" }, ...MONTH_OPTIONS]}
          />
          <InputField meta={fields.lateJoinDay} label="Late joining from: day" kind="number" />
          <InputField
            meta={fields.lateJoinPrice}
            label={`Late-join price (${symbol})`}
            kind="money"
            hint="Blank: the months left, pro rata."
          />
        </div>
      </FormSection>
      <FormSection id="tier-limits" title="Limits and renewal">
        <InputField
          meta={fields.capacity}
          label="Cap on members (optional)"
          kind="number"
          hint="Joining stops when this many members hold the tier. Blank: no cap."
        />
        <Checkbox meta={fields.autoRenews}>
          Renews by itself, charging the member's saved card, until they turn it off (a reminder goes before each
          renewal)
        </Checkbox>
        <Checkbox meta={fields.admitsToMembersEvents}>The member card admits to members' events</Checkbox>
        <Checkbox meta={fields.onSale}>On sale: shown on the membership page, open to join</Checkbox>
      </FormSection>
      <SubmitButton fit pendingLabel="Saving…">
        {submitLabel}
      </SubmitButton>
    </Form>
  );
}
