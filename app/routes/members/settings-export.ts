import { exportMemberData } from "~/features/privacy/privacy.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import type { Route } from "./+types/settings-export";

/** "Download my data": everything the site keeps about the signed-in member, as a JSON file. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { db, env } = context.get(runtimeContext);
  const exported = await exportMemberData(db, user.id);
  const day = new Date().toISOString().slice(0, 10);
  const file = `${env.SITE_NAME.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-my-data-${day}.json`;
  return new Response(JSON.stringify({ site: env.SITE_NAME, ...exported }, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
