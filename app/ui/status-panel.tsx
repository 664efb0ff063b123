import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Check, CircleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import type { z } from "zod";
import { FormErrors, SubmitButton } from "./form";
import { TextAreaField } from "./form-fields";

// The pieces of an organizer record's status panel (an event's, a draw's): a card per thing
// that can happen next, the form that takes each step, the card that cancels the record for
// good, and checklists of what is done and what is still to do.

/** One card of the panel, named by its heading for screen readers; `danger` for what cannot be undone. */
export function StatusCard({
  title,
  children,
  tone = "plain",
}: {
  title: string;
  children: ReactNode;
  tone?: "plain" | "danger";
}) {
  return (
    <section
      aria-label={title}
      className={`space-y-3 rounded-2xl border p-5 ${tone === "danger" ? "border-red-700/30 bg-surface" : "border-line bg-surface-raised"}`}
    >
      <h2 className="wide text-base font-extrabold">{title}</h2>
      {children}
    </section>
  );
}

/**
 * A line of a checklist, ticked when done; screen readers hear "Done" or "To do" first. `fix`
 * links to the page where what is missing is done.
 */
export function ChecklistItem({
  done,
  fix,
  children,
}: {
  done: boolean;
  fix?: { to: string; label: string };
  children: ReactNode;
}) {
  return (
    <li className="flex items-start gap-2 text-sm">
      {done ? (
        <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-700 dark:text-emerald-400" />
      ) : (
        <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-accent-ink" />
      )}
      <span>
        <span className="sr-only">{done ? "Done: " : "To do: "}</span>
        {children}
        {fix ? (
          <>
            {" "}
            <Link to={fix.to} className="font-semibold text-link underline">
              {fix.label}
            </Link>
          </>
        ) : null}
      </span>
    </li>
  );
}

type StepFields<Schema extends z.ZodObject> = ReturnType<typeof useForm<z.input<Schema>>>[1];

/**
 * The form of one step in a record's life (publish, close, draw, refund again): its errors, the
 * fields the step needs, and its button, which sends the step's `intent`. `schema` checks the
 * fields in the browser by the rules the server applies: when the form is sent (a box to tick),
 * or as each field is left (`validate="onBlur"`, for fields that are typed).
 */
export function StepForm<Schema extends z.ZodObject>({
  id,
  intent,
  label,
  pendingLabel,
  lastResult,
  schema,
  validate = "onSubmit",
  variant = "primary",
  className = "space-y-3",
  fields: renderFields,
}: {
  id: string;
  intent: string;
  label: ReactNode;
  pendingLabel: string;
  lastResult?: SubmissionResult<string[]>;
  schema?: Schema;
  validate?: "onSubmit" | "onBlur";
  variant?: "primary" | "secondary" | "danger";
  className?: string;
  fields?: (fields: StepFields<Schema>) => ReactNode;
}) {
  const [form, fields] = useForm<z.input<Schema>, z.output<Schema>>({
    id,
    lastResult,
    constraint: schema ? getZodConstraint(schema) : undefined,
    ...(validate === "onBlur" ? { shouldValidate: "onBlur", shouldRevalidate: "onInput" } : {}),
    onValidate: schema ? ({ formData }) => parseWithZod(formData, { schema }) : undefined,
  });
  return (
    <Form method="post" {...getFormProps(form)} className={className}>
      <FormErrors id={form.errorId} errors={form.errors} />
      {renderFields?.(fields)}
      <SubmitButton name="intent" value={intent} pendingLabel={pendingLabel} variant={variant}>
        {label}
      </SubmitButton>
    </Form>
  );
}

/**
 * The card that cancels a record for good (an event, a draw): what cancelling does to those who
 * bought or entered, and behind a disclosure the form asking why, which the people affected
 * read. The disclosure opens again when the reason is refused. Its form sends `intent=cancel`.
 */
export function CancelCard({
  title,
  consequence,
  warning,
  opener,
  formId,
  schema,
  lastResult,
  reasonLabel,
  submitLabel,
}: {
  /** "Cancel event". */
  title: string;
  /** Who is affected and how: "3 tickets are sold: their holders will need refunds." */
  consequence: string;
  /** That it cannot be undone, and what the public page will say. */
  warning: string;
  /** The disclosure's words: "Cancel this event…". */
  opener: string;
  formId: string;
  schema: z.ZodObject<{ reason: z.ZodType }>;
  lastResult?: SubmissionResult<string[]>;
  reasonLabel: string;
  submitLabel: string;
}) {
  const open = Boolean(lastResult?.error && Object.keys(lastResult.error).length > 0);
  return (
    <StatusCard title={title} tone="danger">
      <p className="text-sm">
        {consequence} <span className="text-muted">{warning}</span>
      </p>
      <details open={open}>
        <summary className="cursor-pointer rounded text-sm font-bold text-red-700 dark:text-red-300">{opener}</summary>
        <StepForm
          id={formId}
          intent="cancel"
          label={submitLabel}
          pendingLabel="Cancelling…"
          lastResult={lastResult}
          schema={schema}
          validate="onBlur"
          variant="danger"
          className="mt-3 space-y-3"
          fields={(fields) => <TextAreaField meta={fields.reason} label={reasonLabel} rows={3} />}
        />
      </details>
    </StatusCard>
  );
}

/** A cancelled record's card: when, the reason its public page gives, and anything still to do. */
export function CancelledCard({
  cancelledLabel,
  reason,
  children,
}: {
  cancelledLabel: string | null;
  reason: string | null;
  children?: ReactNode;
}) {
  return (
    <StatusCard title="Cancelled">
      <p className="text-sm">Cancelled {cancelledLabel ? `on ${cancelledLabel}` : ""}. The reason given:</p>
      <blockquote className="border-l-4 border-line pl-3 text-sm italic text-muted">{reason}</blockquote>
      {children}
    </StatusCard>
  );
}
