import { OfferLinkSchema } from "~/features/waiting-lists/schemas";
import { claimOffer } from "~/features/waiting-lists/waiting-lists.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import type { Route } from "./+types/offer";

/**
 * The link in a waiting-list offer email: puts the member's held places in their cart, with the
 * offer's code, and opens the cart. A visitor signs in first and comes back here. Following it
 * twice changes nothing more (the cart line is set, not added to), and it only ever acts on the
 * signed-in member's own offer, so a link opened by a mail scanner, or by someone else, does
 * nothing (docs/waiting-lists.md).
 */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { db } = context.get(runtimeContext);
  const link = OfferLinkSchema.safeParse(params);
  const claimed = link.success
    ? await claimOffer(db, { userId: user.id, entryId: link.data.entryId, now: new Date() })
    : ({ ok: false, message: link.error.issues[0]!.message } as const);
  if (!claimed.ok) {
    return redirectWithFlash("/members/events#waiting-lists", { kind: "error", message: claimed.message });
  }
  return redirectWithFlash("/cart", {
    kind: "success",
    message: `${claimed.quantity} × ${claimed.name} ${claimed.quantity === 1 ? "is" : "are"} in your cart, held for you.`,
  });
}
