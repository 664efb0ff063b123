import { TierForm, tierFormValues } from "~/features/membership/tier-form";
import { tierById } from "~/features/membership/tiers.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { isUuid } from "~/server/db/uuid";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import { FormPage } from "~/ui/record-header";
import { useSite } from "~/ui/site";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/tier";
import { updateTierAction } from "./membership-forms.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db } = context.get(runtimeContext);
  const tier = isUuid(params.tierId) ? await tierById(db, params.tierId) : null;
  if (!tier) notFound("This membership tier could not be found");
  return { name: tier.name, values: tierFormValues(tier) };
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const tierId = params.tierId;
  if (!isUuid(tierId)) notFound("This membership tier could not be found");
  const call = { db, actorId: user.id, currency: env.CURRENCY, timeZone: env.TIME_ZONE, now: new Date(), tierId };
  return updateTierAction(call, await readForm(request));
}

export default function EditTier({ loaderData, actionData }: Route.ComponentProps) {
  const { currency } = useSite();
  return (
    <FormPage back={{ to: "/admin/membership", label: "Membership" }} title={loaderData.name}>
      <TierForm
        defaultValue={loaderData.values}
        currency={currency}
        lastResult={actionData?.result}
        submitLabel="Save tier"
      />
    </FormPage>
  );
}

export const meta: Route.MetaFunction = ({ matches, data }) => {
  return [
    { title: pageTitle(matches, data?.name ?? "Tier", "Membership", "Dashboard") },
    { name: "robots", content: "noindex" },
  ];
};
