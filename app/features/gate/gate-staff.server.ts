import { randomUUID } from "node:crypto";
import { and, asc, eq, gte, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import type { Role } from "~/server/auth/session.server";
import type { Db } from "~/server/db/client.server";
import { events, type GateRole, gateScans, gateStaff, tickets, users } from "../../../db/schema";
import { GATE_POWERS } from "./gate-roles";
import { codeHash } from "./offline-gate.server";

// Who works an event's gate (docs/gate.md): organizers and admins supervise every gate; a member
// an organizer puts on one event's gate is its steward or its supervisor, and reaches that gate's
// page and nothing else of the dashboard.

/** The member's role at the event's gate, or null when they have none. */
export async function gateRoleOf(db: Db, user: { id: string; role: Role }, eventId: string): Promise<GateRole | null> {
  if (user.role === "organizer" || user.role === "admin") return "supervisor";
  const [row] = await db
    .select({ role: gateStaff.role })
    .from(gateStaff)
    .where(and(eq(gateStaff.eventId, eventId), eq(gateStaff.userId, user.id)));
  return row?.role ?? null;
}

/** The members put on the event's gate, supervisors first, then by name. */
export async function gateStaffOf(db: Db, eventId: string) {
  return db
    .select({ userId: gateStaff.userId, name: users.name, email: users.email, role: gateStaff.role })
    .from(gateStaff)
    .innerJoin(users, eq(users.id, gateStaff.userId))
    .where(eq(gateStaff.eventId, eventId))
    .orderBy(sql`${gateStaff.role} = 'steward'`, asc(users.name), asc(users.email));
}

export type GateStaffOutcome = { ok: true; name: string } | { ok: false; field: "email" | ""; message: string };

/**
 * Puts the member with `email` on the event's gate, or changes their role there. Staff need no
 * place: they supervise every gate already. Audited.
 */
export async function putOnGate(
  db: Db,
  input: { eventId: string; email: string; role: GateRole; actorId: string; now: Date },
): Promise<GateStaffOutcome> {
  return db.transaction(async (tx) => {
    const [member] = await tx
      .select({ id: users.id, name: users.name, role: users.role })
      .from(users)
      .where(sql`lower(${users.email}) = ${input.email}`);
    if (!member) {
      return { ok: false, field: "email", message: "No account has this email: ask them to sign up first" };
    }
    if (member.role === "organizer" || member.role === "admin") {
      return { ok: false, field: "email", message: `${member.name} is staff and supervises every gate already` };
    }
    const [event] = await tx.select({ id: events.id }).from(events).where(eq(events.id, input.eventId));
    if (!event) return { ok: false, field: "", message: "This event no longer exists" };
    await tx
      .insert(gateStaff)
      .values({
        eventId: input.eventId,
        userId: member.id,
        role: input.role,
        addedBy: input.actorId,
        createdAt: input.now,
      })
      .onConflictDoUpdate({ target: [gateStaff.eventId, gateStaff.userId], set: { role: input.role } });
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "gate.staff.add",
      subjectType: "event",
      subjectId: input.eventId,
      details: { userId: member.id, role: input.role },
    });
    return { ok: true, name: member.name };
  });
}

/** Takes a member off the event's gate: their page stops working at once. Audited. */
export async function takeOffGate(db: Db, input: { eventId: string; userId: string; actorId: string }) {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(gateStaff)
      .where(and(eq(gateStaff.eventId, input.eventId), eq(gateStaff.userId, input.userId)))
      .returning({ role: gateStaff.role });
    if (removed.length === 0) return false;
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "gate.staff.remove",
      subjectType: "event",
      subjectId: input.eventId,
      details: { userId: input.userId, role: removed[0]!.role },
    });
    return true;
  });
}

/** The events whose gate the member works, from today on, soonest first: their account links each. */
export async function gateDutiesOf(db: Db, userId: string, now: Date) {
  const dayAgo = new Date(now.getTime() - 24 * 3_600_000);
  return db
    .select({
      eventId: events.id,
      title: events.title,
      startsAt: events.startsAt,
      timeZone: events.timeZone,
      role: gateStaff.role,
    })
    .from(gateStaff)
    .innerJoin(events, eq(events.id, gateStaff.eventId))
    .where(and(eq(gateStaff.userId, userId), gte(events.endsAt, dayAgo)))
    .orderBy(asc(events.startsAt), asc(events.id));
}

/**
 * What each named gate let in, for the supervisor's counts: scans from devices that named their
 * gate (a device names it when it gets ready for offline), busiest first.
 */
export async function admittedByGate(db: Db, eventId: string) {
  const rows = await db
    .select({ gate: gateScans.gate, admitted: sql<number>`count(*)::int` })
    .from(gateScans)
    .where(and(eq(gateScans.eventId, eventId), eq(gateScans.outcome, "admitted"), eq(gateScans.direction, "in")))
    .groupBy(gateScans.gate)
    .orderBy(sql`count(*) desc`, asc(gateScans.gate));
  return rows.map((row) => ({ gate: row.gate, admitted: Number(row.admitted) }));
}

export type LetInOutcome =
  | { ok: true; headline: string }
  | { ok: false; field: "ticketId" | ""; message: string; status: 400 | 404 | 409 };

/** The gate name a hand-made admission is counted under. */
const BY_HAND_GATE = "By hand";

/**
 * A supervisor lets a ticket's holder in by hand, with a reason (a phone that died, a refund made
 * in error): a valid ticket is checked in as a scan would; one the gate refuses (refunded,
 * transferred, cancelled) keeps its state, and the admission is recorded as a scan let in by hand.
 * Either way the reason goes to the audit log. A ticket already in is refused: nothing to do.
 */
export async function letInByHand(
  db: Db,
  input: { eventId: string; ticketId: string; reason: string; staff: { id: string; role: GateRole }; now: Date },
): Promise<LetInOutcome> {
  if (!GATE_POWERS[input.staff.role].letIn) {
    return { ok: false, field: "", message: "Only a supervisor can let someone in by hand", status: 400 };
  }
  return db.transaction(async (tx) => {
    const [ticket] = await tx
      .select({ id: tickets.id, code: tickets.code, status: tickets.status })
      .from(tickets)
      .where(and(eq(tickets.id, input.ticketId), eq(tickets.eventId, input.eventId)))
      .for("update");
    if (!ticket) return { ok: false, field: "ticketId", message: "No ticket for this event has this id", status: 404 };
    if (ticket.status === "checked_in") {
      return { ok: false, field: "ticketId", message: "This ticket is checked in already", status: 409 };
    }
    if (ticket.status === "valid") {
      await tx
        .update(tickets)
        .set({ status: "checked_in", checkedInAt: input.now, checkedInBy: input.staff.id, updatedAt: input.now })
        .where(eq(tickets.id, ticket.id));
    }
    const headline =
      ticket.status === "valid" ? "Checked in by hand" : `Let in by hand, though the ticket is ${ticket.status}`;
    await tx.insert(gateScans).values({
      id: randomUUID(),
      eventId: input.eventId,
      staffId: input.staff.id,
      gate: BY_HAND_GATE,
      codeHash: codeHash(ticket.code),
      scannedAt: input.now,
      receivedAt: input.now,
      local: "admitted",
      outcome: "admitted",
      headline: `${headline}: ${input.reason}`,
    });
    await recordAudit(tx, {
      actorId: input.staff.id,
      action: "gate.let_in",
      subjectType: "ticket",
      subjectId: ticket.id,
      details: { eventId: input.eventId, status: ticket.status, reason: input.reason },
    });
    return { ok: true, headline };
  });
}
