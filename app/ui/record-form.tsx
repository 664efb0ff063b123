import { type FormMetadata, getFormProps } from "@conform-to/react";
import type { ReactNode } from "react";
import { Form } from "react-router";
import { FormErrors, SubmitButton } from "./form";

/**
 * The form of a record's details (an event's, a draw's), on its new page and on its own page:
 * the errors about the whole form, an optional notice, its sections, and the Save button, kept
 * in reach at the bottom of small screens. It sends `intent=save` with any `values` given. A
 * record that can no longer change (`disabled`) shows its fields greyed out and no button.
 */
export function RecordForm<Shape extends Record<string, unknown>>({
  form,
  values = {},
  notice,
  disabled,
  submitLabel,
  children,
}: {
  form: FormMetadata<Shape, string[]>;
  /** Hidden values sent with the form, name → value. */
  values?: Record<string, string>;
  notice?: ReactNode;
  disabled: boolean;
  submitLabel: string;
  /** The form's sections. */
  children: ReactNode;
}) {
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-6">
      <input type="hidden" name="intent" value="save" />
      {Object.entries(values).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <FormErrors id={form.errorId} errors={form.errors} />
      {notice}
      <fieldset disabled={disabled} className="min-w-0 space-y-6">
        {children}
      </fieldset>
      {disabled ? null : (
        <div className="sticky bottom-0 z-10 -mx-4 border-t border-line bg-surface/95 px-4 py-3 backdrop-blur sm:static sm:mx-0 sm:border-0 sm:bg-transparent sm:p-0">
          <SubmitButton intent="save" pendingLabel="Saving…" fit>
            {submitLabel}
          </SubmitButton>
        </div>
      )}
    </Form>
  );
}

/** A menu's choices from a record of value → label, in the record's order. */
export function labelledOptions(labels: Record<string, string>) {
  return Object.entries(labels).map(([value, label]) => ({ value, label }));
}
