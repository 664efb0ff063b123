import type { FieldMessages } from "~/features/forms/fields";

/** What an editor change answers: done (with what it made), or the messages per field. */
export type Outcome<T = unknown> = ({ ok: true } & T) | { ok: false; errors: FieldMessages };

export const refuse = (errors: FieldMessages) => ({ ok: false as const, errors });
