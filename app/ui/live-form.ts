import { type DefaultValue, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useMemo } from "react";
import type { z } from "zod";

/**
 * An editor's form checked in the browser with the schema the server parses: each field as it is
 * left, then again as it is corrected. `rules` gives the inputs their own attributes (required,
 * lengths) when the schema is more than its fields, such as one that compares two dates.
 */
export function useLiveForm<Shape extends Record<string, unknown>, Output>({
  id,
  schema,
  rules = schema,
  lastResult,
  defaultValue,
}: {
  id: string;
  schema: z.ZodType<Output>;
  rules?: z.ZodType;
  lastResult?: SubmissionResult<string[]>;
  defaultValue?: DefaultValue<Shape>;
}) {
  const constraint = useMemo(() => getZodConstraint(rules), [rules]);
  return useForm<Shape, Output>({
    id,
    lastResult,
    constraint,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}
