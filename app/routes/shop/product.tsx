import { Link } from "react-router";
import { serializeJsonLd } from "~/features/events/json-ld";
import { membershipBuyer } from "~/features/membership/memberships.server";
import { getProductPage, memberPriceNote } from "~/features/shop/catalogue.server";
import { CATEGORY_LABELS, shopHref } from "~/features/shop/catalogue-labels";
import { productJsonLd } from "~/features/shop/json-ld";
import { productImageShareUrl } from "~/features/shop/product-image-urls";
import { AddToCartForm, ProductGallery, SizeGuide } from "~/features/shop/product-parts";
import { MERCH_OFFER_HOURS } from "~/features/waiting-lists/offers.server";
import { VariantWaitingList } from "~/features/waiting-lists/variant-waiting-list";
import { memberListsOnProduct } from "~/features/waiting-lists/waiting-lists.server";
import { hasRole } from "~/server/auth/session.server";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext, userContext } from "~/server/context.server";
import { Badge } from "~/ui/badge";
import { formatMoney } from "~/ui/money";
import { useNonce } from "~/ui/nonce";
import { notFound } from "~/ui/not-found";
import { linkPreviewMeta } from "~/ui/page-meta";
import { pageTitle, siteNameOf } from "~/ui/page-title";
import { useSite } from "~/ui/site";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/product";
import { type AddToCartRefusal, addToCartFromProductPage } from "./add-to-cart.server";
import { type JoinListRefusal, joinListFromProductPage, WAITING_LIST_INTENT } from "./waiting-list-action.server";

export async function loader({ context, params }: Route.LoaderArgs) {
  const { db, env, storage } = context.get(runtimeContext);
  const user = context.get(userContext);
  const staff = Boolean(user && hasRole(user, "organizer"));
  const now = new Date();
  // A member sees their prices, their tier's where set (a visitor's page, the same for every visitor, is cached).
  const buyer = await membershipBuyer(db, user?.id, now);
  const page = await getProductPage(db, params.slug, { staff, now, ...buyer });
  if (!page) notFound("This product could not be found");
  const imageUrls = page.images.map((image) => productImageShareUrl(image.hash, env.SITE_URL, storage.publicBase));
  const pageUrl = `${env.SITE_URL}/shop/${page.slug}`;
  // Sold-out variants take a waiting list while the product is in the shop; a member sees their place.
  const soldOut =
    page.status === "active" && page.waitingListEnabled
      ? page.variants
          .filter((variant) => variant.available === 0)
          .map((variant) => ({
            id: variant.id,
            label: variant.options.join(" / ") || page.title,
            maxPerOrder: variant.maxPerOrder,
          }))
      : [];
  const waitingLists =
    user && soldOut.length > 0 ? await memberListsOnProduct(db, user.id, page.id, now, env.TIME_ZONE) : {};
  return {
    page,
    pageUrl,
    soldOut,
    waitingLists,
    offerHours: MERCH_OFFER_HOURS,
    memberNote: memberPriceNote(page.variants, env.CURRENCY),
    imageUrl: imageUrls[0] ?? null,
    jsonLd: serializeJsonLd(
      productJsonLd(page, { name: env.SITE_NAME, url: env.SITE_URL, currency: env.CURRENCY }, imageUrls),
    ),
  };
}

/** Add to cart, or join a sold-out variant's waiting list: plain forms, so they work without JavaScript. */
export async function action({ request, context, params, url }: Route.ActionArgs) {
  const form = await readForm(request);
  if (form.get("intent") === WAITING_LIST_INTENT) {
    return joinListFromProductPage({ context, url, slug: params.slug, form });
  }
  return addToCartFromProductPage({ request, context, slug: params.slug, form });
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export default function ProductDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { page, memberNote } = loaderData;
  const { currency } = useSite();
  const nonce = useNonce();
  const prices = page.variants.map((variant) => variant.price);
  const low = prices.length > 0 ? Math.min(...prices) : 0;
  const onePrice = prices.every((price) => price === low);
  const refusal = actionData as AddToCartRefusal | JoinListRefusal | undefined;
  const problem = refusal && "error" in refusal ? refusal : undefined;
  return (
    <main id="main">
      {/* A data block, not a script: serialised with "<" escaped so it cannot end the element. */}
      <script type="application/ld+json" nonce={nonce} dangerouslySetInnerHTML={{ __html: loaderData.jsonLd }} />
      <div className="mx-auto max-w-[1200px] px-4 py-8 sm:px-6 md:py-12">
        <nav aria-label="Breadcrumb" className="mb-6 text-sm">
          <ol className="flex flex-wrap items-center gap-2 text-muted">
            <li>
              <Link to="/shop" className="text-link underline">
                Shop
              </Link>
            </li>
            <li aria-hidden="true">/</li>
            <li>
              <Link to={shopHref({ category: page.category })} className="text-link underline">
                {CATEGORY_LABELS[page.category]}
              </Link>
            </li>
          </ol>
        </nav>
        <div className="grid gap-8 md:grid-cols-2 md:gap-12">
          <ProductGallery images={page.images} title={page.title} />
          <div className="min-w-0 space-y-6">
            {page.status !== "active" ? (
              <p className="rounded-xl bg-amber-100 px-4 py-3 text-sm font-semibold text-amber-950 dark:bg-amber-950 dark:text-amber-100">
                Preview: this product is {page.status} and only staff can see it.
              </p>
            ) : null}
            <div className="space-y-3">
              <p className="text-xs font-bold uppercase tracking-[0.18em] text-accent-ink">
                {CATEGORY_LABELS[page.category]}
              </p>
              <h1 className="wide text-3xl font-black leading-tight sm:text-4xl">{page.title}</h1>
              <p className="tabular text-2xl font-extrabold">
                {prices.length === 0
                  ? "Not on sale"
                  : onePrice
                    ? formatMoney(low, currency)
                    : `from ${formatMoney(low, currency)}`}
                {page.variants.length > 0 && page.variants.every((variant) => variant.available === 0) ? (
                  <Badge tone="solid-dark" className="ml-3 align-middle">
                    Sold out
                  </Badge>
                ) : null}
              </p>
              {memberNote ? (
                <p
                  className={
                    memberNote.join ? "text-sm" : "text-sm font-semibold text-emerald-800 dark:text-emerald-300"
                  }
                >
                  {memberNote.text}
                  {memberNote.join ? (
                    <>
                      {" "}
                      <Link to="/membership" className="font-semibold text-link underline">
                        Join the club
                      </Link>
                    </>
                  ) : null}
                </p>
              ) : null}
              {page.summary ? <p className="text-lg leading-relaxed text-muted">{page.summary}</p> : null}
            </div>
            <section id="buy" aria-label="Buy" className="scroll-mt-24">
              {page.variants.length > 0 ? (
                <AddToCartForm
                  key={JSON.stringify(problem?.values ?? null)}
                  optionNames={page.optionNames}
                  optionValues={page.optionValues}
                  variants={page.variants}
                  problem={problem}
                />
              ) : (
                <p className="font-semibold">This product is not on sale at the moment.</p>
              )}
            </section>
            {loaderData.soldOut.length > 0 ? (
              <VariantWaitingList
                soldOut={loaderData.soldOut}
                entries={loaderData.waitingLists}
                offerHours={loaderData.offerHours}
                problem={refusal && "waiting" in refusal ? refusal.waiting : undefined}
              />
            ) : null}
            {page.sizeGuideHtml ? <SizeGuide html={page.sizeGuideHtml} /> : null}
            {page.descriptionHtml ? (
              <section aria-labelledby="about" className="space-y-3">
                <h2 id="about" className="wide text-xl font-extrabold">
                  About this product
                </h2>
                {/* Rendered from Markdown on the server with raw HTML escaped. */}
                <div className="prose-pitlane" dangerouslySetInnerHTML={{ __html: page.descriptionHtml }} />
              </section>
            ) : null}
            <p className="text-sm text-muted">
              Delivered by post, or collect it free at an event you have a ticket for: choose when you pay.
            </p>
          </div>
        </div>
      </div>
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const site = siteNameOf(matches);
  if (!data) return [{ title: pageTitle(matches, "Product not found") }];
  const { page } = data;
  const description = page.summary || `${page.title} from the ${site} shop.`;
  return [
    { title: pageTitle(matches, page.title) },
    { name: "description", content: description },
    ...(page.status !== "active" ? [{ name: "robots", content: "noindex" }] : []),
    ...linkPreviewMeta({
      url: data.pageUrl,
      title: page.title,
      description,
      type: "product",
      site,
      image: data.imageUrl ? { url: data.imageUrl, width: 1200, height: 1500, alt: page.images[0]?.alt } : null,
    }),
  ];
};
