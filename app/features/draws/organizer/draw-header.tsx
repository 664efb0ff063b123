import { ImageIcon, Info, ListOrdered } from "lucide-react";
import { coverSources } from "~/features/events/cover-urls";
import { RecordHeader, type RecordTab } from "~/ui/record-header";
import { useMediaBase } from "~/ui/site";
import { DrawStatusBadge, EntriesMeter, KIND_LABELS } from "./draw-list";
import type { DrawSummary } from "./queries.server";

/** The top of every page of one draw: what, when, its state, and the tabs between its pages. */
export function DrawHeader({ draw }: { draw: DrawSummary }) {
  const mediaBase = useMediaBase();
  const tabs: RecordTab[] = [
    { to: `/admin/draws/${draw.id}`, label: "Details", icon: Info, end: true },
    { to: `/admin/draws/${draw.id}/images`, label: "Photos", icon: ImageIcon, note: String(draw.imageCount) },
    { to: `/admin/draws/${draw.id}/entries`, label: "Entries", icon: ListOrdered, note: String(draw.allocated) },
  ];
  return (
    <RecordHeader
      back={{ to: "/admin/draws", label: "Draws" }}
      backdrop={draw.cover ? coverSources(draw.cover.hash, mediaBase) : null}
      title={draw.title}
      badge={<DrawStatusBadge status={draw.status} />}
      facts={
        <>
          <p>{KIND_LABELS[draw.kind]}</p>
          <p className="text-asphalt-300">
            Opens {draw.opensLabel} · closes {draw.closesLabel}
          </p>
        </>
      }
      figures={<EntriesMeter allocated={draw.allocated} total={draw.totalEntries} />}
      publicHref={draw.status !== "draft" ? `/giveaways/${draw.slug}` : null}
      tabsLabel="Draw pages"
      tabs={tabs}
    />
  );
}
