import { TierForm, tierFormValues } from "~/features/membership/tier-form";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { pageTitle } from "~/ui/page-title";
import { FormPage } from "~/ui/record-header";
import { useSite } from "~/ui/site";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/new";
import { createTierAction } from "./membership-forms.server";

export function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  return null;
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const call = { db, actorId: user.id, currency: env.CURRENCY, timeZone: env.TIME_ZONE, now: new Date() };
  return createTierAction(call, await readForm(request));
}

export default function NewTier({ actionData }: Route.ComponentProps) {
  const { currency } = useSite();
  return (
    <FormPage
      back={{ to: "/admin/membership", label: "Membership" }}
      title="New tier"
      intro="Tick On sale when it is ready: until then nobody can join it."
    >
      <TierForm
        defaultValue={tierFormValues(null)}
        currency={currency}
        lastResult={actionData?.result}
        submitLabel="Save tier"
      />
    </FormPage>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  return [{ title: pageTitle(matches, "New tier", "Membership", "Dashboard") }, { name: "robots", content: "noindex" }];
};
