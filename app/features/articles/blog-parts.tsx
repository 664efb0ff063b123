import { Newspaper, Rss } from "lucide-react";
import { Form, Link } from "react-router";
import { Card } from "~/ui/card";
import { FilterSearch, FilterSubmit } from "~/ui/catalogue-filters";
import { countOf } from "~/ui/plural";
import type { TagFacet } from "./catalogue.server";
import { tagLabel } from "./tags";

export type BlogFilters = { q: string; tag: string };

/** The /blog address for a search, a tag and a page, leaving out defaults so links stay short. */
export function blogHref(filters: Partial<BlogFilters> & { page?: number }) {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  if (filters.tag) params.set("tag", filters.tag);
  if (filters.page && filters.page > 1) params.set("page", String(filters.page));
  const query = params.toString();
  return query ? `/blog?${query}` : "/blog";
}

/**
 * The ArticlesList header: a dark floodlit band with the title, a search box (a GET form, so it
 * works before scripts load) and the tags in use as chips with their counts.
 */
export function BlogHeader({ filters, tags }: { filters: BlogFilters; tags: TagFacet[] }) {
  return (
    <section className="dark-band relative isolate overflow-hidden bg-asphalt-950 text-white [color-scheme:dark]">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_60%_90%_at_85%_-10%,rgb(255_122_26/0.32),transparent_70%),radial-gradient(ellipse_40%_60%_at_10%_110%,rgb(255_255_255/0.06),transparent_70%)]"
      />
      <div className="mx-auto max-w-[1200px] px-4 py-10 sm:px-6 md:py-16">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <p className="text-sm font-bold uppercase tracking-[0.25em] text-accent-strong">From the paddock</p>
            <h1 className="wide mt-2 text-4xl font-black leading-none sm:text-6xl">Blog</h1>
          </div>
          <a
            href="/blog/feed.xml"
            className="inline-flex items-center gap-2 rounded-full px-4 py-2 text-sm font-bold text-asphalt-200 ring-1 ring-white/20 hover:text-white hover:ring-white/40"
          >
            <Rss aria-hidden className="size-4" /> Feed
          </a>
        </div>
        <p className="mt-4 max-w-xl text-lg text-asphalt-300">
          Event reports, build diaries, guides and club news, written by the people who run the meets.
        </p>
        <Form
          method="get"
          action="/blog"
          role="search"
          aria-label="Search articles"
          className="mt-8 grid grid-cols-2 gap-3 lg:max-w-2xl lg:grid-cols-[minmax(0,1fr)_auto] lg:items-end"
        >
          {filters.tag ? <input type="hidden" name="tag" value={filters.tag} /> : null}
          <FilterSearch id="blog-q" value={filters.q} maxLength={100} placeholder="A car, a track, a word" />
          <FilterSubmit>Search</FilterSubmit>
        </Form>
        {tags.length > 0 ? (
          <nav aria-label="Tags" className="mt-6">
            <ul className="flex flex-wrap gap-2">
              <li>
                <TagChip href={blogHref({ q: filters.q })} current={!filters.tag}>
                  All
                </TagChip>
              </li>
              {tags.map((facet) => (
                <li key={facet.tag}>
                  <TagChip
                    href={blogHref({ q: filters.q, tag: facet.tag === filters.tag ? "" : facet.tag })}
                    current={facet.tag === filters.tag}
                  >
                    {tagLabel(facet.tag)} <span className="tabular text-asphalt-400">{facet.count}</span>
                  </TagChip>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
      </div>
    </section>
  );
}

function TagChip({ href, current, children }: { href: string; current: boolean; children: React.ReactNode }) {
  return (
    <Link
      to={href}
      aria-current={current ? "page" : undefined}
      className={`inline-flex h-10 items-center gap-2 rounded-full px-4 text-sm font-bold transition-colors ${
        current ? "bg-accent text-on-accent" : "bg-white/[0.06] text-white ring-1 ring-white/15 hover:ring-white/40"
      }`}
    >
      {children}
    </Link>
  );
}

/** "3 articles tagged Track days matching “brakes”". */
export function describeArticles(total: number, filters: BlogFilters) {
  const parts = [countOf(total, "article", "articles")];
  if (filters.tag) parts.push(`tagged ${tagLabel(filters.tag)}`);
  if (filters.q) parts.push(`matching “${filters.q}”`);
  return parts.join(" ");
}

/** The empty state: why nothing shows and what to do next. */
export function NoArticles({ filters }: { filters: BlogFilters }) {
  const filtered = Boolean(filters.q || filters.tag);
  return (
    <Card variant="empty" className="grid place-items-center bg-surface-raised px-6 py-16">
      <Newspaper aria-hidden className="size-10 text-muted" />
      <p className="mt-4 text-xl font-bold">{filtered ? "No articles match" : "No articles yet"}</p>
      <p className="mt-2 max-w-md text-muted">
        {filtered
          ? "Try fewer or different words, or another tag. Search looks through titles, summaries and whole articles."
          : "Event reports and build diaries will appear here. Meanwhile, see what is on at our next events."}
      </p>
      <p className="mt-6 flex flex-wrap justify-center gap-3">
        {filtered ? (
          <Link
            to="/blog"
            className="rounded-full bg-accent px-5 py-2.5 font-bold text-on-accent hover:bg-accent-strong"
          >
            Show all articles
          </Link>
        ) : null}
        <Link to="/events" className="rounded-full px-5 py-2.5 font-bold ring-1 ring-line hover:bg-surface-sunken">
          See events
        </Link>
      </p>
    </Card>
  );
}
