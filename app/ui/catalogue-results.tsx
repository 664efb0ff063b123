import type { ReactNode } from "react";
import { Link } from "react-router";
import { PageLinks } from "./page-links";

/**
 * The results under a public catalogue's header (the blog, events, the community): how many match,
 * read out as the filters change, a way back to everything while filtered, the items, and links
 * to the other pages.
 */
export function CatalogueResults({
  summary,
  clearHref,
  page,
  pageCount,
  pageHref,
  children,
}: {
  summary: string;
  /** Where "Clear filters" leads, or null while nothing is filtered. */
  clearHref: string | null;
  page: number;
  pageCount: number;
  pageHref: (page: number) => string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby="results" className="mx-auto max-w-[1200px] px-4 py-10 sm:px-6 md:py-14">
      <div className="mb-6 flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="results" className="text-lg font-bold" aria-live="polite">
          {summary}
        </h2>
        {clearHref ? (
          <Link to={clearHref} className="text-sm font-semibold text-link underline">
            Clear filters
          </Link>
        ) : null}
      </div>
      {children}
      {pageCount > 1 ? <PageLinks page={page} pageCount={pageCount} href={pageHref} /> : null}
    </section>
  );
}
