import { ShopSettingsForm, settingsFormValues } from "~/features/shop/settings-form";
import { getShopSettings } from "~/features/shop/shop-settings.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { pageTitle } from "~/ui/page-title";
import { FormPageHeader } from "~/ui/record-header";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/settings";
import { shopSettingsAction } from "./shop-forms.server";

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  return { settings: settingsFormValues(await getShopSettings(db)), currency: env.CURRENCY };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const call = { db, actorId: user.id, currency: env.CURRENCY, now: new Date() };
  return shopSettingsAction(call, await readForm(request));
}

export default function ShopSettings({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-[720px] space-y-8">
      <FormPageHeader
        back={{ to: "/admin/shop", label: "Shop" }}
        title="Delivery settings"
        intro="What posting merch costs, when it is free, and whether buyers may collect it at an event they have a ticket for. Changes apply to orders started from now on."
      />
      <ShopSettingsForm
        defaultValue={loaderData.settings}
        currency={loaderData.currency}
        lastResult={actionData?.result}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  return [
    { title: pageTitle(matches, "Delivery settings", "Shop", "Dashboard") },
    { name: "robots", content: "noindex" },
  ];
};
