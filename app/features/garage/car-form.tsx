import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { useMemo, useState } from "react";
import { Form } from "react-router";
import { Checkbox, FormErrors, SubmitButton } from "~/ui/form";
import { FormSection, InputField, SelectField, TextAreaField } from "~/ui/form-fields";
import { useLiveForm } from "~/ui/live-form";
import type { CarVisibility } from "../../../db/schema/garage";
import { MAKE_NAMES, modelsOf } from "./makes";
import {
  CAR_LIMITS,
  type CarFormDefaults,
  type CarInput,
  carSchema,
  DRIVETRAIN_LABELS,
  GEARBOX_LABELS,
  VISIBILITY_LABELS,
} from "./schemas";

type CarFormShape = Record<keyof CarInput, string>;

/**
 * Every detail of a car an owner sets, on /members/newGarage and on the car's edit page. Make
 * and model are suggested from the site's list; anything else may be typed.
 */
export function CarForm({
  lastResult,
  defaultValue,
  submitLabel,
}: {
  lastResult?: SubmissionResult<string[]>;
  defaultValue: CarFormDefaults;
  submitLabel: string;
}) {
  const schema = useMemo(() => carSchema(), []);
  const [form, fields] = useLiveForm<CarFormShape, CarInput>({ id: "car-form", schema, lastResult, defaultValue });
  const [make, setMake] = useState(defaultValue.make ?? "");
  const models = modelsOf(make);
  const optional = (options: Record<string, string>) => [
    { value: "", label: "Not given" },
    ...Object.entries(options).map(([value, label]) => ({ value, label })),
  ];
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-6">
      <input type="hidden" name="intent" value="save" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <FormSection
        id="car"
        title="The car"
        description="Make, model and year are needed; the rest helps others find it."
      >
        <div className="grid gap-5 sm:grid-cols-2">
          <InputField
            meta={fields.make}
            label="Make"
            hint="Pick from the list or type your own."
            inputProps={{ list: "car-makes", autoComplete: "off", onChange: (event) => setMake(event.target.value) }}
          />
          <InputField meta={fields.model} label="Model" inputProps={{ list: "car-models", autoComplete: "off" }} />
        </div>
        <datalist id="car-makes">
          {MAKE_NAMES.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        <datalist id="car-models">
          {models.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        <div className="grid gap-5 sm:grid-cols-2">
          <InputField meta={fields.year} label="Year" kind="number" inputProps={{ placeholder: "1991" }} />
          <InputField
            meta={fields.variant}
            label="Variant (optional)"
            inputProps={{ placeholder: "Eunos Roadster, S Special…" }}
          />
          <InputField meta={fields.colour} label="Colour (optional)" />
          <InputField meta={fields.engine} label="Engine (optional)" inputProps={{ placeholder: "1.6 B6ZE" }} />
          <InputField meta={fields.powerBhp} label="Power in bhp (optional)" kind="number" />
          <SelectField meta={fields.drivetrain} label="Drivetrain (optional)" options={optional(DRIVETRAIN_LABELS)} />
          <SelectField meta={fields.gearbox} label="Gearbox (optional)" options={optional(GEARBOX_LABELS)} />
        </div>
      </FormSection>
      <FormSection id="story" title="Modifications and story">
        <TextAreaField
          meta={fields.modifications}
          label="Modifications (optional)"
          rows={5}
          hint={`One per line, up to ${CAR_LIMITS.modifications}.`}
        />
        <TextAreaField
          meta={fields.story}
          label="Its story (optional)"
          rows={8}
          hint="How you found it, what you have done, where it has been. Shown as plain text."
        />
      </FormSection>
      <FormSection
        id="privacy"
        title="Number plate and visibility"
        description="The plate is kept private unless you choose to show it."
      >
        <InputField
          meta={fields.plate}
          label="Number plate (optional)"
          inputProps={{ autoCapitalize: "characters", spellCheck: false }}
        />
        <Checkbox meta={fields.platePublic}>Show the number plate on the car's public page</Checkbox>
        <fieldset
          className="space-y-2"
          aria-describedby={fields.visibility.errors ? fields.visibility.errorId : undefined}
        >
          <legend className="font-semibold">Who can see this car</legend>
          {(Object.keys(VISIBILITY_LABELS) as CarVisibility[]).map((value) => (
            <label key={value} className="flex items-start gap-3">
              <input
                type="radio"
                name={fields.visibility.name}
                value={value}
                defaultChecked={(defaultValue.visibility ?? "private") === value}
                className="mt-1 size-5 shrink-0 accent-[var(--color-accent)]"
              />
              <span>{VISIBILITY_LABELS[value]}</span>
            </label>
          ))}
          {fields.visibility.errors ? (
            <p id={fields.visibility.errorId} className="text-sm font-medium text-red-700 dark:text-red-300">
              {fields.visibility.errors.join(" ")}
            </p>
          ) : null}
        </fieldset>
      </FormSection>
      <SubmitButton intent="save" fit pendingLabel="Saving…">
        {submitLabel}
      </SubmitButton>
    </Form>
  );
}
