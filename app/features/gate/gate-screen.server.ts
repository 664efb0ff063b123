import { eq } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import type { Db } from "~/server/db/client.server";
import { events, type GateRole } from "../../../db/schema";
import { ATTENDEES_SHOWN, eventAttendees, gateCounts } from "./gate.server";
import { GATE_POWERS } from "./gate-roles";
import { admittedByGate } from "./gate-staff.server";
import { gateConflicts } from "./offline-gate.server";

/**
 * What the gate's page shows to `role` (docs/gate.md): the count for everyone; for a supervisor
 * also the attendee list (searched by `q`), the counts per gate and the conflicts. `saved` is the
 * copy the device keeps for a reload with no connection: the scanner alone, with nobody's name.
 * Null when there is no such event.
 */
export async function gateScreen(
  db: Db,
  input: { eventId: string; role: GateRole; q: string; now: Date; saved?: boolean },
) {
  const saved = input.saved === true;
  const powers = saved ? GATE_POWERS.steward : GATE_POWERS[input.role];
  const [event, counts, list, byGate, conflicts] = await Promise.all([
    eventAtGate(db, input.eventId),
    gateCounts(db, input.eventId),
    powers.search
      ? eventAttendees(db, { eventId: input.eventId, q: input.q, limit: ATTENDEES_SHOWN, now: input.now })
      : { attendees: [] },
    powers.countsPerGate ? admittedByGate(db, input.eventId) : [],
    powers.conflicts ? gateConflicts(db, { eventId: input.eventId, now: input.now }) : [],
  ]);
  if (!event || !list) return null;
  return {
    eventId: input.eventId,
    title: event.title,
    role: input.role,
    saved,
    reentry: event.reentry,
    counts,
    byGate,
    conflicts,
    q: powers.search ? input.q : "",
    attendees: list.attendees,
    shownLimit: ATTENDEES_SHOWN,
  };
}

export type GateScreenData = NonNullable<Awaited<ReturnType<typeof gateScreen>>>;

/** The event's title and whether it lets holders out and back in, in one read; undefined when there is no such event. */
async function eventAtGate(db: Db, eventId: string) {
  const [event] = await db
    .select({ title: events.title, reentry: events.gateReentry })
    .from(events)
    .where(eq(events.id, eventId));
  return event;
}

/** Turns re-entry on or off for the event (organizers, on its check-in tab). Audited. */
export async function saveGateReentry(
  db: Db,
  input: { eventId: string; reentry: boolean; actorId: string; now: Date },
) {
  return db.transaction(async (tx) => {
    const changed = await tx
      .update(events)
      .set({ gateReentry: input.reentry, updatedAt: input.now })
      .where(eq(events.id, input.eventId))
      .returning({ id: events.id });
    if (changed.length === 0) return false;
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "gate.reentry",
      subjectType: "event",
      subjectId: input.eventId,
      details: { reentry: input.reentry },
    });
    return true;
  });
}
