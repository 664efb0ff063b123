import { ArrowLeft, ExternalLink, ImageIcon, Info, ListOrdered } from "lucide-react";
import { Link, NavLink } from "react-router";
import { coverSources } from "~/features/events/cover-urls";
import { useMediaBase } from "~/ui/site";
import { TrackArt } from "~/ui/track-art";
import { DrawStatusBadge, EntriesMeter, KIND_LABELS } from "./draw-list";
import type { DrawSummary } from "./queries.server";

/** The top of every page of one draw: what, when, its state, and the tabs between its pages. */
export function DrawHeader({ draw }: { draw: DrawSummary }) {
  const mediaBase = useMediaBase();
  const tabs = [
    { to: `/admin/draws/${draw.id}`, label: "Details", icon: Info, end: true, note: null },
    {
      to: `/admin/draws/${draw.id}/images`,
      label: "Photos",
      icon: ImageIcon,
      end: false,
      note: String(draw.imageCount),
    },
    {
      to: `/admin/draws/${draw.id}/entries`,
      label: "Entries",
      icon: ListOrdered,
      end: false,
      note: String(draw.allocated),
    },
  ];
  const sources = draw.cover ? coverSources(draw.cover.hash, mediaBase) : null;
  return (
    <header className="space-y-4">
      <Link
        to="/admin/draws"
        className="inline-flex items-center gap-1.5 text-sm font-semibold text-muted hover:text-text"
      >
        <ArrowLeft aria-hidden className="size-4" /> Draws
      </Link>
      <div className="dark-band relative isolate overflow-hidden rounded-3xl bg-asphalt-950 text-white ring-1 ring-white/10">
        <div aria-hidden className="absolute inset-0 -z-10">
          {sources ? (
            <>
              <img
                src={sources.src}
                srcSet={sources.webp}
                sizes="(min-width: 1024px) 700px, 100vw"
                alt=""
                className="absolute inset-y-0 right-0 h-full w-full object-cover opacity-55 md:w-3/5"
              />
              <div className="absolute inset-0 bg-gradient-to-r from-asphalt-950 via-asphalt-950/90 to-asphalt-950/30" />
            </>
          ) : (
            <TrackArt className="absolute inset-0 size-full opacity-70" />
          )}
        </div>
        <div className="flex flex-wrap items-start gap-4 p-5 sm:gap-5 sm:p-7">
          <div className="min-w-0 flex-1 basis-64 space-y-1.5">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
              <h1 className="wide text-2xl font-extrabold break-words sm:text-3xl">{draw.title}</h1>
              <DrawStatusBadge status={draw.status} />
            </div>
            <p>{KIND_LABELS[draw.kind]}</p>
            <p className="text-asphalt-300">
              Opens {draw.opensLabel} · closes {draw.closesLabel}
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-4 sm:flex-col sm:items-end">
            <EntriesMeter allocated={draw.allocated} total={draw.totalEntries} />
            {draw.status !== "draft" ? (
              <Link
                to={`/giveaways/${draw.slug}`}
                className="inline-flex items-center gap-1.5 text-sm font-semibold text-accent-strong underline"
              >
                View on the site <ExternalLink aria-hidden className="size-4" />
              </Link>
            ) : null}
          </div>
        </div>
      </div>
      <nav aria-label="Draw pages" className="-mx-1 overflow-x-auto border-b border-line px-1">
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
