import { getProductForAdmin } from "~/features/shop/admin.server";
import { type Reply, replyFor } from "~/features/shop/admin-fields";
import { ProductEditorHeader } from "~/features/shop/admin-nav";
import { ProductForm } from "~/features/shop/product-form";
import { AddVariantForm, type EditorVariant, VariantCard } from "~/features/shop/variant-card";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import { useSite } from "~/ui/site";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/product";
import { idFrom, productEditorAction } from "./shop-forms.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const productId = idFrom(params.productId);
  const found = await getProductForAdmin(context.get(runtimeContext).db, productId, new Date());
  if (!found) notFound();
  const { product, variants } = found;
  return {
    product: {
      id: product.id,
      slug: product.slug,
      title: product.title,
      category: product.category,
      status: product.status,
      summary: product.summary,
      description: product.description,
      sizeGuide: product.sizeGuide,
      optionNames: product.optionNames,
      lowStockThreshold: product.lowStockThreshold,
    },
    variants: variants.map(
      (variant): EditorVariant => ({
        ...variant,
        history: variant.history.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
      }),
    ),
  };
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const productId = idFrom(params.productId);
  const { db } = context.get(runtimeContext);
  return productEditorAction(
    { db, actorId: user.id, productId, now: new Date() },
    await readForm(request),
    url.pathname,
  );
}

export default function ProductEditor({ loaderData, actionData }: Route.ComponentProps) {
  const { product, variants } = loaderData;
  const { currency } = useSite();
  const reply = actionData as Reply | undefined;
  return (
    <div className="mx-auto max-w-[1000px] space-y-10">
      <ProductEditorHeader product={product} />
      <section aria-labelledby="details" className="space-y-4">
        <h2 id="details" className="wide text-xl font-extrabold">
          Details
        </h2>
        <ProductForm product={product} reply={replyFor(reply, "save")} isNew={false} />
      </section>
      <section aria-labelledby="variants" className="space-y-4">
        <h2 id="variants" className="wide text-xl font-extrabold">
          Variants and stock
        </h2>
        {replyFor(reply, "add-variant") === undefined &&
        reply?.errors.form &&
        reply.target === null &&
        reply.intent !== "save" ? (
          <p role="alert" className="font-semibold text-red-700 dark:text-red-300">
            {reply.errors.form}
          </p>
        ) : null}
        {variants.length === 0 ? (
          <p className="text-muted">No variants yet: add one to put the product on sale.</p>
        ) : (
          <ul className="space-y-4">
            {variants.map((variant) => (
              <VariantCard
                key={variant.id}
                variant={variant}
                optionNames={product.optionNames}
                threshold={product.lowStockThreshold}
                reply={reply}
                currency={currency}
              />
            ))}
          </ul>
        )}
        <AddVariantForm optionNames={product.optionNames} reply={replyFor(reply, "add-variant")} />
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  return [
    { title: pageTitle(matches, data?.product.title ?? "Product", "Shop", "Dashboard") },
    { name: "robots", content: "noindex" },
  ];
};
