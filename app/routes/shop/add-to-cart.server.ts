import { data, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { merchQuantity } from "~/features/cart/cart-forms.server";
import { addMerchToCart } from "~/features/cart/cart-page.server";
import { productVariantsBySlug } from "~/features/shop/catalogue.server";
import { hasRole } from "~/server/auth/session.server";
import { runtimeContext, userContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { notFound } from "~/ui/not-found";
import { cartOwner } from "~/web/cart-step.server";
import { newVisitorCookie } from "~/web/visitor-cookie.server";

/** What the product page shows again after a refused Add to cart: the message and what was picked. */
export type AddToCartRefusal = {
  error: string;
  /** The option field the message is about (`option-0`…), or "quantity"; null for the whole form. */
  field: string | null;
  values: { options: string[]; quantity: string };
};

function text(value: FormDataEntryValue | null) {
  return typeof value === "string" ? value.trim().slice(0, 100) : "";
}

/** What the product page's form must hold: a value for each of the product's options, and how many. */
function productChoiceSchema(optionNames: readonly string[]) {
  return z.object({
    options: z.tuple(
      optionNames.map((name) => z.string().min(1, `Choose a ${name.toLowerCase()}`)) as [z.ZodString, ...z.ZodString[]],
    ),
    quantity: merchQuantity,
  });
}

/**
 * The product page's Add to cart (a plain form, so it works without JavaScript): finds the
 * variant from the options picked, puts it in the member's or visitor's cart (giving a
 * first-time visitor their cart cookie) and goes back to the product with a message and a link
 * to the cart; a refusal answers 400 with the message and what was picked.
 */
export async function addToCartFromProductPage(args: {
  request: Request;
  context: Readonly<RouterContextProvider>;
  slug: string;
  form: FormData;
}) {
  const { db, env } = args.context.get(runtimeContext);
  const user = args.context.get(userContext);
  const staff = Boolean(user && hasRole(user, "organizer"));
  const product = await productVariantsBySlug(db, args.slug, staff);
  if (!product) notFound();

  const { form } = args;
  const options = product.optionNames.map((_, index) => text(form.get(`option-${index}`)));
  const values = { options, quantity: text(form.get("quantity")) || "1" };
  const refuse = (error: string, field: string | null) =>
    data({ error, field, values } satisfies AddToCartRefusal, { status: 400 });

  const choice = productChoiceSchema(product.optionNames).safeParse(values);
  if (!choice.success) {
    const [issue] = choice.error.issues;
    const [field, index] = issue?.path ?? [];
    return refuse(
      issue?.message ?? "Check the form and try again",
      field === "options" ? `option-${String(index)}` : "quantity",
    );
  }
  const { quantity } = choice.data;
  const variant =
    product.optionNames.length === 0
      ? product.variants.find((row) => row.active)
      : product.variants.find((row) => row.options.every((value, index) => value === options[index]));
  if (!variant) return refuse(`${options.join(" / ")} is not one of the choices for this product`, null);

  const existing = cartOwner(args.context, args.request);
  const cookie = existing ? null : newVisitorCookie(env.SITE_URL);
  const owner = existing ?? { visitorToken: cookie!.token };
  const change = await addMerchToCart(db, {
    owner,
    variantId: variant.id,
    quantity,
    now: new Date(),
    userId: user?.id,
  });
  if (!change.ok) {
    const field = change.problem.code === "quantity" || change.problem.code === "max_per_order" ? "quantity" : null;
    return refuse(change.problem.message, field);
  }
  return redirectWithFlash(
    `/shop/${product.slug}`,
    {
      kind: "success",
      message: `Added ${change.added} × ${change.name} to your cart.`,
      link: { href: "/cart", label: "View cart" },
    },
    cookie ? { headers: { "Set-Cookie": cookie.header } } : undefined,
  );
}
