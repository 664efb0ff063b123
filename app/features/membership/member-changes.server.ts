import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "~/features/audit/audit.server";
import { line } from "~/features/forms/fields";
import { gone, type NotFound, type Refusal, refuse } from "~/features/forms/refusal";
import type { Db } from "~/server/db/client.server";
import { memberships, membershipTiers, users } from "../../../db/schema";
import { endOfLocalDay, lastLocalDay } from "./member-import";
import { membershipDate } from "./membership-labels";
import { hasBenefits, membershipStatus } from "./membership-rules";
import { statusOf } from "./memberships.server";
import { movedPaymentMethod } from "./renewals.server";
import { placesLeft, readTierPlaces } from "./tier-places.server";

/**
 * Staff changing one member's membership (docs/membership.md, "Staff"): its tier, the day it is
 * valid until, or ending it now. Every change needs a reason and is in the audit log
 * ("membership.change", with the membership before and after).
 */

const reason = line(300, "Say why you are making this change");

/** The member page's two forms: a new tier or valid-until day, or ending the membership now. */
export const memberChangeSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("change"),
    tierId: z.uuid({ error: "Choose a tier from the list" }),
    validUntil: z
      .string({ error: "Enter the last day it is valid, like 2027-12-31" })
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter the last day it is valid, like 2027-12-31"),
    reason,
  }),
  z.object({ intent: z.literal("end"), reason }),
]);

type MembershipChange = z.output<typeof memberChangeSchema>;

/** One membership as its staff page shows it: who, the tier, where it stands and its dates. */
export async function membershipForStaff(db: Db, membershipId: string, now: Date, timeZone: string) {
  const [row] = await db
    .select({
      membership: memberships,
      name: users.name,
      email: users.email,
      tierName: membershipTiers.name,
      tierRenews: membershipTiers.autoRenews,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
    .where(eq(memberships.id, membershipId));
  if (!row) return null;
  const { membership } = row;
  const renews = membership.renews && row.tierRenews && !membership.endedAt;
  return {
    id: membership.id,
    name: row.name,
    email: row.email,
    tierId: membership.tierId,
    tierName: row.tierName,
    state: statusOf(membership, now).state,
    people: membership.people,
    joinedAt: membership.joinedAt,
    paidUntil: membership.paidUntil,
    /** The last day it is valid, as the change form takes it. */
    validUntil: lastLocalDay(membership.paidUntil, timeZone),
    renewsOn: renews ? membership.paidUntil : null,
    endedAt: membership.endedAt,
    endReason: membership.endReason,
  };
}

type Outcome = { ok: true; message: string } | Refusal | NotFound;

const CHANGED_MEANWHILE = "This membership changed at the same moment: reload the page and try again";

/**
 * Changes the membership's tier or valid-until day, or ends it now, under the tiers' locks (the
 * old tier's and the new one's) then the membership's, like checkout. A change that gives the
 * membership a place it did not hold on a capped tier (another tier, or a lapsed membership
 * made valid again) needs a place left. The day shown in the form, sent back unchanged, keeps
 * the exact paid-until time. A membership stopped early (a refund, or ended here) is not changed:
 * the member joins again.
 */
export async function changeMembership(
  db: Db,
  input: { membershipId: string; actorId: string; now: Date; timeZone: string; change: MembershipChange },
): Promise<Outcome> {
  const { change, now, timeZone } = input;
  const date = (instant: Date) => membershipDate(instant, timeZone);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const [peek] = await tx
      .select({ tierId: memberships.tierId })
      .from(memberships)
      .where(eq(memberships.id, input.membershipId));
    if (!peek) return gone("This membership");
    const tierIds = change.intent === "change" ? [peek.tierId, change.tierId] : [peek.tierId];
    const places = await readTierPlaces(tx, tierIds, now, { lock: true });
    const [row] = await tx
      .select({ membership: memberships, name: users.name })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.id, input.membershipId))
      .for("no key update", { of: memberships });
    if (!row) return gone("This membership");
    const { membership } = row;
    const currentTier = places.tiers.get(membership.tierId);
    if (!currentTier) return refuse("", CHANGED_MEANWHILE);
    if (membership.endedAt) {
      return refuse(
        "",
        `This membership was ended on ${date(membership.endedAt)}${membership.endReason ? ` (${membership.endReason})` : ""}: it cannot be changed. The member can join again from the membership page.`,
      );
    }
    const before = {
      tierId: membership.tierId,
      tier: currentTier.name,
      paidUntil: membership.paidUntil.toISOString(),
      renews: membership.renews,
      endedAt: null as string | null,
    };
    const audit = (after: typeof before) =>
      recordAudit(tx, {
        actorId: input.actorId,
        action: "membership.change",
        subjectType: "membership",
        subjectId: membership.id,
        details: { intent: change.intent, reason: change.reason, userId: membership.userId, before, after },
      });

    if (change.intent === "end") {
      await tx
        .update(memberships)
        .set({ endedAt: now, endReason: "ended by staff", renews: false, updatedAt: now })
        .where(eq(memberships.id, membership.id));
      await audit({ ...before, renews: false, endedAt: now.toISOString() });
      return { ok: true as const, message: `${row.name}'s membership has ended.` };
    }

    const tier = places.tiers.get(change.tierId);
    if (!tier) return refuse("tierId", "Choose a tier from the list");
    const unchangedDay = change.validUntil === lastLocalDay(membership.paidUntil, timeZone);
    const paidUntil = unchangedDay ? membership.paidUntil : endOfLocalDay(change.validUntil, timeZone);
    if (!paidUntil) return refuse("validUntil", "Enter a real date, like 2027-12-31");
    if (paidUntil.getTime() <= membership.periodStartsAt.getTime()) {
      return refuse(
        "validUntil",
        `Choose a day from ${date(membership.periodStartsAt)} on, when the period paid for began, or end the membership now`,
      );
    }
    const sameDate = paidUntil.getTime() === membership.paidUntil.getTime();
    if (tier.id === membership.tierId && sameDate) {
      return refuse("", "Nothing to change: choose another tier or valid-until day");
    }
    const renews = membership.renews && tier.autoRenews;
    const holdsAfter = hasBenefits(membershipStatus({ paidUntil, renews }, now));
    const heldBefore = tier.id === membership.tierId && hasBenefits(statusOf(membership, now));
    const left = placesLeft(tier);
    if (holdsAfter && !heldBefore && left !== null && left < 1) {
      return refuse("tierId", `${tier.name} is full: every place is taken`);
    }
    await tx
      .update(memberships)
      .set({
        tierId: tier.id,
        paidUntil,
        renews,
        updatedAt: now,
        // The failed tries were at the renewal due on the old date, and a Stripe subscription
        // charging on it is made again for the new one.
        ...(sameDate
          ? {}
          : {
              renewalFailures: 0,
              retryAt: null,
              paymentMethod: movedPaymentMethod(sql`${memberships.paymentMethod}`),
            }),
      })
      .where(eq(memberships.id, membership.id));
    await audit({ tierId: tier.id, tier: tier.name, paidUntil: paidUntil.toISOString(), renews, endedAt: null });
    return {
      ok: true as const,
      message: `${row.name}'s membership is saved: ${tier.name}, paid until ${date(paidUntil)}.`,
    };
  });
}
