import type { SubmissionResult } from "@conform-to/react";
import { Lock } from "lucide-react";
import { useMemo } from "react";
import type { PriceTier } from "~/features/forms/fields";
import { Checkbox, FieldErrors } from "~/ui/form";
import { FormSection, InputField, SelectField, TextAreaField } from "~/ui/form-fields";
import { useLiveForm } from "~/ui/live-form";
import { currencySymbol } from "~/ui/money";
import { labelledOptions, RecordForm } from "~/ui/record-form";
import { TimeWindowFields, zoneName } from "~/ui/time-window";
import {
  DRAW_KIND_LABELS,
  DRAW_LIMITS,
  type DrawFormDefaults,
  type DrawFormShape,
  drawFormFields,
  drawFormSchema,
  SafeDrawSchema,
  UNDERSOLD_LABELS,
} from "./schemas";

const EMPTY_OPTIONS = ["", "", "", "", ""];

/**
 * Every detail of a draw, on /admin/draws/new and on the draw's own page. A draft changes
 * whole; once live (`scope` "wording") the terms are shown locked and only the words are sent.
 * Times are typed in the site's time zone.
 */
export function DrawForm({
  lastResult,
  defaultValue,
  currency,
  timeZone,
  tiers,
  submitLabel,
  scope = "draft",
  disabled = false,
}: {
  lastResult?: SubmissionResult<string[]>;
  defaultValue: DrawFormDefaults;
  currency: string;
  timeZone: string;
  /** The membership tiers, whose members may pay their own price for a bundle. */
  tiers: readonly PriceTier[];
  submitLabel: string;
  scope?: "draft" | "wording";
  /** A drawn or cancelled draw is shown, not edited. */
  disabled?: boolean;
}) {
  const { schema, rules } = useMemo(
    () => ({
      schema: scope === "wording" ? SafeDrawSchema : drawFormSchema({ currency, timeZone, tiers }),
      rules: drawFormFields({ currency }),
    }),
    [currency, timeZone, tiers, scope],
  );
  const [form, fields] = useLiveForm<DrawFormShape, Record<string, unknown>>({
    id: "draw-form",
    schema,
    rules,
    lastResult,
    defaultValue: { ...defaultValue, options: defaultValue.options ?? EMPTY_OPTIONS },
  });
  const locked = scope === "wording" || disabled;
  const lockedInput = locked ? { disabled: true } : undefined;
  const symbol = currencySymbol(currency);
  const options = fields.options.getFieldList();
  const answer = String(fields.answer.initialValue ?? "");
  return (
    <RecordForm
      form={form}
      values={{ scope }}
      disabled={disabled}
      submitLabel={submitLabel}
      notice={
        scope === "wording" && !disabled ? (
          <p className="flex items-start gap-2 rounded-xl border border-line bg-surface-raised p-4 text-sm">
            <Lock aria-hidden className="mt-0.5 size-4 shrink-0" />
            This draw is live, so its terms are fixed: the prize, prices, entries, dates, question and fairness settings
            are locked. The summary, description, rules and postal route can still be corrected.
          </p>
        ) : null
      }
    >
      <FormSection id="basics" title="The draw" description="What visitors see on /giveaways and the draw's page.">
        <InputField meta={fields.title} label="Title" inputProps={lockedInput} />
        <SelectField
          meta={fields.kind}
          label="Kind of draw"
          options={labelledOptions(DRAW_KIND_LABELS)}
          selectProps={lockedInput}
        />
        <TextAreaField
          meta={fields.summary}
          label="Summary (optional)"
          rows={2}
          hint={`One or two sentences for tiles, up to ${DRAW_LIMITS.summary} characters.`}
        />
        <TextAreaField
          meta={fields.description}
          label="Description (optional)"
          rows={8}
          hint="Markdown: **bold**, _italic_, lists and [links](https://example.com). HTML is shown as text."
        />
        <InputField
          meta={fields.slug}
          label="Web address"
          hint="The page lives at /giveaways/followed-by-this. Leave it empty to make one from the title."
          inputProps={{ autoCapitalize: "none", spellCheck: false, ...lockedInput }}
        />
      </FormSection>

      <FormSection id="prize" title="The prize">
        <InputField meta={fields.prize} label="Prize" inputProps={lockedInput} />
        <div className="grid gap-5 sm:grid-cols-2">
          <InputField
            meta={fields.prizeValue}
            label="Prize value"
            kind="money"
            prefix={symbol}
            inputProps={lockedInput}
          />
          <InputField
            meta={fields.cashAlternative}
            label="Cash alternative (optional)"
            kind="money"
            prefix={symbol}
            hint="What the winner may take instead of the prize."
            inputProps={lockedInput}
          />
        </div>
      </FormSection>

      <FormSection
        id="entries"
        title="Entries"
        description="A single entry is always sold at the entry price; bundles add larger packs."
      >
        <InputField
          meta={fields.price}
          label="Price per entry"
          kind="money"
          prefix={symbol}
          hint="0 for a giveaway."
          inputProps={lockedInput}
        />
        <TextAreaField
          meta={fields.bundles}
          label="Bundles (optional)"
          rows={3}
          hint={`One a line: the entries, then the price, then (optional) what members pay. For example “5 8.00” and “10 15.00 members 12.00”.${tiers[0] ? ` Then (optional) what a tier's members pay, by its name in the address (${tiers.map((tier) => tier.slug).join(", ")}): “10 15.00 members 12.00 ${tiers[0].slug} 10.00”.` : ""}`}
          textareaProps={{ spellCheck: false, ...lockedInput }}
        />
        <div className="grid gap-5 sm:grid-cols-3">
          <InputField meta={fields.totalEntries} label="Total entries" kind="number" inputProps={lockedInput} />
          <InputField
            meta={fields.maxPerMember}
            label="Limit per person"
            kind="number"
            hint="Paid, postal and free entries together."
            inputProps={lockedInput}
          />
          <InputField
            meta={fields.minEntries}
            label="Minimum entries"
            kind="number"
            hint="Below this at close, the policy below applies."
            inputProps={lockedInput}
          />
        </div>
        <div className="grid gap-5 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <SelectField
            meta={fields.undersoldPolicy}
            label="If too few enter"
            options={labelledOptions(UNDERSOLD_LABELS)}
            selectProps={lockedInput}
          />
          <InputField meta={fields.extendDays} label="Extend by (days)" kind="number" inputProps={lockedInput} />
        </div>
      </FormSection>

      <FormSection id="when" title="When" description={`Times are in ${zoneName(timeZone)}, this site's time zone.`}>
        <TimeWindowFields
          start={{ meta: fields.opensAt, label: "Entries open" }}
          end={{ meta: fields.closesAt, label: "Entries close" }}
          inputProps={lockedInput}
        />
      </FormSection>

      <FormSection
        id="question"
        title="Skill question"
        description="Entrants answer it with their entries; a wrong answer is accepted but not drawn."
      >
        <InputField meta={fields.question} label="Question" inputProps={lockedInput} />
        <fieldset
          className="space-y-3"
          aria-describedby={
            [
              fields.options.errors?.length ? fields.options.errorId : "",
              fields.answer.errors?.length ? fields.answer.errorId : "",
            ]
              .join(" ")
              .trim() || undefined
          }
        >
          <legend className="font-semibold">Answers, 2 to 5: mark the right one</legend>
          {options.map((option, index) => (
            <div key={option.key} className="grid grid-cols-[minmax(0,1fr)_auto] items-end gap-3">
              <InputField meta={option} label={`Answer ${index + 1}`} inputProps={lockedInput} />
              <label className="mb-3 inline-flex items-center gap-2 text-sm font-semibold">
                <input
                  type="radio"
                  name={fields.answer.name}
                  value={String(index)}
                  defaultChecked={answer === String(index)}
                  disabled={locked}
                  className="size-5 accent-[var(--color-accent)]"
                />
                <span>
                  <span className="sr-only">Answer {index + 1} is the </span>
                  <span aria-hidden>Right</span>
                  <span className="sr-only">right answer</span>
                </span>
              </label>
            </div>
          ))}
          <FieldErrors id={fields.options.errorId} errors={fields.options.errors} />
          <FieldErrors id={fields.answer.errorId} errors={fields.answer.errors} />
        </fieldset>
      </FormSection>

      <FormSection id="fairness" title="Fairness" description="Named before the draw opens, published with it.">
        <InputField
          meta={fields.beaconSource}
          label="Beacon"
          hint="A public value nobody knows until after the close, like “drand quicknet round 12345678” or “National Lottery draw of 14 June 2027”."
          inputProps={lockedInput}
        />
        <TextAreaField
          meta={fields.instantWins}
          label="Instant wins (optional)"
          rows={4}
          hint={
            locked
              ? "Fixed at publication. Kept secret from everyone, staff too, while the draw is live: this page then shows only their commitment."
              : "One a line: the entry number, then the prize, like “17 £50 fuel card”. Kept secret until the close; only their commitment is published."
          }
          textareaProps={{ spellCheck: false, ...lockedInput }}
        />
        {locked ? null : (
          <Checkbox meta={fields.allowPicks}>
            Let members choose their entry numbers (entries without a chosen number get one at random)
          </Checkbox>
        )}
      </FormSection>

      <FormSection id="terms" title="Terms and the free route">
        <TextAreaField
          meta={fields.postalRoute}
          label="Free postal entry (optional)"
          rows={4}
          hint="Where to send a postal entry and what it must contain."
        />
        <TextAreaField meta={fields.rules} label="Rules (optional)" rows={6} hint="Markdown: this draw's own terms." />
      </FormSection>
    </RecordForm>
  );
}
