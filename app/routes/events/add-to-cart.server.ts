import { data, type RouterContextProvider } from "react-router";
import { AddToCartSchema, cartFormValues, firstIssue } from "~/features/cart/cart-forms.server";
import { addToCart } from "~/features/cart/cart-page.server";
import { eventHasTicketType, publicEventRef } from "~/features/events/catalogue.server";
import { currentMembership } from "~/features/membership/memberships.server";
import { addToCartTurnProblem } from "~/features/waiting-room/waiting-room.server";
import { runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { notFound } from "~/ui/not-found";
import { cartOwner } from "~/web/cart-step.server";
import { newVisitorCookie } from "~/web/visitor-cookie.server";

/** What the event page shows beside the ticket type a refused Add to cart was about. */
export type AddToCartProblem = { ticketTypeId: string | null; message: string };

/**
 * A refusal about a ticket type the page shows is answered 400 with the message for that row;
 * one the page cannot place (an edited form's unknown ticket type) comes back as a notice.
 */
function refused(slug: string, problem: AddToCartProblem) {
  if (!problem.ticketTypeId) return redirectWithFlash(`/events/${slug}`, { kind: "error", message: problem.message });
  return data({ cart: { [problem.ticketTypeId]: problem.message } as Record<string, string> }, { status: 400 });
}

function tickets(quantity: number, name: string) {
  return `${quantity} × ${name}`;
}

/**
 * The event page's Add to cart: checks the form, puts the tickets in the member's or visitor's
 * cart (giving a first-time visitor their cart cookie) and goes back to the event with a
 * message; a refusal answers 400 with the message for the page to show by the ticket type.
 */
export async function addToCartFromEventPage(args: {
  request: Request;
  context: Readonly<RouterContextProvider>;
  idOrSlug: string;
}) {
  const { db, env } = args.context.get(runtimeContext);
  const event = await publicEventRef(db, args.idOrSlug);
  if (!event) notFound();

  const values = cartFormValues(await args.request.formData());
  const parsed = AddToCartSchema.safeParse(values);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error, values);
    const onPage = issue.ticketTypeId && (await eventHasTicketType(db, event.id, issue.ticketTypeId));
    return refused(event.slug, { ...issue, ticketTypeId: onPage ? issue.ticketTypeId : null });
  }

  const existing = cartOwner(args.context, args.request);
  const userId = existing && "userId" in existing ? existing.userId : null;
  const turn = await addToCartTurnProblem(db, event.id, { userId }, new Date());
  if (turn) return refused(event.slug, { ticketTypeId: parsed.data.ticketTypeId, message: turn.message });
  const cookie = existing ? null : newVisitorCookie(env.SITE_URL);
  const owner = existing ?? { visitorToken: cookie!.token };
  const now = new Date();
  const member = userId ? (await currentMembership(db, userId, now)) !== null : false;
  const result = await addToCart(db, { owner, eventId: event.id, ...parsed.data, now, member });
  if (!result.ok) return refused(event.slug, result);
  // Back to the ticket list, where the buyer was, with or without JavaScript.
  return redirectWithFlash(
    `/events/${event.slug}#tickets`,
    {
      kind: "success",
      message: `Added ${tickets(result.quantity, result.name)} to your cart.`,
      link: { href: "/cart", label: "View cart" },
    },
    cookie ? { headers: { "Set-Cookie": cookie.header } } : undefined,
  );
}
