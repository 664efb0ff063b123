import { EventForm } from "~/features/events/organizer/event-form";
import { timeZoneOptions } from "~/features/events/organizer/schemas";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { FormPage } from "~/ui/record-header";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/new";
import { createEventAction } from "./event-forms.server";

export function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { env } = context.get(runtimeContext);
  return {
    timeZones: timeZoneOptions(env.TIME_ZONE),
    siteZone: env.TIME_ZONE,
    currency: env.CURRENCY,
    mapsKey: env.GOOGLE_MAPS_API_KEY ?? null,
  };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  return createEventAction({ db, actorId: user.id, currency: env.CURRENCY }, await readForm(request));
}

export default function NewEvent({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <FormPage
      back={{ to: "/admin/events", label: "Events" }}
      title="New event"
      intro="It is saved as a draft: nobody sees it until you publish it. Ticket types and the cover come next."
    >
      <EventForm
        lastResult={actionData?.result}
        defaultValue={{ type: "meet", timeZone: loaderData.siteZone }}
        timeZones={loaderData.timeZones}
        currency={loaderData.currency}
        mapsKey={loaderData.mapsKey}
        submitLabel="Save draft"
      />
    </FormPage>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => dashboardMeta(matches, "New event");
