import { Form } from "react-router";
import { FilterSearch, FilterSelect, FilterSubmit } from "~/ui/catalogue-filters";

export type CommunityFilters = { make: string; era: string; q: string; sort: "newest" | "liked" };

/** The /community address for a set of filters, leaving out defaults so links stay short. */
export function communityHref(filters: Partial<CommunityFilters> & { page?: number }) {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  if (filters.make) params.set("make", filters.make);
  if (filters.era) params.set("era", filters.era);
  if (filters.sort === "liked") params.set("sort", "liked");
  if (filters.page && filters.page > 1) params.set("page", String(filters.page));
  const query = params.toString();
  return query ? `/community?${query}` : "/community";
}

/** Decades from the 1900s to this one, newest first, for the era filter. */
function eraOptions(now = new Date()) {
  const latest = Math.floor(now.getUTCFullYear() / 10) * 10;
  const eras: { value: string; label: string }[] = [];
  for (let decade = latest; decade >= 1900; decade -= 10) eras.push({ value: String(decade), label: `${decade}s` });
  return eras;
}

/**
 * The /community page's header: the page title and the filters, as a GET form so it works before
 * scripts load and every result has its own address.
 */
export function CommunityHeader({
  filters,
  makes,
}: {
  filters: CommunityFilters;
  makes: { make: string; count: number }[];
}) {
  const makeOptions =
    filters.make && !makes.some((row) => row.make.toLowerCase() === filters.make.toLowerCase())
      ? [...makes, { make: filters.make, count: 0 }]
      : makes;
  return (
    <section className="dark-band relative isolate overflow-hidden bg-asphalt-950 text-white [color-scheme:dark]">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_60%_90%_at_15%_-10%,rgb(255_122_26/0.3),transparent_70%),radial-gradient(ellipse_40%_60%_at_90%_110%,rgb(255_255_255/0.06),transparent_70%)]"
      />
      <div className="mx-auto max-w-[1200px] px-4 py-10 sm:px-6 md:py-16">
        <p className="text-sm font-bold uppercase tracking-[0.25em] text-accent-strong">Members' garages</p>
        <h1 className="wide mt-2 text-4xl font-black leading-none sm:text-6xl">Community</h1>
        <p className="mt-4 max-w-xl text-lg text-asphalt-300">
          Builds, daily drivers and weekend toys from the club. Find one like yours, or the one you want next.
        </p>
        <Form
          method="get"
          action="/community"
          role="search"
          aria-label="Find cars"
          className="mt-8 grid grid-cols-2 gap-3 lg:grid-cols-[minmax(0,1.5fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)_auto] lg:items-end"
        >
          <FilterSearch id="community-q" value={filters.q} maxLength={80} placeholder="Make, model or @owner" />
          <FilterSelect id="community-make" name="make" label="Make" value={filters.make}>
            <option value="">All makes</option>
            {makeOptions.map((row) => (
              <option key={row.make} value={row.make}>
                {row.make} ({row.count})
              </option>
            ))}
          </FilterSelect>
          <FilterSelect id="community-era" name="era" label="Era" value={filters.era}>
            <option value="">Any era</option>
            {eraOptions().map((era) => (
              <option key={era.value} value={era.value}>
                {era.label}
              </option>
            ))}
          </FilterSelect>
          <FilterSelect id="community-sort" name="sort" label="Sort" value={filters.sort} wide>
            <option value="newest">Newest first</option>
            <option value="liked">Most liked</option>
          </FilterSelect>
          <FilterSubmit>Find cars</FilterSubmit>
        </Form>
      </div>
    </section>
  );
}
