import type { Submission } from "@conform-to/react";
import { data } from "react-router";
import type { NotFound, Refusal } from "~/features/forms/refusal";
import { notFound } from "~/ui/not-found";

// How a page's form answers when it is not done: a 400 that names the form (`intent`) and carries
// Conform's reply, which keeps everything typed and puts each message by its field. `extra` is
// whatever else the page needs to show the form again (which photo, which ticket type).

/** The schema refused the form: its own messages, by field. */
export function invalidReply<T, Extra extends object = Record<never, never>>(
  intent: string,
  submission: Submission<T>,
  extra: Extra = {} as Extra,
) {
  return data({ intent, result: submission.reply(), ...extra }, { status: 400 });
}

/**
 * A rule refused the change: its message on the field it names, or on the whole form. What the
 * change was about no longer exists: the page's 404.
 */
export function refusedReply<T, Extra extends object = Record<never, never>>(
  intent: string,
  submission: Submission<T>,
  outcome: Refusal | NotFound | { message: string },
  extra: Extra = {} as Extra,
) {
  if ("notFound" in outcome) notFound();
  const errors =
    "field" in outcome && outcome.field
      ? { fieldErrors: { [outcome.field]: [outcome.message] } }
      : { formErrors: [outcome.message] };
  return data({ intent, result: submission.reply(errors), ...extra }, { status: 400 });
}
