import { DrawForm } from "~/features/draws/organizer/draw-form";
import { DrawStatePanel } from "~/features/draws/organizer/draw-state";
import { getDrawFormValues, getDrawState } from "~/features/draws/organizer/queries.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/details";
import { drawDetailsAction, drawIdFrom } from "./draw-forms.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const drawId = drawIdFrom(params.drawId);
  const { db, env } = context.get(runtimeContext);
  const [values, state] = await Promise.all([
    getDrawFormValues(db, drawId, env.TIME_ZONE),
    getDrawState(db, drawId, env.TIME_ZONE),
  ]);
  if (!values || !state) notFound();
  return { values, state, currency: env.CURRENCY, timeZone: env.TIME_ZONE, now: new Date() };
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const drawId = drawIdFrom(params.drawId);
  const { db, env, jobs } = context.get(runtimeContext);
  const call = { db, jobs, actorId: user.id, currency: env.CURRENCY, timeZone: env.TIME_ZONE, drawId, now: new Date() };
  return drawDetailsAction(call, await readForm(request), url.pathname);
}

export default function DrawDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { state } = loaderData;
  const resultFor = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  const scope = state.status === "draft" ? "draft" : "wording";
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
      <div className="order-2 lg:order-1">
        <DrawForm
          lastResult={resultFor("save")}
          defaultValue={loaderData.values}
          currency={loaderData.currency}
          timeZone={loaderData.timeZone}
          submitLabel="Save changes"
          scope={scope}
          disabled={state.status === "drawn" || state.status === "cancelled"}
        />
      </div>
      <aside aria-label="Status" className="order-1 space-y-4 lg:order-2">
        <DrawStatePanel
          draw={state}
          now={loaderData.now}
          results={{
            publish: resultFor("publish"),
            close: resultFor("close"),
            beacon: resultFor("beacon"),
            draw: resultFor("draw"),
            cancel: resultFor("cancel"),
            refunds: resultFor("refunds"),
          }}
        />
      </aside>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const draw = matches.find((match) => match?.id === "routes/admin/draws/draw")?.data as
    | { draw?: { title: string } }
    | undefined;
  return [
    { title: pageTitle(matches, draw?.draw?.title ?? "Draw", "Draws", "Dashboard") },
    { name: "robots", content: "noindex" },
  ];
};
