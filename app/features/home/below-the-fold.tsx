import type { ArticleCard } from "~/features/articles/catalogue.server";
import { FeaturedCars } from "~/features/community/featured-cars";
import type { CarTileData } from "~/features/community/showcase.server";
import type { DrawTile } from "~/features/draws/catalogue.server";
import { type BannerPartner, DiscoverArticles, LiveCompetitions, LogoBanner } from "./below-the-fold-sections";

export type BelowTheFoldProps = {
  draws: DrawTile[];
  now: number;
  articles: ArticleCard[];
  featured: CarTileData[];
  partners: BannerPartner[];
  mediaBase: string;
};

/**
 * The home page's sections under the events: competitions, articles, members' cars and partners.
 * Rendered in the page's HTML by the server; the browser loads their code after the page's own
 * and only then makes them interactive (docs/home.md), which keeps the page's first script small.
 */
export default function BelowTheFold({ draws, now, articles, featured, partners, mediaBase }: BelowTheFoldProps) {
  return (
    <>
      <LiveCompetitions draws={draws} now={now} />
      <DiscoverArticles articles={articles} />
      <FeaturedCars cars={featured} />
      <LogoBanner partners={partners} mediaBase={mediaBase} />
    </>
  );
}
