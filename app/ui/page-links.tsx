import { ArrowLeft, ArrowRight } from "lucide-react";
import { Link } from "react-router";

/** Plain links to each page of a public list, so paging works before scripts load. */
export function PageLinks({
  page,
  pageCount,
  href,
}: {
  page: number;
  pageCount: number;
  /** The list's address at another page, with its filters. */
  href: (page: number) => string;
}) {
  const step = "inline-flex h-11 items-center gap-1.5 rounded-full px-4 font-semibold ring-1 ring-line";
  const pages = Array.from({ length: pageCount }, (_, i) => i + 1).filter(
    (n) => n === 1 || n === pageCount || Math.abs(n - page) <= 1,
  );
  return (
    <nav aria-label="Pages" className="mt-10 flex flex-wrap items-center justify-center gap-2">
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev" className={`${step} hover:bg-surface-sunken`}>
          <ArrowLeft aria-hidden className="size-4" /> Previous
        </Link>
      ) : null}
      <ul className="flex items-center gap-1">
        {pages.map((n, i) => (
          <li key={n} className="flex items-center gap-1">
            {i > 0 && n - pages[i - 1]! > 1 ? <span className="px-1 text-muted">…</span> : null}
            <Link
              to={href(n)}
              aria-current={n === page ? "page" : undefined}
              aria-label={`Page ${n}`}
              className={`tabular grid size-11 place-items-center rounded-full font-bold ${n === page ? "bg-accent text-on-accent" : "hover:bg-surface-sunken"}`}
            >
              {n}
            </Link>
          </li>
        ))}
      </ul>
      {page < pageCount ? (
        <Link to={href(page + 1)} rel="next" className={`${step} hover:bg-surface-sunken`}>
          Next <ArrowRight aria-hidden className="size-4" />
        </Link>
      ) : null}
    </nav>
  );
}
