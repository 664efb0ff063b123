import { type DefaultValue, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import type { z } from "zod";

/** One card of the settings page, with an anchor (/settings#email) and its own heading. */
export function SettingsSection({
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
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className="scroll-mt-24 rounded-3xl border border-line bg-surface p-5 shadow-sm sm:p-7"
    >
      <h2 id={`${id}-title`} className="wide text-xl font-extrabold">
        {title}
      </h2>
      {description ? <p className="mt-1 text-muted">{description}</p> : null}
      <div className="mt-5 space-y-4">{children}</div>
    </section>
  );
}

/** A row of a section: what it is on the left (after its icon, if any), its state or action on the right. */
export function SettingsRow({
  label,
  icon: Icon,
  children,
}: {
  label: ReactNode;
  icon?: LucideIcon;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-2 border-t border-line pt-4 first:border-t-0 first:pt-0 sm:flex-row sm:items-center sm:justify-between">
      <div className="font-semibold">
        {Icon ? (
          <span className="inline-flex items-center gap-2">
            <Icon aria-hidden className="size-5 text-muted" /> {label}
          </span>
        ) : (
          label
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3 sm:justify-end">{children}</div>
    </div>
  );
}

export const linkButton =
  "inline-flex items-center justify-center gap-2 rounded-full bg-surface-sunken px-5 py-2.5 font-semibold text-text hover:bg-line";

/**
 * A settings form's state: the server's last answer, and its schema checked in the browser before
 * sending. `live` checks each field as it is left, and again as it is corrected.
 */
export function useSettingsForm<Schema extends z.ZodObject>(
  id: string,
  schema: Schema,
  lastResult: SubmissionResult<string[]> | undefined,
  options: { defaultValue?: DefaultValue<z.input<Schema>>; live?: boolean } = {},
) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    id,
    lastResult,
    constraint: getZodConstraint(schema),
    defaultValue: options.defaultValue,
    ...(options.live ? { shouldValidate: "onBlur", shouldRevalidate: "onInput" } : {}),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}
