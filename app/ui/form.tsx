import { AlertCircle, CheckCircle2, Info } from "lucide-react";
import type { InputHTMLAttributes, ReactNode } from "react";
import { useNavigation } from "react-router";
import type { FieldLike } from "./light-form";

type InputType = "text" | "email" | "password" | "tel" | "date" | "url" | "search" | "number" | "checkbox";

/** The attributes of an input for a field: its rules, its saved value and its error wiring. */
export function fieldInputProps(meta: FieldLike, type: InputType, describedBy?: string) {
  const invalid = Boolean(meta.errors?.length);
  const described = [describedBy, invalid ? meta.errorId : undefined].filter(Boolean).join(" ") || undefined;
  const value = typeof meta.initialValue === "string" ? meta.initialValue : undefined;
  return {
    id: meta.id,
    name: meta.name,
    type,
    required: meta.required || undefined,
    minLength: meta.minLength,
    maxLength: meta.maxLength,
    min: meta.min,
    max: meta.max,
    pattern: meta.pattern,
    "aria-invalid": invalid || undefined,
    "aria-describedby": described,
    ...(type === "checkbox"
      ? { defaultChecked: value === "on" }
      : { defaultValue: type === "password" ? undefined : value }),
  };
}

/** A labelled input with its hint and its errors, wired for screen readers. */
export function Field({
  meta,
  label,
  type = "text",
  hint,
  inputProps,
  children,
}: {
  meta: FieldLike;
  label: string;
  type?: InputType;
  hint?: ReactNode;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
  children?: ReactNode;
}) {
  const props = fieldInputProps(meta, type, hint ? `${meta.id}-hint` : undefined);
  return (
    <div className="space-y-1.5">
      <label htmlFor={meta.id} className="block font-semibold">
        {label}
      </label>
      <input key={meta.key} {...props} {...inputProps} className={inputClass(Boolean(meta.errors))} />
      {hint ? (
        <p id={`${meta.id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      {children}
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export function inputClass(invalid: boolean) {
  return `block w-full rounded-xl border bg-surface px-3.5 py-2.5 text-base text-text placeholder:text-muted ${
    invalid ? "border-red-700 dark:border-red-400" : "border-line"
  } focus-visible:border-focus`;
}

export function FieldErrors({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="space-y-0.5 text-sm font-medium text-red-700 dark:text-red-300">
      {errors.map((error) => (
        <li key={error} className="flex items-start gap-1.5">
          <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
          {error}
        </li>
      ))}
    </ul>
  );
}

export function Checkbox({ meta, children }: { meta: FieldLike; children: ReactNode }) {
  const props = fieldInputProps(meta, "checkbox");
  return (
    <div className="space-y-1">
      <label htmlFor={meta.id} className="flex items-start gap-3">
        <input key={meta.key} {...props} className="mt-1 size-5 shrink-0 accent-[var(--color-accent)]" />
        <span>{children}</span>
      </label>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/** A submit button that says it is working while its form is being sent. */
export function SubmitButton({
  children,
  pendingLabel,
  name,
  value,
  variant = "primary",
  formNoValidate,
  intent,
  fit = false,
  sending,
}: {
  children: ReactNode;
  pendingLabel?: string;
  name?: string;
  value?: string;
  variant?: "primary" | "secondary" | "danger";
  /** For a second action of a form that needs fewer fields than the first. */
  formNoValidate?: boolean;
  /** For a form that says its intent in a hidden field: working only while that intent is sent. */
  intent?: string;
  /** As wide as its label from the small breakpoint up, instead of the whole row. */
  fit?: boolean;
  /** For a form sent through a fetcher, which the navigation does not show: whether it is being sent. */
  sending?: boolean;
}) {
  const navigation = useNavigation();
  const sent = navigation.formData;
  const pending =
    sending ??
    (navigation.state === "submitting" &&
      (intent !== undefined ? sent?.get("intent") === intent : name === undefined || sent?.get(name) === value));
  const tone = {
    primary: "bg-accent text-on-accent hover:bg-accent-strong",
    secondary: "bg-surface-sunken text-text hover:bg-line",
    danger: "bg-red-700 text-white hover:bg-red-800",
  }[variant];
  return (
    <button
      type="submit"
      name={name}
      value={value}
      formNoValidate={formNoValidate}
      aria-disabled={pending || undefined}
      className={`inline-flex w-full items-center justify-center gap-2 rounded-full px-6 py-3 font-bold transition ${fit ? "sm:w-auto" : ""} ${tone} aria-disabled:opacity-70`}
    >
      {pending ? (pendingLabel ?? "Working…") : children}
    </button>
  );
}

/** A message about the whole form (or a flash message after a redirect). */
export function Notice({
  kind,
  children,
  id,
}: {
  kind: "success" | "info" | "error";
  children: ReactNode;
  id?: string;
}) {
  const Icon = kind === "success" ? CheckCircle2 : kind === "error" ? AlertCircle : Info;
  const tone = {
    success: "border-emerald-700/40 bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100",
    info: "border-line bg-surface-raised text-text",
    error: "border-red-700/40 bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-100",
  }[kind];
  return (
    <div id={id} role={kind === "error" ? "alert" : "status"} className={`flex gap-3 rounded-xl border p-4 ${tone}`}>
      <Icon aria-hidden className="mt-0.5 size-5 shrink-0" />
      <div className="space-y-1">{children}</div>
    </div>
  );
}

export function FormErrors({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <Notice kind="error" id={id}>
      {errors.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </Notice>
  );
}
