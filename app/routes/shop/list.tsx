import { Link } from "react-router";
import { listProducts } from "~/features/shop/catalogue.server";
import { isProductCategory, shopHref } from "~/features/shop/catalogue-labels";
import { ProductTile } from "~/features/shop/product-tile";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { PageLinks } from "~/ui/page-links";
import { catalogueMeta } from "~/ui/page-meta";
import { pageTitle, siteNameOf } from "~/ui/page-title";
import { countOf } from "~/ui/plural";
import type { Route } from "./+types/list";

export async function loader({ context, url }: Route.LoaderArgs) {
  const { db } = context.get(runtimeContext);
  // Whatever the address says, the page answers: an unknown category shows everything.
  const param = url.searchParams.get("category");
  const category = isProductCategory(param) ? param : undefined;
  const page = Number.parseInt(url.searchParams.get("page") ?? "1", 10);
  const list = await listProducts(db, { category, page, now: new Date() });
  return { ...list, category: category ?? "" };
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export default function ShopPage({ loaderData }: Route.ComponentProps) {
  const { products, total, page, pageCount, categories, allCount, category } = loaderData;
  const current = categories.find((row) => row.value === category);
  const tab = (active: boolean) =>
    `inline-flex h-11 items-center gap-2 rounded-full px-4 text-sm font-bold ring-1 transition-colors ${active ? "bg-accent text-on-accent ring-accent" : "ring-white/20 text-asphalt-200 hover:bg-white/10 hover:text-white"}`;
  return (
    <main id="main">
      <section className="dark-band relative isolate overflow-hidden bg-asphalt-950 text-white [color-scheme:dark]">
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_60%_90%_at_85%_-10%,rgb(255_122_26/0.32),transparent_70%),radial-gradient(ellipse_40%_60%_at_10%_110%,rgb(255_255_255/0.06),transparent_70%)]"
        />
        <div className="mx-auto max-w-[1200px] px-4 pb-8 pt-10 sm:px-6 md:pt-16">
          <p className="text-sm font-bold uppercase tracking-[0.25em] text-accent-strong">Club merch</p>
          <h1 className="wide mt-2 text-4xl font-black leading-none sm:text-6xl">Shop</h1>
          <p className="mt-4 max-w-xl text-lg text-asphalt-300">
            Tees, hoodies, stickers and models. Delivered to your door or picked up at the next event.
          </p>
          <nav aria-label="Categories" className="mt-8">
            <ul className="flex flex-wrap gap-2">
              <li>
                <Link to={shopHref({})} aria-current={category ? undefined : "page"} className={tab(!category)}>
                  All <span className="tabular opacity-80">{allCount}</span>
                </Link>
              </li>
              {categories.map((row) => (
                <li key={row.value}>
                  <Link
                    to={shopHref({ category: row.value })}
                    aria-current={row.value === category ? "page" : undefined}
                    className={tab(row.value === category)}
                  >
                    {row.label} <span className="tabular opacity-80">{row.count}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </section>
      <section aria-labelledby="results" className="mx-auto max-w-[1200px] px-4 py-10 sm:px-6 md:py-14">
        <h2 id="results" className="mb-6 text-lg font-bold">
          {countOf(total, "product", "products")}
          {current ? ` in ${current.label.toLowerCase()}` : ""}
        </h2>
        {products.length > 0 ? (
          <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 sm:gap-5 lg:grid-cols-4">
            {products.map((product, index) => (
              <li key={product.id}>
                <ProductTile product={product} priority={index < 2} />
              </li>
            ))}
          </ul>
        ) : (
          <Card variant="empty" className="p-10">
            <p className="font-semibold">Nothing here yet.</p>
            <p className="mt-1 text-muted">
              {category ? (
                <Link to={shopHref({})} className="text-link underline">
                  See everything in the shop
                </Link>
              ) : (
                "New merch is on its way. Check back soon."
              )}
            </p>
          </Card>
        )}
        {pageCount > 1 ? (
          <PageLinks page={page} pageCount={pageCount} href={(n) => shopHref({ category, page: n })} />
        ) : null}
      </section>
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const site = siteNameOf(matches);
  const category = data?.categories.find((row) => row.value === data.category);
  const title = pageTitle(matches, category ? `${category.label} — Shop` : "Shop");
  const description = `Club merch from ${site}: T-shirts, hoodies, caps, stickers, model cars and accessories.`;
  return [...catalogueMeta(title, description), { property: "og:site_name", content: site }];
};
