import type { LucideIcon } from "lucide-react";
import { ArrowLeft, ExternalLink } from "lucide-react";
import type { ReactNode } from "react";
import { Link, NavLink } from "react-router";
import { TrackArt } from "./track-art";

/** One of a record's pages, as a tab; `note` is a count or word beside its name. */
export type RecordTab = { to: string; label: string; icon: LucideIcon; end?: boolean; note?: string | null };

/** A cover's addresses: AVIF and WebP sets and a fallback. */
export type BackdropSources = { avif?: string; webp: string; src: string };

/** The record's cover (or the track drawing) behind its header, faded so the text stays readable. */
function Backdrop({ sources }: { sources: BackdropSources | null }) {
  if (!sources) return <TrackArt className="absolute inset-0 size-full opacity-70" />;
  const sizes = "(min-width: 1024px) 700px, 100vw";
  return (
    <>
      <picture>
        {sources.avif ? <source type="image/avif" srcSet={sources.avif} sizes={sizes} /> : null}
        <img
          src={sources.src}
          srcSet={sources.webp}
          sizes={sizes}
          alt=""
          className="absolute inset-y-0 right-0 h-full w-full object-cover opacity-55 md:w-3/5"
        />
      </picture>
      <div className="absolute inset-0 bg-gradient-to-r from-asphalt-950 via-asphalt-950/90 to-asphalt-950/30" />
    </>
  );
}

/** The way back from a record's pages to the list it is in. */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} className="inline-flex items-center gap-1.5 text-sm font-semibold text-muted hover:text-text">
      <ArrowLeft aria-hidden className="size-4" /> {label}
    </Link>
  );
}

/**
 * The top of an organizer page that is one form about no record yet (a new product) or about a
 * whole area (its settings): the way back to the list, the title, and what the page is for.
 */
export function FormPageHeader({
  back,
  title,
  badge,
  intro,
}: {
  back: { to: string; label: string };
  title: string;
  /** The record's state, beside the title, once there is a record (an article being edited). */
  badge?: ReactNode;
  intro?: ReactNode;
}) {
  const heading = <h1 className="wide text-3xl font-extrabold sm:text-4xl">{title}</h1>;
  return (
    <header className="space-y-2">
      <BackLink {...back} />
      {badge ? (
        <div className="flex flex-wrap items-center gap-3">
          {heading}
          {badge}
        </div>
      ) : (
        heading
      )}
      {intro ? <p className="max-w-prose text-muted">{intro}</p> : null}
    </header>
  );
}

/**
 * An organizer page that is one form (a new event, a new draw, an article): its header over the
 * form, in a column of reading width, or `wide` for a form that shows a preview beside its text.
 */
export function FormPage({
  wide = false,
  children,
  ...header
}: Parameters<typeof FormPageHeader>[0] & { wide?: boolean; children: ReactNode }) {
  return (
    <div className={`mx-auto space-y-8 ${wide ? "max-w-[1100px]" : "max-w-[820px]"}`}>
      <FormPageHeader {...header} />
      {children}
    </div>
  );
}

/**
 * The top of every organizer page of one record (an event, a draw): the way back to the list,
 * a dark band with the record's title, state and facts over its cover, its figures and a link to
 * its public page, then the tabs between its pages.
 */
export function RecordHeader({
  back,
  backdrop,
  lead,
  title,
  badge,
  facts,
  figures,
  publicHref,
  tabsLabel,
  tabs,
}: {
  back: { to: string; label: string };
  backdrop: BackdropSources | null;
  /** Shown before the title (an event's date block). */
  lead?: ReactNode;
  title: string;
  badge: ReactNode;
  /** Lines under the title. */
  facts: ReactNode;
  /** Its meter of places or entries. */
  figures: ReactNode;
  /** Its page on the site, once it is public. */
  publicHref: string | null;
  tabsLabel: string;
  tabs: RecordTab[];
}) {
  return (
    <header className="space-y-4">
      <BackLink {...back} />
      <div className="dark-band relative isolate overflow-hidden rounded-3xl bg-asphalt-950 text-white ring-1 ring-white/10">
        <div aria-hidden className="absolute inset-0 -z-10">
          <Backdrop sources={backdrop} />
        </div>
        <div className="flex flex-wrap items-start gap-4 p-5 sm:gap-5 sm:p-7">
          {lead}
          <div className="min-w-0 flex-1 basis-64 space-y-1.5">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
              <h1 className="wide text-2xl font-extrabold break-words sm:text-3xl">{title}</h1>
              {badge}
            </div>
            {facts}
          </div>
          <div className="flex w-full flex-wrap items-center justify-between gap-4 rounded-2xl bg-white/5 p-3 ring-1 ring-white/10 sm:w-auto sm:flex-col sm:items-end sm:bg-transparent sm:p-0 sm:ring-0">
            {figures}
            {publicHref ? (
              <Link
                to={publicHref}
                className="inline-flex items-center gap-1.5 text-sm font-semibold text-accent-strong underline"
              >
                View on the site <ExternalLink aria-hidden className="size-4" />
              </Link>
            ) : null}
          </div>
        </div>
      </div>
      <nav aria-label={tabsLabel} className="-mx-1 overflow-x-auto border-b border-line px-1">
        <ul className="flex gap-1">
          {tabs.map((tab) => (
            <li key={tab.to}>
              <NavLink
                to={tab.to}
                end={tab.end}
                className={({ isActive }) =>
                  `-mb-px inline-flex items-center gap-2 border-b-[3px] px-4 py-3 font-bold ${
                    isActive ? "border-accent text-text" : "border-transparent text-muted hover:text-text"
                  }`
                }
              >
                <tab.icon aria-hidden className="size-4" />
                {tab.label}
                {tab.note ? (
                  <span className="tabular rounded-full bg-surface-sunken px-1.5 text-xs font-semibold text-muted">
                    {tab.note}
                  </span>
                ) : null}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
