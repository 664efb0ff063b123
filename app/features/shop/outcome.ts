import type { Refusal } from "~/features/forms/refusal";

/** What an editor change answers: done (with what it made), or a rule's refusal naming its field ("" for the whole form). */
export type Outcome<T = unknown> = ({ ok: true } & T) | Refusal;
