import { eq } from "drizzle-orm";
import { sitePages } from "../../../db/schema";
import type { Db } from "../../server/db/client.server";
import { renderMarkdown } from "./markdown.server";

export type SitePageSlug = "privacy" | "terms";

/** An editable content page, rendered to safe HTML with the site's name filled in. */
export async function getSitePage(db: Db, slug: SitePageSlug, siteName: string) {
  const [page] = await db
    .select({ title: sitePages.title, body: sitePages.body, updatedAt: sitePages.updatedAt })
    .from(sitePages)
    .where(eq(sitePages.slug, slug));
  if (!page) return null;
  return {
    title: page.title,
    html: renderMarkdown(page.body.replaceAll("{{siteName}}", siteName)),
    updatedAt: page.updatedAt.toISOString(),
  };
}
