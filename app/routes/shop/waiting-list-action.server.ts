import { data, type RouterContextProvider } from "react-router";
import { productVariantsBySlug } from "~/features/shop/catalogue.server";
import { JoinVariantListSchema } from "~/features/waiting-lists/schemas";
import { ordinal } from "~/features/waiting-lists/waiting-list-rules";
import { joinVariantWaitingList } from "~/features/waiting-lists/waiting-lists.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { notFound } from "~/ui/not-found";

/** The product page's "Join the waiting list" intent. */
export const WAITING_LIST_INTENT = "join-waiting-list";

/** What the product page shows again after a refused join: the message by the waiting-list form. */
export type JoinListRefusal = { waiting: string };

/**
 * Joins the line for one of this product's sold-out variants. Members only: a visitor is sent to
 * sign in and comes back to the product. A refusal answers 400 with the message by the form.
 */
export async function joinListFromProductPage(args: {
  context: Readonly<RouterContextProvider>;
  url: URL;
  slug: string;
  form: FormData;
}) {
  const user = requireUser({ context: args.context, url: args.url });
  const { db } = args.context.get(runtimeContext);
  const product = await productVariantsBySlug(db, args.slug, false);
  if (!product) notFound();
  const refuse = (waiting: string) => data({ waiting } satisfies JoinListRefusal, { status: 400 });
  const parsed = JoinVariantListSchema.safeParse(Object.fromEntries(args.form));
  if (!parsed.success) return refuse(parsed.error.issues[0]!.message);
  const { variantId, quantity } = parsed.data;
  if (!product.variants.some((variant) => variant.id === variantId)) return refuse("Choose the one you want");
  const joined = await joinVariantWaitingList(db, { userId: user.id, variantId, quantity, now: new Date() });
  if (!joined.ok) return refuse(joined.message);
  return redirectWithFlash(`/shop/${product.slug}`, {
    kind: "success",
    message: `You are ${ordinal(joined.position)} in line for ${joined.name}. We will email you when it is back in stock.`,
    link: { href: "/members/events#waiting-lists", label: "My waiting lists" },
  });
}
