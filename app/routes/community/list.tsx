import { Link } from "react-router";
import { CarTiles } from "~/features/community/car-tile";
import { type CommunityFilters, CommunityHeader, communityHref } from "~/features/community/community-header";
import { communityMakes, eraFrom, listCommunityCars, normaliseSearch } from "~/features/community/showcase.server";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext } from "~/server/context.server";
import { CatalogueResults } from "~/ui/catalogue-results";
import { catalogueMeta } from "~/ui/page-meta";
import { pageTitle, siteNameOf } from "~/ui/page-title";
import { countOf } from "~/ui/plural";
import { viewerFrom } from "~/web/viewer.server";
import type { Route } from "./+types/list";

export async function loader({ context, url }: Route.LoaderArgs) {
  const { db } = context.get(runtimeContext);
  const viewer = viewerFrom(context);
  const params = url.searchParams;
  // Whatever the address says, the page answers: unknown values are ignored, not refused.
  const era = eraFrom(params.get("era"));
  const filters: CommunityFilters = {
    q: normaliseSearch(params.get("q")),
    make: normaliseSearch(params.get("make")),
    era: era ? String(era) : "",
    sort: params.get("sort") === "liked" ? "liked" : "newest",
  };
  const [list, makes] = await Promise.all([
    listCommunityCars(db, viewer, {
      q: filters.q,
      make: filters.make,
      era,
      sort: filters.sort,
      page: Number.parseInt(params.get("page") ?? "1", 10),
    }),
    communityMakes(db, viewer),
  ]);
  return { ...list, makes, filters, signedIn: viewer !== null };
}

// Visitors share a cached page; the auth step makes a signed-in member's answer private.
export const headers: Route.HeadersFunction = () => publicPageHeaders();

function describeResults(total: number, filters: CommunityFilters) {
  const cars = countOf(total, "car", "cars");
  const parts = [
    filters.make,
    filters.era ? `from the ${filters.era}s` : "",
    filters.q ? `matching “${filters.q}”` : "",
  ];
  return [cars, ...parts.filter(Boolean)].join(" ");
}

export default function CommunityPage({ loaderData }: Route.ComponentProps) {
  const { cars, total, page, pageCount, makes, filters, signedIn } = loaderData;
  const filtered = Boolean(filters.q || filters.make || filters.era);
  return (
    <main id="main">
      <CommunityHeader filters={filters} makes={makes} />
      <CatalogueResults
        summary={describeResults(total, filters)}
        clearHref={filtered ? communityHref({ sort: filters.sort }) : null}
        page={page}
        pageCount={pageCount}
        pageHref={(n) => communityHref({ ...filters, page: n })}
      >
        {cars.length > 0 ? (
          <CarTiles cars={cars} firstPriority />
        ) : (
          <div className="rounded-2xl border border-dashed border-line p-10 text-center">
            <p className="text-lg font-semibold">{filtered ? "No cars match these filters." : "No cars yet."}</p>
            <p className="mt-2 text-muted">
              {filtered ? (
                <Link to="/community" className="text-link underline">
                  See every car
                </Link>
              ) : (
                <Link to={signedIn ? "/members/newGarage" : "/signUp"} className="text-link underline">
                  {signedIn ? "Add your first car" : "Join the club and add your car"}
                </Link>
              )}
            </p>
          </div>
        )}
      </CatalogueResults>
    </main>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteNameOf(matches);
  const title = pageTitle(matches, "Community");
  const description = `Members' cars from ${site}: builds, specs and stories.`;
  return catalogueMeta(title, description);
};
