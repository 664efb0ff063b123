import { Plus } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";

// The pieces every organizer list page (events, draws, the shop, articles) is built from.

/**
 * The top of an organizer list page: which part of the dashboard it is in, its title, what it
 * holds, and the button that starts a new one (with any other actions before it).
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
  intro: string;
  create: { to: string; label: string };
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <p className="text-sm font-bold uppercase tracking-[0.18em] text-accent-ink">{area}</p>
        <h1 className="wide mt-1 text-3xl font-extrabold sm:text-4xl">{title}</h1>
        <p className="mt-2 max-w-prose text-muted">{intro}</p>
      </div>
      <div className="flex flex-wrap gap-3">
        {actions}
        <Link
          to={create.to}
          className="inline-flex items-center gap-2 rounded-full bg-accent px-6 py-3 font-bold text-on-accent hover:bg-accent-strong"
        >
          <Plus aria-hidden className="size-5" /> {create.label}
        </Link>
      </div>
    </div>
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
