import { ChevronLeft, ChevronRight, Plus } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Card } from "./card";
import { countOf } from "./plural";

// The pieces every organizer list page (events, draws, orders, members, the shop, articles) is
// built from.

/**
 * The top of an organizer list page: which part of the dashboard it is in, its title, what it
 * holds, and the button that starts a new one (with any other actions before it), if the list
 * has one.
 */
export function ListPageHeader({
  area,
  title,
  intro,
  create,
  actions,
}: {
  /** The dashboard's part ("Organize", "Publish"). */
  area: string;
  title: string;
  intro?: ReactNode;
  create?: { to: string; label: string };
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <p className="text-sm font-bold uppercase tracking-[0.18em] text-accent-ink">{area}</p>
        <h1 className="wide mt-1 text-3xl font-extrabold sm:text-4xl">{title}</h1>
        {intro ? <p className="mt-2 max-w-prose text-muted">{intro}</p> : null}
      </div>
      {create || actions ? (
        <div className="flex flex-wrap gap-3">
          {actions}
          {create ? (
            <Link
              to={create.to}
              className="inline-flex items-center gap-2 rounded-full bg-accent px-6 py-3 font-bold text-on-accent hover:bg-accent-strong"
            >
              <Plus aria-hidden className="size-5" /> {create.label}
            </Link>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/**
 * A list's address with its search, view and page: only the values that differ from the
 * list's defaults, in the order given, and "." (the list as it opens) when none do.
 */
export function listHref(values: Record<string, string | number>, defaults: Record<string, string | number> = {}) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== "" && value !== defaults[name]) params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `?${search}` : ".";
}

/**
 * The rows of an organizer list under its search and views: how many there are (read out to
 * screen readers, or shown), the rows or a note when there are none, and the links to its
 * other pages.
 */
export function ListResults({
  total,
  noun,
  q = "",
  showCount = false,
  empty,
  page = 1,
  pageCount = 1,
  href,
  layout = "rows",
  children,
}: {
  total: number;
  /** What the list counts, one and many: ["event", "events"]. */
  noun: [string, string];
  /** The search, said after the count. */
  q?: string;
  /** The count as a line above the rows, rather than for screen readers only. */
  showCount?: boolean;
  /** What to say when there are no rows to show; null when there are. */
  empty: ReactNode | null;
  page?: number;
  pageCount?: number;
  href?(page: number): string;
  /** Rows in one card with rules between them, or cards one under another. */
  layout?: "rows" | "cards";
  /** The rows, each an <li>. */
  children: ReactNode;
}) {
  return (
    <>
      <p className={showCount ? "mt-8 text-sm text-muted" : "sr-only"} role="status">
        {countOf(total, noun[0], noun[1])}
        {q ? ` matching “${q}”` : ""}
      </p>
      {empty !== null ? (
        <Card as="p" variant="empty" className="mt-3 p-10 text-muted">
          {empty}
        </Card>
      ) : layout === "rows" ? (
        <Card as="ul" variant="list" className="mt-3">
          {children}
        </Card>
      ) : (
        <ul className="mt-3 space-y-3">{children}</ul>
      )}
      {href ? <Pagination page={page} pageCount={pageCount} href={href} /> : null}
    </>
  );
}

/**
 * Previous and next links between the pages of a staff list, keeping its search, with where it
 * is; plain links, so they work before scripts load. Nothing for a list of one page.
 */
function Pagination({ page, pageCount, href }: { page: number; pageCount: number; href(page: number): string }) {
  if (pageCount <= 1) return null;
  const link = "inline-flex items-center gap-1 rounded-full px-4 py-2 font-semibold hover:bg-surface-sunken";
  return (
    <nav aria-label="Pages" className="mt-6 flex items-center justify-between gap-4">
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev" className={link}>
          <ChevronLeft aria-hidden className="size-4" /> Previous
        </Link>
      ) : (
        <span />
      )}
      <p className="tabular text-sm text-muted">
        Page {page} of {pageCount}
      </p>
      {page < pageCount ? (
        <Link to={href(page + 1)} rel="next" className={link}>
          Next <ChevronRight aria-hidden className="size-4" />
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

/**
 * The views of an organizer list (upcoming, drafts, past…): plain links that keep the search,
 * each with its count; the current one is marked for sight and for screen readers.
 */
export function FilterTabs<Filter extends string>({
  label,
  names,
  show,
  counts,
  href,
}: {
  /** What the tabs choose, for screen readers ("Which events"). */
  label: string;
  /** Each view's name, in the order shown. */
  names: Record<Filter, string>;
  show: Filter;
  counts: Record<Filter, number>;
  href(filter: Filter): string;
}) {
  return (
    <nav aria-label={label} className="-mx-1 overflow-x-auto px-1 pb-1">
      <ul className="flex gap-2">
        {(Object.keys(names) as Filter[]).map((filter) => {
          const current = filter === show;
          return (
            <li key={filter}>
              <Link
                to={href(filter)}
                aria-current={current ? "page" : undefined}
                className={`inline-flex shrink-0 items-center gap-2 rounded-full px-4 py-2 text-sm font-bold ${
                  current ? "bg-text text-surface" : "ring-1 ring-line hover:bg-surface-sunken"
                }`}
              >
                {names[filter]}
                <span
                  className={`tabular rounded-full px-1.5 text-xs ${current ? "bg-surface/20" : "bg-surface-sunken text-muted"}`}
                >
                  {counts[filter]}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
