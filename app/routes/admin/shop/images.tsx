import { getProductForAdmin, productHeader } from "~/features/shop/admin.server";
import { PhotoEditor } from "~/features/shop/photo-editor";
import { ProductEditorHeader } from "~/features/shop/product-header";
import { requireRole } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/images";
import { idFrom, productImagesAction } from "./shop-forms.server";

// The one shop form that sends a file: server.ts lets bodies of up to 16 MB through to this path.
export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const productId = idFrom(params.productId);
  const found = await getProductForAdmin(context.get(runtimeContext).db, productId, new Date());
  if (!found) notFound();
  return { header: productHeader(found), images: found.product.images };
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const productId = idFrom(params.productId);
  const { db, env, storage } = context.get(runtimeContext);
  const ip = context.get(requestContext).ip;
  const call = { db, storage, ip, actorId: user.id, productId, currency: env.CURRENCY, now: new Date() };
  return productImagesAction(call, await readForm(request), url.pathname);
}

export default function ProductImages({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-[1000px] space-y-8">
      <ProductEditorHeader product={loaderData.header} />
      <p className="max-w-prose text-muted">
        Up to eight photos, in the order the product page shows them; the first is on the shop's tile. They are cropped
        to 4:5 around what matters, so a garment laid flat or a boxed model fills the frame.
      </p>
      <PhotoEditor images={loaderData.images} reply={actionData} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  return [
    { title: pageTitle(matches, "Photos", data?.header.title ?? "Product", "Shop", "Dashboard") },
    { name: "robots", content: "noindex" },
  ];
};
