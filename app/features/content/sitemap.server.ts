import { sitePages } from "../../../db/schema";
import type { Db } from "../../server/db/client.server";

export type SitemapEntry = { path: string; lastModified?: string };

/** Public pages for search engines; each area adds its own entries here. */
export async function sitemapEntries(db: Db): Promise<SitemapEntry[]> {
  const pages = await db.select({ slug: sitePages.slug, updatedAt: sitePages.updatedAt }).from(sitePages);
  return [
    { path: "/" },
    ...pages.map((page) => ({ path: `/${page.slug}`, lastModified: page.updatedAt.toISOString().slice(0, 10) })),
  ];
}
