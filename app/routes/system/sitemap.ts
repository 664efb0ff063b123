import { sitemapEntries } from "~/features/sitemap/sitemap.server";
import { runtimeContext } from "~/server/context.server";
import type { Route } from "./+types/sitemap";

export async function loader({ context }: Route.LoaderArgs) {
  const { db, env } = context.get(runtimeContext);
  const entries = await sitemapEntries(db);
  const urls = entries
    .map(
      (entry) =>
        `<url><loc>${env.SITE_URL}${entry.path}</loc>${entry.lastModified ? `<lastmod>${entry.lastModified}</lastmod>` : ""}</url>`,
    )
    .join("");
  const xml = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`;
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=0, s-maxage=3600" },
  });
}
