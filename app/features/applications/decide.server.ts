import { and, eq, inArray, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import type { Db } from "~/server/db/client.server";
import { transactionWithRetry } from "~/server/db/retry.server";
import { type ApplicationStatus, cartItems, events, showCarApplications, users } from "../../../db/schema";
import { eventColumns } from "./application-event.server";
import { DECISIONS_ALLOWED, type Decision, payByOf, SPOT_STATUSES, STATUS_LABELS } from "./application-rules";
import { DECISION_NOTE_MAX } from "./limits";
import { issuePass } from "./passes.server";

/**
 * The organizers' review: approve, wait-list or reject an application, never past the event's
 * spots (docs/applications.md, "The life of an application").
 */

const DECISION_STATUS: Record<Decision, ApplicationStatus> = {
  approve: "approved",
  waitlist: "waitlisted",
  reject: "rejected",
};

export type DecisionResult =
  | {
      ok: true;
      status: ApplicationStatus;
      /** Who to tell: the member's email and name (null when the account is gone). */
      member: { email: string; name: string } | null;
      event: { slug: string; title: string };
      carLabel: string;
      fee: number;
      payBy: Date;
      timeZone: string;
      passIssued: boolean;
    }
  | { ok: false; message: string };

/**
 * Staff decide on an application. Approval locks the event's row first, then counts the
 * approved and paid applications against its spots, so parallel approvals on any number of
 * servers queue on that lock and the last spot goes once. A free application is confirmed at
 * once and its pass issued; one with a fee waits for payment. Audited in the same transaction.
 */
export async function decideApplication(
  db: Db,
  input: {
    applicationId: string;
    eventId: string;
    decision: Decision;
    note: string;
    staffId: string;
    now: Date;
  },
): Promise<DecisionResult> {
  const note = input.note.trim();
  if (note.length > DECISION_NOTE_MAX) {
    return { ok: false, message: `Keep the message under ${DECISION_NOTE_MAX} characters` };
  }
  return transactionWithRetry(db, async (tx) => {
    const [event] = await tx.select(eventColumns).from(events).where(eq(events.id, input.eventId)).for("no key update");
    if (!event) return { ok: false as const, message: "This event could not be found" };
    const [application] = await tx
      .select({
        id: showCarApplications.id,
        status: showCarApplications.status,
        userId: showCarApplications.userId,
        carLabel: showCarApplications.carLabel,
      })
      .from(showCarApplications)
      .where(and(eq(showCarApplications.id, input.applicationId), eq(showCarApplications.eventId, event.id)))
      .for("update");
    if (!application) return { ok: false as const, message: "This application could not be found" };
    if (!DECISIONS_ALLOWED[application.status].includes(input.decision)) {
      return {
        ok: false as const,
        message: `This application is ${STATUS_LABELS[application.status].toLowerCase()}; it cannot be changed that way`,
      };
    }
    if (input.decision === "approve" && event.applicationSpots !== null) {
      const [taken] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(showCarApplications)
        .where(and(eq(showCarApplications.eventId, event.id), inArray(showCarApplications.status, SPOT_STATUSES)));
      if (Number(taken?.count ?? 0) >= event.applicationSpots) {
        return {
          ok: false as const,
          message: `All ${event.applicationSpots} spots are taken; put it on the waiting list, or free a spot first`,
        };
      }
    }
    const fee = input.decision === "approve" ? event.applicationFee : 0;
    const free = input.decision === "approve" && fee === 0;
    const status: ApplicationStatus = free ? "paid" : DECISION_STATUS[input.decision];
    await tx
      .update(showCarApplications)
      .set({
        status,
        fee,
        decisionNote: note || null,
        reviewedBy: input.staffId,
        reviewedAt: input.now,
        paidAt: free ? input.now : null,
        updatedAt: input.now,
      })
      .where(eq(showCarApplications.id, application.id));
    if (free) {
      await issuePass(tx, {
        applicationId: application.id,
        eventId: event.id,
        userId: application.userId,
        orderId: null,
        now: input.now,
      });
    }
    if (input.decision === "reject") {
      await tx.delete(cartItems).where(eq(cartItems.applicationId, application.id));
    }
    await recordAudit(tx, {
      actorId: input.staffId,
      action: `application.${input.decision}`,
      subjectType: "show_car_application",
      subjectId: application.id,
      details: { eventId: event.id, car: application.carLabel, from: application.status, to: status, note },
    });
    const [member] = application.userId
      ? await tx.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, application.userId))
      : [];
    return {
      ok: true as const,
      status,
      member: member ?? null,
      event: { slug: event.slug, title: event.title },
      carLabel: application.carLabel,
      fee,
      payBy: payByOf(event),
      timeZone: event.timeZone,
      passIssued: free,
    };
  });
}
