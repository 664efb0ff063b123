import { runtimeContext } from "~/server/context.server";
import type { Route } from "./+types/robots";

export function loader({ context }: Route.LoaderArgs) {
  const { env } = context.get(runtimeContext);
  const body = [
    "User-agent: *",
    "Disallow: /admin",
    // The members' area, but not /membership, which "/members" alone would also match.
    "Disallow: /members/",
    "Disallow: /members$",
    "Disallow: /membership/renewal/",
    "Disallow: /cart",
    "Disallow: /dev",
    "Disallow: /api",
    `Sitemap: ${env.SITE_URL}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
