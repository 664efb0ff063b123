import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { listSearch } from "~/features/forms/fields";
import { GateScreen } from "~/features/gate/gate-screen";
import { gateScreen, saveGateReentry } from "~/features/gate/gate-screen.server";
import { gateStaffOf, putOnGate, takeOffGate } from "~/features/gate/gate-staff.server";
import { GateStaffSection, ReentrySetting } from "~/features/gate/gate-staff-section";
import { GateStaffSchema } from "~/features/gate/schemas";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { dashboardMeta, recordTitle } from "~/ui/dashboard-meta";
import { notFound } from "~/ui/not-found";
import { intentOf } from "~/web/form-data.server";
import { gateScreenAction } from "~/web/gate-screen.server";
import { wantsSavedCopy } from "~/web/gate-worker.server";
import type { Route } from "./+types/checkin";
import { eventIdFrom } from "./event-id.server";

export async function loader({ request, context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db } = context.get(runtimeContext);
  const q = listSearch.parse(url.searchParams.get("q"));
  const saved = wantsSavedCopy(request);
  const [screen, staff] = await Promise.all([
    gateScreen(db, { eventId, role: "supervisor", q, now: new Date(), saved }),
    saved ? [] : gateStaffOf(db, eventId),
  ]);
  if (!screen) notFound();
  return { screen, staff };
}

/** The gate itself (scans, merch, letting in by hand), and who works it: organizers and admins. */
export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const eventId = eventIdFrom(params.eventId);
  const { db } = context.get(runtimeContext);
  const form = await request.formData();
  const intent = intentOf(form);
  const here = `/admin/events/${eventId}/checkin#gate-staff`;
  if (intent === "staff-add") {
    const submission = parseWithZod(form, { schema: GateStaffSchema });
    if (submission.status !== "success") return data({ staffErrors: submission.error ?? {} }, { status: 400 });
    const outcome = await putOnGate(db, { eventId, ...submission.value, actorId: user.id, now: new Date() });
    if (!outcome.ok) return data({ staffErrors: { [outcome.field]: [outcome.message] } }, { status: 400 });
    const role = submission.value.role === "steward" ? "a steward" : "a supervisor";
    return redirectWithFlash(here, { kind: "success", message: `${outcome.name} is ${role} at this gate.` });
  }
  if (intent === "reentry") {
    const reentry = form.get("reentry") === "on";
    if (!(await saveGateReentry(db, { eventId, reentry, actorId: user.id, now: new Date() }))) notFound();
    return redirectWithFlash(`/admin/events/${eventId}/checkin#reentry`, {
      kind: "success",
      message: reentry ? "Re-entry is on: the gate scans exits too." : "Re-entry is off.",
    });
  }
  if (intent === "staff-remove") {
    const removed = await takeOffGate(db, { eventId, userId: String(form.get("userId") ?? ""), actorId: user.id });
    if (!removed) return data({ staffErrors: { "": ["They were not on this gate."] } }, { status: 404 });
    return redirectWithFlash(here, { kind: "success", message: "Removed from the gate." });
  }
  return gateScreenAction({ form, context, user, role: "supervisor", eventId });
}

export default function CheckIn({ loaderData, actionData }: Route.ComponentProps) {
  const { screen, staff } = loaderData;
  const reply = actionData && "staffErrors" in actionData ? undefined : actionData;
  const staffErrors = actionData && "staffErrors" in actionData ? actionData.staffErrors : {};
  const q = screen.q;
  return (
    <GateScreen
      screen={screen}
      actionData={reply}
      csvHref={`/admin/events/${screen.eventId}/attendees.csv${q ? `?q=${encodeURIComponent(q)}` : ""}`}
    >
      {screen.saved ? null : (
        <>
          <GateStaffSection staff={staff} errors={staffErrors} />
          <ReentrySetting reentry={screen.reentry} />
        </>
      )}
    </GateScreen>
  );
}

const EVENT_LAYOUT = { id: "routes/admin/events/event", key: "event", fallback: "Event" };

export const meta: Route.MetaFunction = ({ matches }) =>
  dashboardMeta(matches, "Check-in", recordTitle(matches, EVENT_LAYOUT));
