import { tiersForPrices } from "~/features/membership/tiers.server";
import { getProductForAdmin, productHeader } from "~/features/shop/admin.server";
import { ProductForm, productFormValues } from "~/features/shop/product-form";
import { ProductEditorHeader } from "~/features/shop/product-header";
import { AddVariantForm, type EditorVariant, VariantCard } from "~/features/shop/variant-card";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { FormErrors } from "~/ui/form";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/product";
import { idFrom, productEditorAction } from "./shop-forms.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const productId = idFrom(params.productId);
  const { db, env } = context.get(runtimeContext);
  const [found, tiers] = await Promise.all([getProductForAdmin(db, productId, new Date()), tiersForPrices(db)]);
  if (!found) notFound();
  const { product, variants } = found;
  return {
    header: productHeader(found),
    form: productFormValues(product),
    optionNames: product.optionNames,
    tiers,
    threshold: product.lowStockThreshold,
    currency: env.CURRENCY,
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
  const { db, env } = context.get(runtimeContext);
  const call = { db, actorId: user.id, productId, currency: env.CURRENCY, now: new Date() };
  return productEditorAction(call, await readForm(request), url.pathname);
}

export default function ProductEditor({ loaderData, actionData }: Route.ComponentProps) {
  const { header, form, optionNames, tiers, threshold, currency, variants } = loaderData;
  const resultOf = (intent: string, target: string | null = null) =>
    actionData?.intent === intent && actionData.target === target ? actionData.result : undefined;
  return (
    <div className="mx-auto max-w-[1000px] space-y-10">
      <ProductEditorHeader product={header} />
      <section aria-labelledby="details" className="space-y-4">
        <h2 id="details" className="wide text-xl font-extrabold">
          Details
        </h2>
        <ProductForm defaultValue={form} lastResult={resultOf("save")} isNew={false} />
      </section>
      <section aria-labelledby="variants" className="space-y-4">
        <h2 id="variants" className="wide text-xl font-extrabold">
          Variants and stock
        </h2>
        <FormErrors id="variants-error" errors={resultOf("")?.error?.[""] ?? undefined} />
        {variants.length === 0 ? (
          <p className="text-muted">No variants yet: add one to put the product on sale.</p>
        ) : (
          <ul className="space-y-4">
            {variants.map((variant) => (
              <VariantCard
                key={variant.id}
                variant={variant}
                optionNames={optionNames}
                tiers={tiers}
                threshold={threshold}
                results={{
                  update: resultOf("update-variant", variant.id),
                  remove: resultOf("delete-variant", variant.id),
                  stock: resultOf("stock", variant.id),
                }}
                currency={currency}
              />
            ))}
          </ul>
        )}
        {/* A new variant remounts the form, so it starts empty for the next one. */}
        <AddVariantForm
          key={variants.length}
          optionNames={optionNames}
          tiers={tiers}
          currency={currency}
          lastResult={resultOf("add-variant")}
        />
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  return [
    { title: pageTitle(matches, data?.header.title ?? "Product", "Shop", "Dashboard") },
    { name: "robots", content: "noindex" },
  ];
};
