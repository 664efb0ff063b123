import { data, type RouterContextProvider } from "react-router";
import { publicEventRef } from "~/features/events/catalogue.server";
import { JoinListSchema } from "~/features/waiting-lists/schemas";
import { ordinal } from "~/features/waiting-lists/waiting-list-rules";
import { joinWaitingList } from "~/features/waiting-lists/waiting-lists.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { notFound } from "~/ui/not-found";

/** The event page's "Join the waiting list" intent. */
export const WAITING_LIST_INTENT = "join-waiting-list";

/**
 * Joins the waiting list of a sold-out ticket type from the event page. Members only: a visitor
 * is sent to sign in and comes back to the event. A refusal answers 400 with the message by the
 * ticket type it is about.
 */
export async function joinListFromEventPage(args: {
  context: Readonly<RouterContextProvider>;
  url: URL;
  idOrSlug: string;
  form: FormData;
}) {
  const user = requireUser({ context: args.context, url: args.url });
  const { db } = args.context.get(runtimeContext);
  const event = await publicEventRef(db, args.idOrSlug);
  if (!event) notFound();
  const parsed = JoinListSchema.safeParse(Object.fromEntries(args.form));
  const ticketTypeId = String(args.form.get("ticketTypeId") ?? "");
  if (!parsed.success) {
    return data({ waiting: { [ticketTypeId]: parsed.error.issues[0]!.message } }, { status: 400 });
  }
  const joined = await joinWaitingList(db, { userId: user.id, eventId: event.id, ...parsed.data, now: new Date() });
  if (!joined.ok) return data({ waiting: { [ticketTypeId]: joined.message } }, { status: 400 });
  return redirectWithFlash(`/events/${event.slug}#tickets`, {
    kind: "success",
    message: `You are ${ordinal(joined.position)} in line for ${joined.name}. We will email you if places come back.`,
    link: { href: "/members/events#waiting-lists", label: "My waiting lists" },
  });
}
