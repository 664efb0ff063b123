import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { EventForm } from "~/features/events/organizer/event-form";
import { timeZoneOptions } from "~/features/events/organizer/schemas";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { pageTitle } from "~/ui/page-title";
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
    <div className="mx-auto max-w-[820px]">
      <Link
        to="/admin/events"
        className="inline-flex items-center gap-1.5 text-sm font-semibold text-muted hover:text-text"
      >
        <ArrowLeft aria-hidden className="size-4" /> Events
      </Link>
      <h1 className="wide mt-2 text-3xl font-extrabold sm:text-4xl">New event</h1>
      <p className="mt-2 max-w-prose text-muted">
        It is saved as a draft: nobody sees it until you publish it. Ticket types and the cover come next.
      </p>
      <div className="mt-8">
        <EventForm
          lastResult={actionData?.result}
          defaultValue={{ type: "meet", timeZone: loaderData.siteZone }}
          timeZones={loaderData.timeZones}
          currency={loaderData.currency}
          mapsKey={loaderData.mapsKey}
          submitLabel="Save draft"
        />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  return [{ title: pageTitle(matches, "New event", "Dashboard") }, { name: "robots", content: "noindex" }];
};
