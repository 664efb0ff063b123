import { awardImage } from "~/features/judging/results.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/award-image";

/**
 * `/events/{id}/results/awards/{awardId}.png`: an award's picture for link previews, once the
 * show's results are published.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const { db } = context.get(runtimeContext);
  const awardId = /^(.+)\.png$/.exec(params.award)?.[1];
  const png = awardId ? await awardImage(db, { idOrSlug: params.id, awardId }) : null;
  if (!png) notFound("This award could not be found");
  return new Response(new Uint8Array(png), {
    headers: {
      "Content-Type": "image/png",
      // An award can be corrected after publishing: kept an hour, not for good.
      "Cache-Control": "public, max-age=3600",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
