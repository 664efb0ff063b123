import { ProductForm } from "~/features/shop/product-form";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { pageTitle } from "~/ui/page-title";
import { FormPageHeader } from "~/ui/record-header";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/new";
import { createProductAction } from "./shop-forms.server";

export function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  return null;
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const call = { db, actorId: user.id, currency: env.CURRENCY, now: new Date() };
  return createProductAction(call, await readForm(request));
}

export default function NewProduct({ actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-[820px] space-y-8">
      <FormPageHeader
        back={{ to: "/admin/shop", label: "Shop" }}
        title="New product"
        intro="It is saved as a draft: nobody sees it until you put it on sale. Variants, stock and photos come next."
      />
      <ProductForm
        defaultValue={{ category: "apparel", lowStockThreshold: "5" }}
        lastResult={actionData?.result}
        isNew
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  return [{ title: pageTitle(matches, "New product", "Shop", "Dashboard") }, { name: "robots", content: "noindex" }];
};
