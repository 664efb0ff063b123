import { data, type RouterContextProvider } from "react-router";
import { applyWithCar, withdrawApplication } from "~/features/applications/apply.server";
import type { ApplyErrors } from "~/features/applications/apply-section";
import { ApplySchema, WithdrawSchema } from "~/features/applications/schemas";
import { publicEventRef } from "~/features/events/catalogue.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { notFound } from "~/ui/not-found";

/** The intents of the event page's "Apply with your car" section. */
export const APPLY_INTENTS = ["apply", "withdraw-application"];

function refused(errors: ApplyErrors) {
  return data({ apply: errors }, { status: 400 });
}

/**
 * Applying with a car, or withdrawing an application, from the event page. Members only: a
 * visitor is sent to sign in and comes back to the event. Refusals answer 400 with the message
 * by the field it is about.
 */
export async function applyFromEventPage(args: {
  request: Request;
  context: Readonly<RouterContextProvider>;
  url: URL;
  idOrSlug: string;
  form: FormData;
}) {
  const user = requireUser({ context: args.context, url: args.url });
  const { db } = args.context.get(runtimeContext);
  const event = await publicEventRef(db, args.idOrSlug);
  if (!event) notFound();
  const values = Object.fromEntries(args.form);
  const now = new Date();
  if (values.intent === "withdraw-application") {
    const parsed = WithdrawSchema.safeParse(values);
    if (!parsed.success) return refused({ form: [parsed.error.issues[0]!.message] });
    const result = await withdrawApplication(db, { userId: user.id, applicationId: parsed.data.applicationId, now });
    if (!result.ok) return refused({ form: [result.message] });
    return redirectWithFlash(`/events/${event.slug}#apply`, { kind: "success", message: "Application withdrawn." });
  }
  const parsed = ApplySchema.safeParse(values);
  if (!parsed.success) {
    const errors: ApplyErrors = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === "carId" || issue.path[0] === "note" ? issue.path[0] : "form";
      errors[field] = [...(errors[field] ?? []), issue.message];
    }
    return refused(errors);
  }
  const result = await applyWithCar(db, { userId: user.id, eventId: event.id, ...parsed.data, now });
  if (!result.ok) return refused({ [result.field]: [result.message] });
  return redirectWithFlash(`/events/${event.slug}#apply`, {
    kind: "success",
    message: `Application sent for your ${result.carLabel}. The organizers reply by email.`,
    link: { href: "/members/events", label: "My events" },
  });
}
