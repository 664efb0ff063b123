import type { ReactNode } from "react";
import { FieldErrors, inputClass, Notice } from "~/ui/form";

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

export function TextArea({
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

export function Select({
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
