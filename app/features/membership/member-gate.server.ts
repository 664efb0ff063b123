import { and, eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { events, memberCheckIns, memberships, membershipTiers, users } from "../../../db/schema";
import { hasBenefits } from "./membership-rules";
import { statusOf } from "./memberships.server";

export type MemberCheckIn =
  /** No membership has this card code. */
  | { kind: "not_found" }
  /** A member, but the card does not let them in here (not a members' event, or a tier that does not). */
  | { kind: "not_for_entry"; holder: string; tier: string }
  /** The membership has lapsed or ended. */
  | { kind: "not_valid"; holder: string; tier: string; state: "lapsed" | "ended" }
  | { kind: "checked_in"; holder: string; tier: string; people: string[] }
  | {
      kind: "already_checked_in";
      holder: string;
      tier: string;
      people: string[];
      checkedInAt: Date;
      checkedInBy: string | null;
    };

/**
 * A member card scanned at the gate (`code`: its plain card code, its signature already checked).
 * It lets its holder into a members' event while the membership has its benefits and its tier
 * admits to members' events, once per event: the first of two scanners to record the entry
 * admits, the other is told when and by whom.
 */
export async function checkInMember(
  db: Db,
  input: { code: string; eventId: string; staffId: string; now: Date },
): Promise<MemberCheckIn> {
  const [row] = await db
    .select({
      id: memberships.id,
      paidUntil: memberships.paidUntil,
      renews: memberships.renews,
      endedAt: memberships.endedAt,
      people: memberships.people,
      holder: users.name,
      tier: membershipTiers.name,
      admits: membershipTiers.admitsToMembersEvents,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
    .where(eq(memberships.cardCode, input.code));
  if (!row) return { kind: "not_found" };
  const { holder, tier, people } = row;
  const status = statusOf(row, input.now);
  if (!hasBenefits(status))
    return { kind: "not_valid", holder, tier, state: status.state === "lapsed" ? "lapsed" : "ended" };
  const [event] = await db
    .select({ membersEvent: events.membersEvent })
    .from(events)
    .where(eq(events.id, input.eventId));
  if (!event?.membersEvent || !row.admits) return { kind: "not_for_entry", holder, tier };

  const [admitted] = await db
    .insert(memberCheckIns)
    .values({ membershipId: row.id, eventId: input.eventId, checkedInAt: input.now, checkedInBy: input.staffId })
    .onConflictDoNothing()
    .returning({ id: memberCheckIns.id });
  if (admitted) return { kind: "checked_in", holder, tier, people };
  const [first] = await db
    .select({ at: memberCheckIns.checkedInAt, by: users.name })
    .from(memberCheckIns)
    .leftJoin(users, eq(users.id, memberCheckIns.checkedInBy))
    .where(and(eq(memberCheckIns.membershipId, row.id), eq(memberCheckIns.eventId, input.eventId)));
  return {
    kind: "already_checked_in",
    holder,
    tier,
    people,
    checkedInAt: first?.at ?? input.now,
    checkedInBy: first?.by ?? null,
  };
}
