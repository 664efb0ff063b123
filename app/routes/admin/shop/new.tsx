import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import type { Reply } from "~/features/shop/admin-fields";
import { ProductForm } from "~/features/shop/product-form";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { pageTitle } from "~/ui/page-title";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/new";
import { createProductAction } from "./shop-forms.server";

export function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  return null;
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const { db } = context.get(runtimeContext);
  return createProductAction({ db, actorId: user.id, now: new Date() }, await readForm(request));
}

const EMPTY = {
  title: "",
  slug: "",
  category: "apparel",
  status: "draft",
  summary: "",
  description: "",
  sizeGuide: "",
  optionNames: [],
  lowStockThreshold: 5,
};

export default function NewProduct({ actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-[820px]">
      <Link
        to="/admin/shop"
        className="inline-flex items-center gap-1.5 text-sm font-semibold text-muted hover:text-text"
      >
        <ArrowLeft aria-hidden className="size-4" /> Shop
      </Link>
      <h1 className="wide mt-2 text-3xl font-extrabold sm:text-4xl">New product</h1>
      <p className="mt-2 max-w-prose text-muted">
        It is saved as a draft: nobody sees it until you put it on sale. Variants, stock and photos come next.
      </p>
      <div className="mt-8">
        <ProductForm product={EMPTY} reply={actionData as Reply | undefined} isNew />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  return [{ title: pageTitle(matches, "New product", "Shop", "Dashboard") }, { name: "robots", content: "noindex" }];
};
