import { listSearch } from "~/features/forms/fields";
import { GateScreen } from "~/features/gate/gate-screen";
import { gateScreen } from "~/features/gate/gate-screen.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import { gateScreenAction } from "~/web/gate-screen.server";
import { requireGateWorker, wantsSavedCopy } from "~/web/gate-worker.server";
import type { Route } from "./+types/gate";

/** A gate worker's page (docs/gate.md): the gate as their role sees it, outside the dashboard. */
export async function loader(args: Route.LoaderArgs) {
  const { eventId, role } = await requireGateWorker(args);
  const { db } = args.context.get(runtimeContext);
  const q = listSearch.parse(args.url.searchParams.get("q"));
  const screen = await gateScreen(db, { eventId, role, q, now: new Date(), saved: wantsSavedCopy(args.request) });
  if (!screen) notFound();
  return { screen, title: screen.title };
}

export async function action(args: Route.ActionArgs) {
  const { user, eventId, role } = await requireGateWorker(args);
  return gateScreenAction({ form: await args.request.formData(), context: args.context, user, role, eventId });
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function GateWorkerPage({ loaderData, actionData }: Route.ComponentProps) {
  const { screen, title } = loaderData;
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm font-bold uppercase tracking-[0.16em] text-muted">
          {screen.role === "supervisor" ? "Gate supervisor" : "Gate steward"}
        </p>
        <h1 className="wide text-3xl font-black sm:text-4xl">{title}</h1>
      </div>
      <GateScreen screen={screen} actionData={actionData} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  { title: pageTitle(matches, loaderData ? `Gate: ${loaderData.title}` : "Gate") },
];
