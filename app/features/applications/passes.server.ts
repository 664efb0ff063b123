import { and, eq, sql } from "drizzle-orm";
import { newTicketCode } from "~/features/tickets/ticket-codes.server";
import type { Db } from "~/server/db/client.server";
import { events, exhibitorPasses, showCarApplications, users } from "../../../db/schema";
import { applicationCarCover } from "./review-queries.server";

/**
 * Exhibitor passes: issued when an application is confirmed, checked in at the gate like a
 * ticket (docs/applications.md, "Exhibitor passes and the gate").
 */

/**
 * Issues the exhibitor pass of a confirmed application (free approval, or its fee settled). The
 * unique application key makes a repeat a no-op; a pass cancelled by a refund is made valid again
 * with a new code if the application is confirmed once more.
 */
export async function issuePass(
  tx: Db,
  input: { applicationId: string; eventId: string; userId: string | null; orderId: string | null; now: Date },
) {
  const code = newTicketCode();
  await tx
    .insert(exhibitorPasses)
    .values({
      applicationId: input.applicationId,
      eventId: input.eventId,
      userId: input.userId,
      orderId: input.orderId,
      code,
      createdAt: input.now,
    })
    .onConflictDoUpdate({
      target: exhibitorPasses.applicationId,
      set: { status: "valid", code, orderId: input.orderId, checkedInAt: null, checkedInBy: null },
      setWhere: sql`${exhibitorPasses.status} = 'cancelled'`,
    });
}

export type PassCheckIn =
  | { kind: "checked_in"; carLabel: string; coverHash: string | null; holder: string | null }
  | {
      kind: "already_checked_in";
      carLabel: string;
      coverHash: string | null;
      holder: string | null;
      checkedInAt: Date;
      checkedInBy: string | null;
    }
  | { kind: "cancelled"; carLabel: string; coverHash: string | null; holder: string | null }
  | { kind: "other_event"; eventTitle: string }
  | { kind: "not_found" };

/**
 * Checks an exhibitor pass in at the gate: a conditional update, so of two scanners reading it
 * at once exactly one admits it and the other is told when and by whom.
 */
export async function checkInPass(
  db: Db,
  input: { code: string; eventId: string; staffId: string; now: Date },
): Promise<PassCheckIn> {
  const [admitted] = await db
    .update(exhibitorPasses)
    .set({ checkedInAt: input.now, checkedInBy: input.staffId })
    .where(
      and(
        eq(exhibitorPasses.code, input.code),
        eq(exhibitorPasses.eventId, input.eventId),
        eq(exhibitorPasses.status, "valid"),
        sql`${exhibitorPasses.checkedInAt} is null`,
      ),
    )
    .returning({ id: exhibitorPasses.id });
  const checker = sql<string | null>`(select name from users c where c.id = ${exhibitorPasses.checkedInBy})`;
  const [pass] = await db
    .select({
      eventId: exhibitorPasses.eventId,
      eventTitle: events.title,
      status: exhibitorPasses.status,
      checkedInAt: exhibitorPasses.checkedInAt,
      checkedInBy: checker,
      carLabel: showCarApplications.carLabel,
      coverHash: applicationCarCover,
      holder: users.name,
    })
    .from(exhibitorPasses)
    .innerJoin(events, eq(events.id, exhibitorPasses.eventId))
    .innerJoin(showCarApplications, eq(showCarApplications.id, exhibitorPasses.applicationId))
    .leftJoin(users, eq(users.id, exhibitorPasses.userId))
    .where(eq(exhibitorPasses.code, input.code));
  if (!pass) return { kind: "not_found" };
  if (pass.eventId !== input.eventId) return { kind: "other_event", eventTitle: pass.eventTitle };
  const shown = { carLabel: pass.carLabel, coverHash: pass.coverHash, holder: pass.holder };
  if (admitted) return { kind: "checked_in", ...shown };
  if (pass.status === "cancelled") return { kind: "cancelled", ...shown };
  return {
    kind: "already_checked_in",
    ...shown,
    checkedInAt: pass.checkedInAt ?? input.now,
    checkedInBy: pass.checkedInBy,
  };
}
