import { toLocalInputValue } from "~/features/dates/time-zones";
import { EntryTable, PostalEntryForm } from "~/features/draws/organizer/entries-parts";
import { getEntriesPage } from "~/features/draws/organizer/queries.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { dashboardMeta, recordTitle } from "~/ui/dashboard-meta";
import { notFound } from "~/ui/not-found";
import { TabColumns } from "~/ui/record-page";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/entries";
import { drawIdFrom, postalEntryAction } from "./draw-forms.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const drawId = drawIdFrom(params.drawId);
  const { db, env } = context.get(runtimeContext);
  const page = await getEntriesPage(db, drawId, env.TIME_ZONE);
  if (!page) notFound();
  const now = new Date();
  return { ...page, drawId, timeZone: env.TIME_ZONE, today: toLocalInputValue(now, env.TIME_ZONE) };
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const drawId = drawIdFrom(params.drawId);
  const { db, env, jobs } = context.get(runtimeContext);
  const call = { db, jobs, actorId: user.id, currency: env.CURRENCY, timeZone: env.TIME_ZONE, drawId, now: new Date() };
  return postalEntryAction(call, await readForm(request), url.pathname);
}

export default function DrawEntries({ loaderData, actionData }: Route.ComponentProps) {
  const { status, options, entries, total, drawId, timeZone, today } = loaderData;
  return (
    <TabColumns
      sideWidth="form"
      side={
        status === "live" ? (
          <PostalEntryForm
            options={options}
            timeZone={timeZone}
            defaultReceivedAt={today}
            lastResult={actionData?.intent === "postal" ? actionData.result : undefined}
          />
        ) : (
          <p className="rounded-2xl border border-line bg-surface-raised p-5 text-sm text-muted">
            {status === "draft"
              ? "Postal entries are recorded once the draw is live."
              : "The draw has closed: no more postal entries can be recorded."}
          </p>
        )
      }
    >
      <EntryTable entries={entries} total={total} csvHref={`/admin/draws/${drawId}/entries.csv`} />
    </TabColumns>
  );
}

const DRAW_LAYOUT = { id: "routes/admin/draws/draw", key: "draw", fallback: "Draw" };

export const meta: Route.MetaFunction = ({ matches }) =>
  dashboardMeta(matches, "Entries", recordTitle(matches, DRAW_LAYOUT));
