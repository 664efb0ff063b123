import { sitemapArticles } from "~/features/articles/catalogue.server";
import { sitemapCommunity } from "~/features/community/showcase.server";
import { sitemapDraws } from "~/features/draws/catalogue.server";
import { sitemapEvents } from "~/features/events/catalogue.server";
import { sitemapProducts } from "~/features/shop/catalogue.server";
import type { Db } from "~/server/db/client.server";
import { sitePages } from "../../../db/schema";

export type SitemapEntry = { path: string; lastModified?: string };

/** Public pages for search engines; each area adds its own entries here. */
export async function sitemapEntries(db: Db): Promise<SitemapEntry[]> {
  const pages = await db.select({ slug: sitePages.slug, updatedAt: sitePages.updatedAt }).from(sitePages);
  const events = await sitemapEvents(db);
  const community = await sitemapCommunity(db);
  const shop = await sitemapProducts(db);
  const blog = await sitemapArticles(db, new Date());
  const giveaways = await sitemapDraws(db);
  return [
    { path: "/" },
    { path: "/events" },
    ...events.map((event) => ({
      path: `/events/${event.slug}`,
      lastModified: event.updatedAt.toISOString().slice(0, 10),
    })),
    { path: "/giveaways" },
    ...giveaways.map((draw) => ({
      path: `/giveaways/${draw.slug}`,
      lastModified: draw.updatedAt.toISOString().slice(0, 10),
    })),
    { path: "/responsible-play" },
    ...pages.map((page) => ({ path: `/${page.slug}`, lastModified: page.updatedAt.toISOString().slice(0, 10) })),
    { path: "/shop" },
    ...shop.map((product) => ({
      path: `/shop/${product.slug}`,
      lastModified: product.updatedAt.toISOString().slice(0, 10),
    })),
    { path: "/community" },
    ...community.handles.map((handle) => ({ path: `/community/${encodeURIComponent(handle)}` })),
    ...community.cars.map((car) => ({
      path: `/community/cars/${car.id}`,
      lastModified: car.updatedAt.toISOString().slice(0, 10),
    })),
    { path: "/membership" },
    { path: "/blog" },
    ...blog.map((article) => ({
      path: `/blog/${article.slug}`,
      lastModified: article.updatedAt.toISOString().slice(0, 10),
    })),
  ];
}
