import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { DrawForm } from "~/features/draws/organizer/draw-form";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { pageTitle } from "~/ui/page-title";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/new";
import { createDrawAction } from "./draw-forms.server";

export function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { env } = context.get(runtimeContext);
  return { currency: env.CURRENCY, timeZone: env.TIME_ZONE };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const call = { db, actorId: user.id, currency: env.CURRENCY, timeZone: env.TIME_ZONE, now: new Date() };
  return createDrawAction(call, await readForm(request));
}

export default function NewDraw({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-[820px]">
      <Link
        to="/admin/draws"
        className="inline-flex items-center gap-1.5 text-sm font-semibold text-muted hover:text-text"
      >
        <ArrowLeft aria-hidden className="size-4" /> Draws
      </Link>
      <h1 className="wide mt-2 text-3xl font-extrabold sm:text-4xl">New draw</h1>
      <p className="mt-2 max-w-prose text-muted">
        It is saved as a draft: nobody sees it until you publish it. Photos of the prize come next.
      </p>
      <div className="mt-8">
        <DrawForm
          lastResult={actionData?.result}
          defaultValue={{ kind: "competition", undersoldPolicy: "cash", minEntries: "1", extendDays: "7" }}
          currency={loaderData.currency}
          timeZone={loaderData.timeZone}
          submitLabel="Save draft"
        />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  return [{ title: pageTitle(matches, "New draw", "Draws", "Dashboard") }, { name: "robots", content: "noindex" }];
};
