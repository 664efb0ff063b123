import type { FieldMetadata } from "@conform-to/react";
import { Field, FieldErrors } from "~/ui/form";

const OFFERS = [
  { value: "none", label: "No limit for now" },
  { value: "weekly", label: "A weekly limit" },
  { value: "monthly", label: "A monthly limit" },
] as const;

/**
 * Onboarding's offer of a spending limit for paid prize draws (docs/responsible-play.md). Nothing
 * is needed to go on: "No limit for now" is chosen until the member picks a limit.
 */
export function DrawLimitOffer({
  fields,
}: {
  fields: { drawLimit: FieldMetadata<string | undefined>; drawLimitAmount: FieldMetadata<string | undefined> };
}) {
  const chosen = fields.drawLimit.initialValue ?? "none";
  return (
    <fieldset className="space-y-3 rounded-2xl border border-line p-4" aria-describedby="draw-limit-hint">
      <legend className="px-1 font-semibold">Set a spending limit for prize draws</legend>
      <p id="draw-limit-hint" className="text-sm text-muted">
        Optional. The most you want to spend on paid competition entries in any 7 or 30 days; £0 turns paid entries off.
        You can change it any time in Settings.
      </p>
      <div className="flex flex-wrap gap-3">
        {OFFERS.map((offer) => (
          <label
            key={offer.value}
            className="flex items-center gap-2 rounded-full border border-line px-4 py-2 has-[:checked]:border-accent"
          >
            <input
              type="radio"
              name={fields.drawLimit.name}
              value={offer.value}
              defaultChecked={chosen === offer.value}
              className="size-4 accent-accent"
            />
            {offer.label}
          </label>
        ))}
      </div>
      <FieldErrors id={fields.drawLimit.errorId} errors={fields.drawLimit.errors} />
      <Field
        meta={fields.drawLimitAmount}
        label="Limit (£)"
        hint="For a weekly or monthly limit, such as 20 or 0."
        inputProps={{ inputMode: "decimal", autoComplete: "off" }}
      />
    </fieldset>
  );
}
