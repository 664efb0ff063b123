import { DrawGalleryEditor } from "~/features/draws/organizer/gallery-form";
import { getDrawImages } from "~/features/draws/organizer/queries.server";
import { requireRole } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { dashboardMeta, recordTitle } from "~/ui/dashboard-meta";
import { notFound } from "~/ui/not-found";
import { TabSection } from "~/ui/record-page";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/images";
import { drawIdFrom, drawImagesAction } from "./draw-forms.server";

// The one draw form that sends a file: server.ts lets bodies of up to 16 MB through to this path
// (a 15 MB photo and the form around it).
export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const drawId = drawIdFrom(params.drawId);
  const draw = await getDrawImages(context.get(runtimeContext).db, drawId);
  if (!draw) notFound();
  return draw;
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const drawId = drawIdFrom(params.drawId);
  const { db, env, jobs, storage } = context.get(runtimeContext);
  const ip = context.get(requestContext).ip;
  const call = { db, jobs, storage, ip, actorId: user.id, currency: env.CURRENCY, timeZone: env.TIME_ZONE };
  return drawImagesAction({ ...call, drawId, now: new Date() }, await readForm(request), url.pathname);
}

export default function DrawImages({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <TabSection
      id="photos"
      title="Prize photos"
      intro="Up to eight photos of the prize, in the order the draw's page shows them. The first is on its tile."
      className="max-w-[820px]"
    >
      <DrawGalleryEditor images={loaderData.images} status={loaderData.status} results={actionData} />
    </TabSection>
  );
}

const DRAW_LAYOUT = { id: "routes/admin/draws/draw", key: "draw", fallback: "Draw" };

export const meta: Route.MetaFunction = ({ matches }) =>
  dashboardMeta(matches, "Photos", recordTitle(matches, DRAW_LAYOUT));
