import { Download } from "lucide-react";
import type { ReactNode } from "react";

// How the tabs of an organizer record (an event, a draw) are laid out under its RecordHeader:
// the frame of its pages, a titled section per tab, and the two columns of a tab with a side
// panel (the status beside the details, the postal entry form beside the entries).

/** The frame of one record's pages: its header (the record header with its tabs) over the open tab. */
export function RecordPages({ header, children }: { header: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-[1100px]">
      {header}
      <div className="mt-8">{children}</div>
    </div>
  );
}

/**
 * A titled part of a record's tab (its cover, its photos, its ticket types, its entries): the
 * heading, a line on what it holds, anything that goes beside the heading (a count, a download),
 * then its content.
 */
export function TabSection({
  id,
  title,
  intro,
  aside,
  className,
  children,
}: {
  /** Names the heading, so the section is announced by it. */
  id: string;
  title: string;
  intro?: ReactNode;
  aside?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className={className ? `space-y-4 ${className}` : "space-y-4"}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="space-y-1">
          <h2 id={`${id}-title`} className="wide text-xl font-extrabold">
            {title}
          </h2>
          {intro ? <p className="max-w-prose text-muted">{intro}</p> : null}
        </div>
        {aside}
      </div>
      {children}
    </section>
  );
}

const SIDE_WIDTHS = {
  /** A status panel beside a form. */
  panel: "lg:grid-cols-[minmax(0,1fr)_22rem]",
  /** A form beside a list. */
  form: "lg:grid-cols-[minmax(0,1fr)_24rem]",
  /** A list and its form, side by side. */
  half: "lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]",
} as const;

/**
 * A tab in two columns from large screens up: its main part, and a side column beside it. On
 * small screens the side comes first when `sideFirst` (a record's status before its details).
 * `sideLabel` names the side as a region; `sticky` keeps a short side in view while the main
 * part scrolls.
 */
export function TabColumns({
  side,
  sideWidth = "panel",
  sideLabel,
  sideFirst = false,
  sticky = false,
  children,
}: {
  side: ReactNode;
  sideWidth?: keyof typeof SIDE_WIDTHS;
  sideLabel?: string;
  sideFirst?: boolean;
  sticky?: boolean;
  children: ReactNode;
}) {
  const sideClass = [sideFirst ? "order-1 lg:order-2" : "", "space-y-4", sticky ? "lg:sticky lg:top-24" : ""]
    .filter(Boolean)
    .join(" ");
  return (
    <div className={`grid gap-8 ${SIDE_WIDTHS[sideWidth]} lg:items-start`}>
      <div className={sideFirst ? "order-2 min-w-0 lg:order-1" : "min-w-0"}>{children}</div>
      {sideLabel ? (
        <aside aria-label={sideLabel} className={sideClass}>
          {side}
        </aside>
      ) : (
        <div className={sideClass}>{side}</div>
      )}
    </div>
  );
}

/** The link that saves a list as a CSV file. */
export function DownloadCsvLink({ href }: { href: string }) {
  return (
    <a
      href={href}
      download
      className="inline-flex items-center gap-2 rounded-full px-4 py-2 text-sm font-bold ring-1 ring-line hover:bg-surface-sunken"
    >
      <Download aria-hidden className="size-4" /> Download CSV
    </a>
  );
}
