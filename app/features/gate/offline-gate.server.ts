import { createHash } from "node:crypto";
import { and, asc, desc, eq, isNotNull } from "drizzle-orm";
import { hasBenefits } from "~/features/membership/membership-rules";
import { statusOf } from "~/features/membership/memberships.server";
import {
  normaliseTicketCode,
  ticketPublicKeyPem,
  verifySignedTicketCode,
} from "~/features/tickets/ticket-codes.server";
import type { Db } from "~/server/db/client.server";
import {
  events,
  exhibitorPasses,
  type GateRole,
  gateScans,
  memberCheckIns,
  memberships,
  membershipTiers,
  orders,
  showCarApplications,
  tickets,
  ticketTypes,
  users,
} from "../../../db/schema";
import { admitAtGate, type GateResult } from "./gate.server";
import {
  type AdmissionEntry,
  type AdmissionList,
  admittedTwice,
  admittedWhileRefused,
  CODE_HASH_LENGTH,
  type GateDecision,
  type GateDirection,
  gateTime,
  initialsOf,
  NOT_A_TICKET,
} from "./offline-rules";

/**
 * The gate offline (docs/gate.md): the admission list a device downloads before it loses signal,
 * and the scans it made meanwhile, replayed when it is back online in the order they were made,
 * at the times they were made, each once. Where two scans disagree in a way that matters, the
 * scan keeps a conflict for the supervisor.
 */

/** A code as the list names it: the first 132 bits of its SHA-256, never the code itself. */
export function codeHash(code: string) {
  return createHash("sha256").update(code).digest("base64url").slice(0, CODE_HASH_LENGTH);
}

/**
 * Everything that may be scanned at this event, with what the device needs to decide: its tickets,
 * its exhibitor passes, and at a members' event the club's member cards. Null when there is no
 * such event.
 */
export async function admissionList(
  db: Db,
  input: { eventId: string; secret: string; now: Date },
): Promise<AdmissionList | null> {
  const [event] = await db
    .select({
      id: events.id,
      title: events.title,
      timeZone: events.timeZone,
      membersEvent: events.membersEvent,
      reentry: events.gateReentry,
    })
    .from(events)
    .where(eq(events.id, input.eventId));
  if (!event) return null;
  const types: string[] = [];
  const typeIndex = (name: string) => {
    const found = types.indexOf(name);
    return found >= 0 ? found : types.push(name) - 1;
  };
  const entries: AdmissionEntry[] = [];

  const ticketRows = await db
    .select({
      code: tickets.code,
      status: tickets.status,
      checkedInAt: tickets.checkedInAt,
      leftAt: tickets.leftAt,
      type: ticketTypes.name,
      attendee: tickets.attendeeName,
      buyer: users.name,
    })
    .from(tickets)
    .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
    .innerJoin(orders, eq(orders.id, tickets.orderId))
    .leftJoin(users, eq(users.id, orders.userId))
    .where(eq(tickets.eventId, event.id))
    .orderBy(asc(tickets.id));
  for (const row of ticketRows) {
    entries.push({
      h: codeHash(row.code),
      k: "ticket",
      t: typeIndex(row.type),
      n: initialsOf(row.attendee || row.buyer),
      s: row.status,
      a: row.checkedInAt?.toISOString() ?? null,
      ...(row.leftAt ? { o: row.leftAt.toISOString() } : {}),
    });
  }

  const passRows = await db
    .select({
      code: exhibitorPasses.code,
      status: exhibitorPasses.status,
      checkedInAt: exhibitorPasses.checkedInAt,
      car: showCarApplications.carLabel,
    })
    .from(exhibitorPasses)
    .innerJoin(showCarApplications, eq(showCarApplications.id, exhibitorPasses.applicationId))
    .where(eq(exhibitorPasses.eventId, event.id))
    .orderBy(asc(exhibitorPasses.id));
  const exhibitor = passRows.length > 0 ? typeIndex("Exhibitor") : 0;
  for (const row of passRows) {
    entries.push({
      h: codeHash(row.code),
      k: "pass",
      t: exhibitor,
      n: row.car,
      s: row.status === "cancelled" ? "cancelled" : row.checkedInAt ? "checked_in" : "valid",
      a: row.checkedInAt?.toISOString() ?? null,
    });
  }

  if (event.membersEvent) {
    const memberRows = await db
      .select({
        code: memberships.cardCode,
        paidUntil: memberships.paidUntil,
        renews: memberships.renews,
        endedAt: memberships.endedAt,
        name: users.name,
        tier: membershipTiers.name,
        admits: membershipTiers.admitsToMembersEvents,
        checkedInAt: memberCheckIns.checkedInAt,
      })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
      .leftJoin(
        memberCheckIns,
        and(eq(memberCheckIns.membershipId, memberships.id), eq(memberCheckIns.eventId, event.id)),
      )
      .orderBy(asc(memberships.id));
    for (const row of memberRows) {
      const status = statusOf(row, input.now);
      const state: AdmissionEntry["s"] = !hasBenefits(status)
        ? status.state === "lapsed"
          ? "lapsed"
          : "ended"
        : !row.admits
          ? "not_for_entry"
          : row.checkedInAt
            ? "checked_in"
            : "valid";
      entries.push({
        h: codeHash(row.code),
        k: "member",
        t: typeIndex(row.tier),
        n: initialsOf(row.name),
        s: state,
        a: row.checkedInAt?.toISOString() ?? null,
      });
    }
  }

  return {
    eventId: event.id,
    title: event.title,
    timeZone: event.timeZone,
    version: input.now.toISOString(),
    publicKey: ticketPublicKeyPem(input.secret),
    reentry: event.reentry,
    types,
    entries,
  };
}

/** A scan as the device sends it back: its own id, what was read, when, and what it told the steward. */
export type OfflineScan = { id: string; value: string; at: Date; local: GateDecision; direction?: GateDirection };

export type SyncedScan = { id: string; outcome: GateDecision; headline: string; conflict: string | null };

/** The plain code of what was scanned or typed, as the online gate reads it; null when it is no code. */
function plainCode(value: string, secret: string) {
  const trimmed = value.trim();
  return trimmed.includes(".") ? verifySignedTicketCode(trimmed, secret) : normaliseTicketCode(trimmed);
}

/**
 * Replays a device's offline scans, earliest first, at the times they were made. A scan already
 * recorded (the device sent its outbox before and did not hear back) is answered as it was, so
 * sending the same outbox any number of times records each scan once. Each scan is decided by
 * the online gate's own rules; the scan's row keeps what the device said, what the server made of
 * it, and a conflict where a device let someone in who should not have been.
 */
export async function syncOfflineScans(
  db: Db,
  input: { eventId: string; staffId: string; gate: string; scans: readonly OfflineScan[]; secret: string; now: Date },
): Promise<SyncedScan[] | null> {
  const [event] = await db.select({ timeZone: events.timeZone }).from(events).where(eq(events.id, input.eventId));
  if (!event) return null;
  const ordered = [...input.scans].sort((a, b) => a.at.getTime() - b.at.getTime() || a.id.localeCompare(b.id));
  const results: SyncedScan[] = [];
  for (const scan of ordered) {
    results.push(await replayScan(db, { ...input, scan, timeZone: event.timeZone }));
  }
  return results;
}

async function replayScan(
  db: Db,
  input: {
    eventId: string;
    staffId: string;
    gate: string;
    scan: OfflineScan;
    secret: string;
    timeZone: string;
    now: Date;
  },
): Promise<SyncedScan> {
  const { scan } = input;
  return db.transaction(async (tx) => {
    // One replay of a scan at a time: the second waits on the first's row, then answers as it did.
    const [seen] = await tx
      .select({ outcome: gateScans.outcome, headline: gateScans.headline, conflict: gateScans.conflict })
      .from(gateScans)
      .where(eq(gateScans.id, scan.id))
      .for("update");
    if (seen) return { id: scan.id, ...seen };
    const code = plainCode(scan.value, input.secret);
    const hash = code ? codeHash(code) : null;
    let outcome: GateDecision = "refused";
    let headline = NOT_A_TICKET;
    let conflict: string | null = null;
    if (code) {
      const answer = await admitAtGate(tx, {
        value: code,
        eventId: input.eventId,
        staffId: input.staffId,
        secret: input.secret,
        now: scan.at,
        direction: scan.direction,
      });
      headline = answer.headline;
      outcome = answer.tone === "admitted" ? "admitted" : answer.tone === "warning" ? "already" : "refused";
      const entry = scan.direction !== "out";
      if (entry && scan.local === "admitted" && outcome === "already") {
        const other = await firstAdmission(tx, { eventId: input.eventId, hash: hash!, code });
        if (other) {
          conflict = admittedTwice([other, { gate: input.gate, at: scan.at }], input.timeZone, input.now);
          // The first to come in came in first: a ticket keeps the earlier time.
          if (scan.at < other.at) {
            await tx
              .update(tickets)
              .set({ checkedInAt: scan.at, updatedAt: input.now })
              .where(and(eq(tickets.eventId, input.eventId), eq(tickets.code, code)));
          }
        }
      } else if (entry && scan.local === "admitted" && outcome === "refused") {
        conflict = admittedWhileRefused({ gate: input.gate, at: scan.at }, headline, input.timeZone, input.now);
      }
    }
    await tx.insert(gateScans).values({
      id: scan.id,
      eventId: input.eventId,
      staffId: input.staffId,
      gate: input.gate,
      codeHash: hash,
      scannedAt: scan.at,
      receivedAt: input.now,
      direction: scan.direction ?? "in",
      local: scan.local,
      outcome,
      headline,
      conflict,
    });
    return { id: scan.id, outcome, headline, conflict };
  });
}

/**
 * A scan sent online by a device that is ready for offline, under its own id: decided now by the
 * online gate and recorded, so that if the answer never reached the device, and it decided the
 * scan itself and queued it, the queued copy finds this one and counts nothing twice. Null when
 * there is no such event.
 */
export async function scanOnline(
  db: Db,
  input: {
    eventId: string;
    staffId: string;
    gate: string;
    id: string;
    value: string;
    secret: string;
    now: Date;
    shownTo?: GateRole;
    direction?: GateDirection;
  },
): Promise<{ result: GateResult; seen: boolean } | null> {
  const [event] = await db.select({ id: events.id }).from(events).where(eq(events.id, input.eventId));
  if (!event) return null;
  return db.transaction(async (tx) => {
    const [seen] = await tx
      .select({ outcome: gateScans.outcome, headline: gateScans.headline })
      .from(gateScans)
      .where(eq(gateScans.id, input.id))
      .for("update");
    if (seen) {
      const tone = seen.outcome === "admitted" ? "admitted" : seen.outcome === "already" ? "warning" : "refused";
      return { result: { tone, headline: seen.headline, detail: null }, seen: true };
    }
    const code = plainCode(input.value, input.secret);
    const result: GateResult = code
      ? await admitAtGate(tx, {
          value: code,
          eventId: input.eventId,
          staffId: input.staffId,
          secret: input.secret,
          now: input.now,
          shownTo: input.shownTo,
          direction: input.direction,
        })
      : { tone: "refused", headline: NOT_A_TICKET, detail: "Check the code, or send the holder to the box office." };
    const outcome: GateDecision =
      result.tone === "admitted" ? "admitted" : result.tone === "warning" ? "already" : "refused";
    await tx.insert(gateScans).values({
      id: input.id,
      eventId: input.eventId,
      staffId: input.staffId,
      gate: input.gate,
      codeHash: code ? codeHash(code) : null,
      scannedAt: input.now,
      receivedAt: input.now,
      direction: input.direction ?? "in",
      local: outcome,
      outcome,
      headline: result.headline,
    });
    return { result, seen: false };
  });
}

/**
 * The admission a later scan ran into: an earlier offline scan that admitted the code (with its
 * gate), else the ticket's own check-in, made online.
 */
async function firstAdmission(tx: Db, input: { eventId: string; hash: string; code: string }) {
  const [scanned] = await tx
    .select({ gate: gateScans.gate, at: gateScans.scannedAt })
    .from(gateScans)
    .where(
      and(eq(gateScans.eventId, input.eventId), eq(gateScans.codeHash, input.hash), eq(gateScans.outcome, "admitted")),
    )
    .orderBy(asc(gateScans.scannedAt))
    .limit(1);
  if (scanned) return { gate: scanned.gate as string | null, at: scanned.at };
  const [ticket] = await tx
    .select({ at: tickets.checkedInAt })
    .from(tickets)
    .where(and(eq(tickets.eventId, input.eventId), eq(tickets.code, input.code)));
  if (ticket?.at) return { gate: null, at: ticket.at };
  const [pass] = await tx
    .select({ at: exhibitorPasses.checkedInAt })
    .from(exhibitorPasses)
    .where(and(eq(exhibitorPasses.eventId, input.eventId), eq(exhibitorPasses.code, input.code)));
  if (pass?.at) return { gate: null, at: pass.at };
  const [member] = await tx
    .select({ at: memberCheckIns.checkedInAt })
    .from(memberCheckIns)
    .innerJoin(memberships, eq(memberships.id, memberCheckIns.membershipId))
    .where(and(eq(memberCheckIns.eventId, input.eventId), eq(memberships.cardCode, input.code)));
  return member ? { gate: null, at: member.at } : null;
}

/** The conflicts of an event's offline scans, latest first, for the supervisor. */
export async function gateConflicts(db: Db, input: { eventId: string; now: Date }) {
  const [event] = await db.select({ timeZone: events.timeZone }).from(events).where(eq(events.id, input.eventId));
  if (!event) return [];
  const rows = await db
    .select({
      id: gateScans.id,
      gate: gateScans.gate,
      at: gateScans.scannedAt,
      headline: gateScans.headline,
      conflict: gateScans.conflict,
      staff: users.name,
    })
    .from(gateScans)
    .leftJoin(users, eq(users.id, gateScans.staffId))
    .where(and(eq(gateScans.eventId, input.eventId), isNotNull(gateScans.conflict)))
    .orderBy(desc(gateScans.scannedAt))
    .limit(100);
  return rows.map((row) => ({
    id: row.id,
    conflict: row.conflict!,
    headline: row.headline,
    by: row.staff,
    gate: row.gate,
    at: gateTime(row.at, event.timeZone, input.now),
  }));
}
