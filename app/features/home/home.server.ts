import { latestArticles } from "~/features/articles/catalogue.server";
import { featuredCars } from "~/features/community/showcase.server";
import { listDraws } from "~/features/draws/catalogue.server";
import { nextHeadlineEvent, upcomingEvents } from "~/features/events/catalogue.server";
import { bannerPartners } from "~/features/partners/partners.server";
import type { Db } from "~/server/db/client.server";
import type { BannerPartner } from "./below-the-fold-sections";

/** Whole rows of three on wide screens: six, or three when there are fewer than six. */
const wholeRows = <T>(items: T[]) => (items.length >= 6 ? items.slice(0, 6) : items.slice(0, 3));

/**
 * Everything the home page shows (docs/home.md), in one round of queries after the headline
 * event. A section with nothing in it comes back empty, and the page leaves it out.
 */
export async function homeSections(db: Db, now: Date) {
  const headline = await nextHeadlineEvent(db, now);
  const [upcoming, draws, articles, featured, partners] = await Promise.all([
    upcomingEvents(db, { limit: 6, now, excludeId: headline?.id }),
    listDraws(db, now),
    latestArticles(db, { now, limit: 3 }),
    featuredCars(db, 6),
    bannerPartners(db),
  ]);
  return {
    headline,
    upcoming: wholeRows(upcoming),
    // Live and already open, closing soonest first.
    draws: draws.live.filter((tile) => tile.phase === "open").slice(0, 3),
    articles,
    featured: wholeRows(featured),
    partners: partners.map(
      (partner): BannerPartner => ({
        id: partner.id,
        name: partner.name,
        url: partner.url,
        logoHash: partner.logo.hash,
      }),
    ),
  };
}
