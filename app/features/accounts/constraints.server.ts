import { getZodConstraint } from "@conform-to/zod/v4";
import type { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN } from "./schemas";

/** Limits the browser checks from attributes; they mirror the Zod rules in schemas.ts. */
const FIELD_LIMITS: Record<string, { minLength?: number; maxLength?: number }> = {
  name: { maxLength: 80 },
  email: { maxLength: 254 },
  password: { minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX },
  confirm: { maxLength: PASSWORD_MAX },
  currentPassword: { maxLength: PASSWORD_MAX },
};

/**
 * The attributes (required, lengths, pattern) that let the browser check a form's fields as
 * they are left, computed on the server so the page ships no schema library.
 */
export function formConstraint(schema: z.ZodType) {
  const derived = getZodConstraint(schema) as Record<string, Record<string, unknown>>;
  // A new object: Conform's answer is a view that ignores writes.
  return Object.fromEntries(Object.keys(derived).map((name) => [name, { ...derived[name], ...FIELD_LIMITS[name] }]));
}
