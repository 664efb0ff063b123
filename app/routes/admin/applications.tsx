import { ChevronRight } from "lucide-react";
import { Link } from "react-router";
import { STATUS_LABELS } from "~/features/applications/application-rules";
import { CarThumb } from "~/features/applications/car-thumb";
import { PENDING_SHOWN, pendingApplications } from "~/features/applications/review-queries.server";
import { formatEventInstant } from "~/features/dates/event-dates";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { dashboardMeta } from "~/ui/dashboard-meta";
import type { Route } from "./+types/applications";

/** Show-car applications waiting for a decision across every upcoming event. */
export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db } = context.get(runtimeContext);
  const rows = await pendingApplications(db, new Date());
  return {
    shownLimit: PENDING_SHOWN,
    applications: rows.map((row) => ({
      id: row.id,
      carLabel: row.carLabel,
      coverHash: row.coverHash,
      memberName: row.memberName ?? "Deleted account",
      statusLabel: STATUS_LABELS[row.status],
      status: row.status,
      sent: formatEventInstant(row.createdAt, row.timeZone),
      event: { id: row.eventId, title: row.eventTitle, when: formatEventInstant(row.eventStartsAt, row.timeZone) },
    })),
  };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function PendingApplications({ loaderData }: Route.ComponentProps) {
  const { applications, shownLimit } = loaderData;
  return (
    <div className="mx-auto max-w-[1100px] space-y-6">
      <header>
        <p className="text-sm font-bold uppercase tracking-[0.18em] text-accent-ink">Show cars</p>
        <h1 className="wide mt-1 text-3xl font-extrabold sm:text-4xl">Applications</h1>
        <p className="mt-2 max-w-prose text-muted">
          Waiting for a decision, or on a waiting list, for events still to come. Open one to decide in its event's
          Applications tab.
        </p>
      </header>
      {applications.length === 0 ? (
        <Card as="p" variant="empty" className="p-10 text-muted">
          Nothing is waiting for a decision.
        </Card>
      ) : (
        <Card as="ul" variant="list" className="overflow-hidden">
          {applications.map((application) => (
            <li key={application.id}>
              <Link
                to={`/admin/events/${application.event.id}/applications?status=${application.status}`}
                className="flex items-center gap-4 p-4 hover:bg-surface-sunken sm:p-5"
              >
                <CarThumb hash={application.coverHash} label={application.carLabel} size="size-14" />
                <span className="min-w-0 flex-1">
                  <span className="block font-bold">{application.carLabel}</span>
                  <span className="block text-sm text-muted">
                    {application.memberName} · {application.statusLabel} · sent {application.sent}
                  </span>
                  <span className="block text-sm">
                    {application.event.title} · {application.event.when}
                  </span>
                </span>
                <ChevronRight aria-hidden className="size-5 shrink-0 text-muted" />
              </Link>
            </li>
          ))}
        </Card>
      )}
      {applications.length >= shownLimit ? (
        <p className="text-sm text-muted">The first {shownLimit} are shown; each event's tab lists all of its own.</p>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => dashboardMeta(matches, "Applications");
