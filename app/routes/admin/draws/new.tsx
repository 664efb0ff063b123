import { DrawForm } from "~/features/draws/organizer/draw-form";
import { tiersForPrices } from "~/features/membership/tiers.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { FormPage } from "~/ui/record-header";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/new";
import { createDrawAction } from "./draw-forms.server";

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  return { currency: env.CURRENCY, timeZone: env.TIME_ZONE, tiers: await tiersForPrices(db) };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const call = { db, actorId: user.id, currency: env.CURRENCY, timeZone: env.TIME_ZONE, now: new Date() };
  return createDrawAction(call, await readForm(request));
}

export default function NewDraw({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <FormPage
      back={{ to: "/admin/draws", label: "Draws" }}
      title="New draw"
      intro="It is saved as a draft: nobody sees it until you publish it. Photos of the prize come next."
    >
      <DrawForm
        lastResult={actionData?.result}
        defaultValue={{ kind: "competition", undersoldPolicy: "cash", minEntries: "1", extendDays: "7" }}
        currency={loaderData.currency}
        timeZone={loaderData.timeZone}
        tiers={loaderData.tiers}
        submitLabel="Save draft"
      />
    </FormPage>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => dashboardMeta(matches, "New draw", "Draws");
