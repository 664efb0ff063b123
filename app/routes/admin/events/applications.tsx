import { data } from "react-router";
import { decisionEmail } from "~/features/applications/application-emails.server";
import { STATUS_LABELS } from "~/features/applications/application-rules";
import { decideApplication } from "~/features/applications/decide.server";
import { REVIEW_TABS, ReviewList, ReviewTabs } from "~/features/applications/review-list";
import { applicationSettings, applicationsOfEvent, spotsTaken } from "~/features/applications/review-queries.server";
import { DecisionSchema } from "~/features/applications/schemas";
import { formatEventInstant } from "~/features/dates/event-dates";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { dashboardMeta, recordTitle } from "~/ui/dashboard-meta";
import { notFound } from "~/ui/not-found";
import { TabSection } from "~/ui/record-page";
import type { Route } from "./+types/applications";
import { eventIdFrom } from "./event-id.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db, env } = context.get(runtimeContext);
  const event = await applicationSettings(db, eventId);
  if (!event) notFound();
  const wanted = url.searchParams.get("status");
  const status = REVIEW_TABS.find((tab) => tab.status === wanted)?.status ?? "submitted";
  const [all, taken] = await Promise.all([applicationsOfEvent(db, eventId), spotsTaken(db, eventId)]);
  const counts: Record<string, number> = { all: all.length };
  for (const row of all) counts[row.status] = (counts[row.status] ?? 0) + 1;
  return {
    status,
    counts,
    taken,
    event: { ...event },
    currency: env.CURRENCY,
    applications: all
      .filter((row) => status === "all" || row.status === status)
      .map(({ createdAt, ...row }) => ({
        ...row,
        statusLabel: STATUS_LABELS[row.status],
        submitted: formatEventInstant(createdAt, event.timeZone),
      })),
  };
}

/** Approve, waiting list or reject, with a message emailed to the member; audited. */
export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db, env, outbox } = context.get(runtimeContext);
  const values = Object.fromEntries(await request.formData());
  const parsed = DecisionSchema.safeParse(values);
  if (!parsed.success) {
    const applicationId = typeof values.applicationId === "string" ? values.applicationId : "";
    return data({ error: { applicationId, message: parsed.error.issues[0]!.message } }, { status: 400 });
  }
  const { applicationId, intent, note } = parsed.data;
  const result = await decideApplication(db, {
    applicationId,
    eventId,
    decision: intent,
    note,
    staffId: user.id,
    now: new Date(),
  });
  if (!result.ok) return data({ error: { applicationId, message: result.message } }, { status: 400 });
  const email = decisionEmail({ siteName: env.SITE_NAME, siteUrl: env.SITE_URL, currency: env.CURRENCY }, result, note);
  if (email) await outbox.sendEmail(email);
  const done = { approve: "approved", waitlist: "put on the waiting list", reject: "rejected" }[intent];
  return redirectWithFlash(`${url.pathname}${url.search}`, {
    kind: "success",
    message: `${result.carLabel} ${done}${email ? "; the member has been emailed" : ""}.`,
  });
}

export default function EventApplications({ loaderData, actionData }: Route.ComponentProps) {
  const { event, taken, status, counts, applications, currency } = loaderData;
  return (
    <TabSection
      id="applications"
      title="Show-car applications"
      aside={
        <p className="text-sm font-semibold tabular">
          {event.applicationSpots === null
            ? `${taken} approved · spots not limited`
            : `${taken} of ${event.applicationSpots} spots taken`}
          {event.applicationsOpen ? "" : " · applications closed"}
        </p>
      }
    >
      <ReviewTabs current={status} counts={counts} />
      <ReviewList applications={applications} currency={currency} error={actionData?.error} />
    </TabSection>
  );
}

const EVENT_LAYOUT = { id: "routes/admin/events/event", key: "event", fallback: "Event" };

export const meta: Route.MetaFunction = ({ matches }) =>
  dashboardMeta(matches, "Applications", recordTitle(matches, EVENT_LAYOUT));
