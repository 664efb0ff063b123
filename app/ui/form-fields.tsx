import type { ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { Card } from "~/ui/card";
import { FieldErrors, fieldInputProps, inputClass } from "~/ui/form";
import type { FieldLike } from "~/ui/light-form";

// The inputs forms need beyond app/ui/form.tsx: long text, menus, date-times, prices, files
// and radio choices, wired the same way (label, hint, errors announced with the field).

function describedBy(meta: FieldLike, hint: boolean) {
  return [hint ? `${meta.id}-hint` : undefined, meta.errors?.length ? meta.errorId : undefined]
    .filter(Boolean)
    .join(" ");
}

function Label({ meta, children }: { meta: FieldLike; children: ReactNode }) {
  return (
    <label htmlFor={meta.id} className="block font-semibold">
      {children}
    </label>
  );
}

function Hint({ meta, children }: { meta: FieldLike; children?: ReactNode }) {
  if (!children) return null;
  return (
    <p id={`${meta.id}-hint`} className="text-sm text-muted">
      {children}
    </p>
  );
}

export function TextAreaField({
  meta,
  label,
  hint,
  rows = 4,
  textareaProps,
}: {
  meta: FieldLike;
  label: string;
  hint?: ReactNode;
  rows?: number;
  textareaProps?: TextareaHTMLAttributes<HTMLTextAreaElement>;
}) {
  const invalid = Boolean(meta.errors?.length);
  return (
    <div className="space-y-1.5">
      <Label meta={meta}>{label}</Label>
      <textarea
        key={meta.key}
        id={meta.id}
        name={meta.name}
        rows={rows}
        required={meta.required || undefined}
        maxLength={meta.maxLength}
        defaultValue={typeof meta.initialValue === "string" ? meta.initialValue : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(meta, Boolean(hint)) || undefined}
        className={`${inputClass(invalid)} min-h-24 leading-relaxed`}
        {...textareaProps}
      />
      <Hint meta={meta}>{hint}</Hint>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export function SelectField({
  meta,
  label,
  options,
  hint,
  selectProps,
}: {
  meta: FieldLike;
  label: string;
  options: { value: string; label: string }[];
  hint?: ReactNode;
  selectProps?: SelectHTMLAttributes<HTMLSelectElement>;
}) {
  const invalid = Boolean(meta.errors?.length);
  return (
    <div className="space-y-1.5">
      <Label meta={meta}>{label}</Label>
      <select
        key={meta.key}
        id={meta.id}
        name={meta.name}
        required={meta.required || undefined}
        defaultValue={typeof meta.initialValue === "string" ? meta.initialValue : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(meta, Boolean(hint)) || undefined}
        className={`${inputClass(invalid)} h-12`}
        {...selectProps}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Hint meta={meta}>{hint}</Hint>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/** A text, number, date-time or price input with its label, hint and errors. */
export function InputField({
  meta,
  label,
  hint,
  kind = "text",
  prefix,
  inputProps,
}: {
  meta: FieldLike;
  label: string;
  hint?: ReactNode;
  kind?: "text" | "number" | "datetime-local" | "money" | "decimal";
  /** Shown inside the input's left edge, like a currency symbol. */
  prefix?: string;
  inputProps?: React.InputHTMLAttributes<HTMLInputElement>;
}) {
  const invalid = Boolean(meta.errors?.length);
  const base = fieldInputProps(meta, kind === "number" ? "number" : "text", hint ? `${meta.id}-hint` : undefined);
  const typed =
    kind === "datetime-local"
      ? { type: "datetime-local", pattern: undefined, maxLength: undefined }
      : kind === "money" || kind === "decimal"
        ? { inputMode: "decimal" as const, pattern: undefined }
        : kind === "number"
          ? { inputMode: "numeric" as const }
          : {};
  return (
    <div className="space-y-1.5">
      <Label meta={meta}>{label}</Label>
      <div className="relative">
        {prefix ? (
          <span
            aria-hidden
            className="pointer-events-none absolute inset-y-0 left-0 grid w-10 place-items-center font-semibold text-muted"
          >
            {prefix}
          </span>
        ) : null}
        <input
          key={meta.key}
          {...base}
          {...typed}
          {...inputProps}
          className={`${inputClass(invalid)} ${prefix ? "pl-10" : ""} ${kind === "text" ? "" : "tabular"}`}
        />
      </div>
      <Hint meta={meta}>{hint}</Hint>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/** A file picker with its label, hint and errors; `accept` names the types the server takes. */
export function FileField({
  meta,
  label,
  hint,
  accept,
}: {
  meta: FieldLike;
  label: string;
  hint?: ReactNode;
  accept: string;
}) {
  const invalid = Boolean(meta.errors?.length);
  return (
    <div className="space-y-1.5">
      <Label meta={meta}>{label}</Label>
      <input
        key={meta.key}
        id={meta.id}
        name={meta.name}
        type="file"
        accept={accept}
        required={meta.required || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(meta, Boolean(hint)) || undefined}
        className="block w-full min-w-0 text-sm text-muted file:mr-3 file:rounded-full file:border-0 file:bg-surface-sunken file:px-4 file:py-2 file:font-semibold file:text-text hover:file:bg-line"
      />
      <Hint meta={meta}>{hint}</Hint>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/**
 * One choice of a few, as radio buttons under a legend (`legendHidden` keeps it for screen
 * readers only, where the choices speak for themselves); its errors are announced with the group.
 */
export function RadioField({
  meta,
  legend,
  options,
  legendHidden = false,
}: {
  meta: FieldLike;
  legend: string;
  options: { value: string; label: string }[];
  legendHidden?: boolean;
}) {
  const invalid = Boolean(meta.errors?.length);
  return (
    <fieldset key={meta.key} aria-describedby={invalid ? meta.errorId : undefined} className="space-y-1">
      <legend className={legendHidden ? "sr-only" : "font-semibold"}>{legend}</legend>
      <div className="flex flex-wrap gap-x-5">
        {options.map((option) => (
          <label key={option.value} className="flex min-h-11 items-center gap-2 font-semibold">
            <input
              type="radio"
              name={meta.name}
              value={option.value}
              required={meta.required || undefined}
              defaultChecked={meta.initialValue === option.value}
              className="size-5 shrink-0 accent-[var(--color-accent)]"
            />
            {option.label}
          </label>
        ))}
      </div>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}

/** A titled group of fields in a card, one per part of the event (basics, when, where…). */
export function FormSection({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card as="section" aria-labelledby={`${id}-title`} className="p-5 sm:p-6">
      <h2 id={`${id}-title`} className="wide text-lg font-extrabold">
        {title}
      </h2>
      {description ? <p className="mt-1 text-sm text-muted">{description}</p> : null}
      <div className="mt-5 space-y-5">{children}</div>
    </Card>
  );
}
