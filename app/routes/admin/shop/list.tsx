import { Settings } from "lucide-react";
import { Link } from "react-router";
import { listProductsForAdmin } from "~/features/shop/admin.server";
import { CATEGORY_LABELS } from "~/features/shop/catalogue-labels";
import { ProductStatusBadge, StockFigures } from "~/features/shop/product-header";
import { ProductPicture } from "~/features/shop/product-picture";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { ListPageHeader } from "~/ui/list-page";
import { formatMoney } from "~/ui/money";
import { pageTitle } from "~/ui/page-title";
import { countOf } from "~/ui/plural";
import { useSite } from "~/ui/site";
import type { Route } from "./+types/list";

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db } = context.get(runtimeContext);
  return { products: await listProductsForAdmin(db, new Date()) };
}

export default function AdminShopList({ loaderData }: Route.ComponentProps) {
  const { products } = loaderData;
  const { currency } = useSite();
  return (
    <div className="mx-auto max-w-[1100px]">
      <ListPageHeader
        area="Organize"
        title="Shop"
        intro="Club merch: products, their sizes and colours, stock and photos. New products stay drafts until you put them on sale."
        create={{ to: "/admin/shop/new", label: "New product" }}
        actions={
          <Link
            to="/admin/shop/settings"
            className="inline-flex items-center gap-2 rounded-full px-5 py-3 font-bold ring-1 ring-line hover:bg-surface-sunken"
          >
            <Settings aria-hidden className="size-5" /> Delivery settings
          </Link>
        }
      />
      {products.length === 0 ? (
        <Card variant="empty" className="mt-8 p-10">
          <p className="font-semibold">No products yet.</p>
          <p className="mt-1 text-muted">Add the first one: a T-shirt, a sticker pack…</p>
        </Card>
      ) : (
        <Card as="ul" variant="list" className="mt-8">
          {products.map((product) => {
            return (
              <li key={product.id} className="flex flex-wrap items-center gap-4 p-4 sm:flex-nowrap">
                <div className="w-14 shrink-0 overflow-hidden rounded-lg bg-surface-sunken">
                  <ProductPicture
                    image={product.image ? { ...product.image, alt: "" } : null}
                    layout="thumb"
                    className="aspect-[4/5] w-full"
                  />
                </div>
                <div className="min-w-0 flex-1 space-y-1">
                  <p className="flex flex-wrap items-center gap-2">
                    <Link
                      to={`/admin/shop/${product.id}`}
                      className="font-bold text-link underline-offset-2 hover:underline"
                    >
                      {product.title}
                    </Link>
                    <ProductStatusBadge status={product.status} />
                  </p>
                  <p className="text-sm text-muted">
                    {CATEGORY_LABELS[product.category]} · {countOf(product.variantCount, "variant", "variants")}
                    {product.fromPrice !== null ? ` · from ${formatMoney(product.fromPrice, currency)}` : ""}
                  </p>
                  {product.variants.length > 1 ? (
                    <p className="tabular text-sm">
                      <span className="sr-only">Left per variant: </span>
                      {product.variants.map((line) => `${line.label} ${line.available}`).join(" · ")}
                    </p>
                  ) : null}
                  {product.lowStock.length > 0 && product.status !== "archived" ? (
                    <p className="text-sm font-semibold text-amber-800 dark:text-amber-200">
                      Low stock:{" "}
                      {product.lowStock
                        .map(
                          (line) => `${line.label} (${line.available === 0 ? "sold out" : `${line.available} left`})`,
                        )
                        .join(", ")}
                    </p>
                  ) : null}
                </div>
                <StockFigures available={product.available} stock={product.stock} />
              </li>
            );
          })}
        </Card>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  return [{ title: pageTitle(matches, "Shop", "Dashboard") }, { name: "robots", content: "noindex" }];
};
