import { type FormEvent, type SyntheticEvent, useEffect, useId, useMemo, useState } from "react";

/**
 * A small form state for the public sign-in and sign-up pages, where every kilobyte of script
 * counts. It reads the same `submission.reply()` the server returns for Conform forms, and
 * checks the same rules in the browser through the constraint attributes the server derived
 * from the Zod schema (required, lengths, pattern, email), so feedback is instant without
 * shipping Zod or Conform.
 */

export type SubmissionReply = {
  status?: "success" | "error";
  initialValue?: Record<string, unknown> | null;
  error?: Record<string, string[] | null> | null;
};

export type FieldConstraint = {
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: string | number;
  max?: string | number;
  pattern?: string;
};

/** What the shared field components need of a field, from this hook or from Conform. */
export type FieldLike = {
  id: string;
  name: string;
  errorId: string;
  errors?: string[];
  initialValue?: unknown;
  key?: string;
} & FieldConstraint;

type Errors = Record<string, string[] | undefined>;

export function useLightForm<Shape extends Record<string, unknown>>({
  lastResult,
  constraint = {},
}: {
  lastResult?: SubmissionReply | null;
  constraint?: Record<string, FieldConstraint>;
}) {
  const id = useId();
  const [clientErrors, setClientErrors] = useState<Errors>({});
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    setClientErrors({});
    // A successful reply without values asks for an empty form: remount the inputs.
    if (lastResult && !lastResult.initialValue) setGeneration((value) => value + 1);
  }, [lastResult]);

  const serverErrors = (lastResult?.error ?? {}) as Errors;
  const errorsFor = (name: string) => {
    const client = clientErrors[name];
    if (client) return client.length ? client : undefined;
    return serverErrors[name] ?? undefined;
  };
  const showValidity = (element: Element) => {
    if (
      !(
        element instanceof HTMLInputElement ||
        element instanceof HTMLTextAreaElement ||
        element instanceof HTMLSelectElement
      )
    )
      return;
    if (!element.name || element.type === "hidden") return;
    setClientErrors((previous) => ({
      ...previous,
      [element.name]: element.validity.valid ? [] : [element.validationMessage],
    }));
  };

  const fields = useMemo(
    () =>
      new Proxy({} as Record<keyof Shape & string, FieldLike>, {
        get: (_target, name: string) => ({
          id: `${id}-${name}`,
          name,
          errorId: `${id}-${name}-error`,
          key: `${generation}`,
          initialValue: lastResult?.initialValue?.[name],
          ...constraint[name],
        }),
      }),
    [id, generation, lastResult, constraint],
  );

  const form = {
    id,
    errorId: `${id}-form-error`,
    errors: serverErrors[""] ?? undefined,
    props: {
      id,
      noValidate: true,
      onBlur: (event: SyntheticEvent<HTMLFormElement>) => showValidity(event.target as Element),
      onInput: (event: SyntheticEvent<HTMLFormElement>) => {
        const target = event.target as HTMLInputElement;
        if (errorsFor(target.name)) showValidity(target);
      },
      onSubmit: (event: FormEvent<HTMLFormElement>) => {
        const submitter = (event.nativeEvent as SubmitEvent).submitter;
        if (submitter?.hasAttribute("formnovalidate") || event.currentTarget.checkValidity()) return;
        event.preventDefault();
        const invalid = [...event.currentTarget.elements].filter(
          (element) => "validity" in element && !(element as HTMLInputElement).validity.valid,
        );
        for (const element of invalid) showValidity(element);
        (invalid[0] as HTMLElement | undefined)?.focus();
      },
    },
  };
  // Field errors as the reader sees them now (client checks replace the server's answer).
  const withErrors = new Proxy(fields, {
    get: (target, name: string) => ({ ...target[name as keyof Shape & string], errors: errorsFor(name) }),
  });
  return [form, withErrors] as const;
}
