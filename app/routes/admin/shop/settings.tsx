import { ArrowLeft } from "lucide-react";
import { Form, Link } from "react-router";
import { Checkbox, FormProblem, type Reply, TextInput } from "~/features/shop/admin-fields";
import { getShopSettings } from "~/features/shop/shop-settings.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { SubmitButton } from "~/ui/form";
import { currencySymbol, moneyInputValue } from "~/ui/money";
import { pageTitle } from "~/ui/page-title";
import { useSite } from "~/ui/site";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/settings";
import { shopSettingsAction } from "./shop-forms.server";

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const settings = await getShopSettings(context.get(runtimeContext).db);
  return {
    flatFee: moneyInputValue(settings.flatFee),
    freeOver: settings.freeOver === null ? "" : moneyInputValue(settings.freeOver),
    collectionEnabled: settings.collectionEnabled,
    countries: settings.countries.join(", "),
  };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const { db } = context.get(runtimeContext);
  return shopSettingsAction({ db, actorId: user.id, now: new Date() }, await readForm(request));
}

export default function ShopSettings({ loaderData, actionData }: Route.ComponentProps) {
  const reply = actionData as Reply | undefined;
  const symbol = currencySymbol(useSite().currency);
  return (
    <div className="mx-auto max-w-[720px]">
      <Link
        to="/admin/shop"
        className="inline-flex items-center gap-1.5 text-sm font-semibold text-muted hover:text-text"
      >
        <ArrowLeft aria-hidden className="size-4" /> Shop
      </Link>
      <h1 className="wide mt-2 text-3xl font-extrabold sm:text-4xl">Delivery settings</h1>
      <p className="mt-2 max-w-prose text-muted">
        What posting merch costs, when it is free, and whether buyers may collect it at an event they have a ticket for.
        Changes apply to orders started from now on.
      </p>
      <Card className="mt-8 p-6">
        <Form method="post" className="space-y-5" noValidate>
          <FormProblem reply={reply} />
          <div className="grid gap-5 sm:grid-cols-2">
            <TextInput
              form="shop-settings"
              name="flatFee"
              label={`Delivery fee (${symbol})`}
              value={loaderData.flatFee}
              reply={reply}
              inputMode="decimal"
              required
              hint="One fee per order, whatever it holds."
            />
            <TextInput
              form="shop-settings"
              name="freeOver"
              label={`Free delivery from (${symbol})`}
              value={loaderData.freeOver}
              reply={reply}
              inputMode="decimal"
              hint="Merch in the order at this amount or more posts free. Blank: never free."
            />
          </div>
          <TextInput
            form="shop-settings"
            name="countries"
            label="Countries delivered to"
            value={loaderData.countries}
            reply={reply}
            required
            hint="Two-letter ISO codes separated by commas: GB, IE. Buyers are offered those the address form has a postcode rule for."
          />
          <Checkbox
            form="shop-settings"
            name="collectionEnabled"
            label="Buyers may collect at an event they have a ticket for (free)"
            checked={loaderData.collectionEnabled}
            reply={reply}
          />
          <SubmitButton fit pendingLabel="Saving…">
            Save settings
          </SubmitButton>
        </Form>
      </Card>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  return [
    { title: pageTitle(matches, "Delivery settings", "Shop", "Dashboard") },
    { name: "robots", content: "noindex" },
  ];
};
