import type { ReactNode } from "react";
import { Field } from "~/ui/form";
import type { FieldLike } from "~/ui/light-form";
import { PasswordStrength } from "./password-strength-meter";

/** The member's own password, to sign in or to show it is them: password managers fill the saved one. */
export function CurrentPasswordField({ meta, label, hint }: { meta: FieldLike; label: string; hint?: ReactNode }) {
  return (
    <Field meta={meta} label={label} type="password" hint={hint} inputProps={{ autoComplete: "current-password" }} />
  );
}

/**
 * A password being chosen: password managers offer to make one up. Given the form's id, a meter
 * under it shows the password's strength as it is typed; the box that repeats it has none.
 */
export function NewPasswordField({
  meta,
  label,
  hint,
  formId,
}: {
  meta: FieldLike;
  label: string;
  hint?: ReactNode;
  formId?: string;
}) {
  return (
    <Field meta={meta} label={label} type="password" hint={hint} inputProps={{ autoComplete: "new-password" }}>
      {formId ? <PasswordStrength fieldName={meta.name} formId={formId} /> : null}
    </Field>
  );
}
