import { Outlet } from "react-router";
import { DrawHeader } from "~/features/draws/organizer/draw-header";
import { getDrawSummary } from "~/features/draws/organizer/queries.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import { RecordPages } from "~/ui/record-page";
import type { Route } from "./+types/draw";
import { drawIdFrom } from "./draw-forms.server";

// One draw's pages (details, photos, entries) under a shared header. Each page checks the role
// and the id again: loaders run in parallel.
export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const drawId = drawIdFrom(params.drawId);
  const { db, env } = context.get(runtimeContext);
  const draw = await getDrawSummary(db, drawId, env.TIME_ZONE);
  if (!draw) notFound();
  return { draw };
}

export default function DrawPages({ loaderData }: Route.ComponentProps) {
  return (
    <RecordPages header={<DrawHeader draw={loaderData.draw} />}>
      <Outlet />
    </RecordPages>
  );
}
