import { formatEventInstant } from "~/features/dates/event-dates";
import { drawEntriesCsv } from "~/features/draws/organizer/entries-csv";
import { getDrawSummary, listDrawEntries } from "~/features/draws/organizer/queries.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { csvDownload } from "~/ui/csv-download";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/entries-csv";
import { drawIdFrom } from "./draw-forms.server";

/** Every entry of the draw, by number, as CSV. */
export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const drawId = drawIdFrom(params.drawId);
  const { db, env } = context.get(runtimeContext);
  const draw = await getDrawSummary(db, drawId, env.TIME_ZONE);
  if (!draw) notFound();
  const at = (instant: Date | null) => (instant ? formatEventInstant(instant, env.TIME_ZONE) : null);
  const entries = (await listDrawEntries(db, drawId)).map((entry) => ({
    ...entry,
    createdAt: at(entry.createdAt)!,
    receivedAt: at(entry.receivedAt),
  }));
  return csvDownload(drawEntriesCsv(entries), `${draw.slug}-entries.csv`);
}
