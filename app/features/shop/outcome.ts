import type { FieldErrors } from "./admin-forms";

/** What an editor change answers: done (with what it made), or the messages per field. */
export type Outcome<T = unknown> = ({ ok: true } & T) | { ok: false; errors: FieldErrors };

export const refuse = (errors: FieldErrors) => ({ ok: false as const, errors });
