import { data, Form } from "react-router";
import { DrawForm } from "~/features/draws/organizer/draw-form";
import { DrawStatePanel } from "~/features/draws/organizer/draw-state";
import { revealInstantWins } from "~/features/draws/organizer/draw-steps.server";
import { getDrawFormValues, getDrawState } from "~/features/draws/organizer/queries.server";
import { tiersForPrices } from "~/features/membership/tiers.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { dashboardMeta, recordTitle } from "~/ui/dashboard-meta";
import { SubmitButton } from "~/ui/form";
import { notFound } from "~/ui/not-found";
import { TabColumns } from "~/ui/record-page";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/details";

const REVEAL = "reveal-instant-wins";

import { drawDetailsAction, drawIdFrom } from "./draw-forms.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  const user = requireRole({ context, url }, "organizer");
  const drawId = drawIdFrom(params.drawId);
  const { db, env } = context.get(runtimeContext);
  const tiers = await tiersForPrices(db);
  const [values, state] = await Promise.all([
    getDrawFormValues(db, drawId, env.TIME_ZONE, tiers),
    getDrawState(db, drawId, env.TIME_ZONE),
  ]);
  if (!values || !state) notFound();
  const canReveal = user.role === "admin" && state.status === "live" && state.instantWinCount > 0;
  return { values, state, tiers, canReveal, currency: env.CURRENCY, timeZone: env.TIME_ZONE, now: new Date() };
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const drawId = drawIdFrom(params.drawId);
  const { db, env, jobs } = context.get(runtimeContext);
  const form = await readForm(request);
  if (form.get("intent") === REVEAL) {
    // Only admins see a live draw's instant wins, and each look is audited.
    const admin = requireRole({ context, url }, "admin");
    const revealed = await revealInstantWins(db, { drawId, actorId: admin.id });
    if (!revealed.ok) notFound();
    return data({ intent: REVEAL, result: undefined, revealed: revealed.wins });
  }
  const call = { db, jobs, actorId: user.id, currency: env.CURRENCY, timeZone: env.TIME_ZONE, drawId, now: new Date() };
  return drawDetailsAction(call, form, url.pathname);
}

export default function DrawDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { state } = loaderData;
  const resultFor = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  const scope = state.status === "draft" ? "draft" : "wording";
  return (
    <TabColumns
      sideLabel="Status"
      sideFirst
      side={
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
      }
    >
      <DrawForm
        lastResult={resultFor("save")}
        defaultValue={loaderData.values}
        currency={loaderData.currency}
        timeZone={loaderData.timeZone}
        tiers={loaderData.tiers}
        submitLabel="Save changes"
        scope={scope}
        disabled={state.status === "drawn" || state.status === "cancelled"}
      />
      {loaderData.canReveal ? (
        <section aria-labelledby="reveal-wins" className="mt-6 space-y-2 text-sm">
          <h2 id="reveal-wins" className="font-semibold">
            Instant wins
          </h2>
          {actionData && "revealed" in actionData ? (
            <ul className="tabular">
              {actionData.revealed.map((win) => (
                <li key={win.number}>
                  {win.number} {win.prize}
                </li>
              ))}
            </ul>
          ) : (
            <Form method="post">
              <p className="text-muted">
                Kept secret while the draw is live. Showing them is recorded in the audit log.
              </p>
              <SubmitButton name="intent" value={REVEAL} variant="secondary" pendingLabel="Showing…" fit>
                Show the instant wins
              </SubmitButton>
            </Form>
          )}
        </section>
      ) : null}
    </TabColumns>
  );
}

const DRAW_LAYOUT = { id: "routes/admin/draws/draw", key: "draw", fallback: "Draw" };

export const meta: Route.MetaFunction = ({ matches }) =>
  dashboardMeta(matches, recordTitle(matches, DRAW_LAYOUT), "Draws");
