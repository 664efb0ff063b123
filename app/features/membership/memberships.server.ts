import { and, eq, isNull } from "drizzle-orm";
import { formatTicketCode, newTicketCode, signTicketCode } from "~/features/tickets/ticket-codes.server";
import type { Db } from "~/server/db/client.server";
import type { MembershipBilling } from "~/server/payments/payments.server";
import { memberships, membershipTiers, orderItems } from "../../../db/schema";
import {
  COOLING_OFF_DAYS,
  coolingOffRefund,
  hasBenefits,
  joiningPeriod,
  type MembershipStatus,
  membershipStatus,
  renewalPeriod,
} from "./membership-rules";
import { PROVIDER_UNREACHABLE, renewalOnProvider } from "./renewals.server";
import { type Tier, termOf } from "./tier-places.server";

export type MembershipRow = typeof memberships.$inferSelect;

/** What a membership is at `now`: stopped early (a refund) counts as ended from that moment. */
export function statusOf(row: Pick<MembershipRow, "paidUntil" | "renews" | "endedAt">, now: Date): MembershipStatus {
  if (row.endedAt && row.endedAt.getTime() <= now.getTime()) return { state: "ended", since: row.endedAt };
  return membershipStatus({ paidUntil: row.paidUntil, renews: row.renews }, now);
}

/** The member's membership row with its tier, or null when they have never joined. */
export async function membershipOf(db: Db, userId: string, options: { lock?: boolean } = {}) {
  const select = db
    .select({ membership: memberships, tier: membershipTiers })
    .from(memberships)
    .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
    .where(eq(memberships.userId, userId));
  const [row] = options.lock ? await select.for("no key update", { of: memberships }) : await select;
  return row ?? null;
}

/** Whether the member holds a membership with its benefits at `now`, and its tier. */
export async function currentMembership(db: Db, userId: string, now: Date) {
  const row = await membershipOf(db, userId);
  if (!row) return null;
  const status = statusOf(row.membership, now);
  return hasBenefits(status) ? { ...row, status } : null;
}

/**
 * The buyer as member prices see them at `now` (docs/membership.md, "Member prices…"): whether they
 * hold a membership with its benefits, and its tier; a visitor (no `userId`) is neither.
 */
export async function membershipBuyer(db: Db, userId: string | null | undefined, now: Date) {
  const current = userId ? await currentMembership(db, userId, now) : null;
  return { member: current !== null, tierId: current?.tier.id ?? null };
}

/**
 * Issues a paid membership: the member's row starts afresh on `tier` for the period joining at
 * `paidAt` buys (a member joins again once an earlier membership has ended, so the old row is
 * reused), with a new card code. Renewal is on when the tier renews by itself.
 */
export async function issueMembership(
  tx: Db,
  input: {
    userId: string;
    tier: Tier;
    people: string[];
    orderId: string | null;
    paidPence: number;
    paidAt: Date;
    paymentMethod?: string | null;
  },
) {
  const { tier, paidAt } = input;
  const period = joiningPeriod(termOf(tier), paidAt, tier.timeZone);
  const values = {
    tierId: tier.id,
    people: input.people,
    joinedAt: paidAt,
    periodStartsAt: period.startsAt,
    paidUntil: period.endsAt,
    orderId: input.orderId,
    paidPence: input.paidPence,
    paidAt,
    renews: tier.autoRenews,
    endedAt: null,
    endReason: null,
    cardCode: newTicketCode(),
    paymentMethod: input.paymentMethod ?? null,
    remindedFor: null,
    remindedAt: null,
    renewalFailures: 0,
    retryAt: null,
    lapseNoticeFor: null,
    updatedAt: paidAt,
  };
  const [row] = await tx
    .insert(memberships)
    .values({ userId: input.userId, ...values })
    .onConflictDoUpdate({ target: memberships.userId, set: values })
    .returning({ id: memberships.id });
  return row;
}

/**
 * A paid renewal: the membership runs on for the period after the one paid for, from the order
 * that paid it, and the renewal's failed tries are forgotten.
 */
export async function extendMembership(
  tx: Db,
  input: { membershipId: string; tier: Tier; orderId: string; paidPence: number; paidAt: Date },
) {
  const [row] = await tx.select().from(memberships).where(eq(memberships.id, input.membershipId)).for("no key update");
  if (!row) throw new Error(`Membership ${input.membershipId} went away while its renewal was paid`);
  const next = renewalPeriod(
    termOf(input.tier),
    { startsAt: row.periodStartsAt, endsAt: row.paidUntil },
    input.tier.timeZone,
    row.joinedAt,
  );
  await tx
    .update(memberships)
    .set({
      periodStartsAt: next.startsAt,
      paidUntil: next.endsAt,
      orderId: input.orderId,
      paidPence: input.paidPence,
      paidAt: input.paidAt,
      renewalFailures: 0,
      retryAt: null,
      updatedAt: input.paidAt,
    })
    .where(eq(memberships.id, row.id));
}

/**
 * Turns the member's renewal off (the membership runs to the end of what was paid for) or back
 * on. Only a membership with its benefits, of a tier that renews by itself, can be changed.
 */
export async function setRenewal(
  db: Db,
  input: { userId: string; renews: boolean; now: Date; billing?: MembershipBilling },
) {
  const row = await membershipOf(db, input.userId);
  if (!row) return { ok: false as const, message: "You do not have a membership" };
  if (!hasBenefits(statusOf(row.membership, input.now))) {
    return { ok: false as const, message: "Your membership has ended: join again from the membership page" };
  }
  if (input.renews && !row.tier.autoRenews) {
    return { ok: false as const, message: `${row.tier.name} does not renew by itself` };
  }
  if (!(await renewalOnProvider(input.billing, row.membership.paymentMethod, input.renews))) {
    return { ok: false as const, message: PROVIDER_UNREACHABLE };
  }
  await db
    .update(memberships)
    .set({ renews: input.renews, updatedAt: input.now })
    .where(and(eq(memberships.id, row.membership.id), isNull(memberships.endedAt)));
  return { ok: true as const, tier: row.tier.name, paidUntil: row.membership.paidUntil };
}

/** The member's membership as their account shows it: the tier, where it stands, the dates. */
export type MyMembership = {
  tierName: string;
  people: string[];
  state: MembershipStatus["state"];
  /** The end of what was paid for. */
  paidUntil: Date;
  renews: boolean;
  /** Whether the tier renews by itself, so renewal can be turned back on. */
  tierRenews: boolean;
  /** The price the next renewal charges, when it renews. */
  renewalPrice: number | null;
  /** Until when benefits go on while a renewal's payment is awaited. */
  lapsesAt: Date | null;
  endedEarly: boolean;
};

export async function myMembership(db: Db, userId: string, now: Date): Promise<MyMembership | null> {
  const row = await membershipOf(db, userId);
  if (!row) return null;
  const { membership, tier } = row;
  const status = statusOf(membership, now);
  return {
    tierName: tier.name,
    people: membership.people,
    state: status.state,
    paidUntil: membership.paidUntil,
    renews: membership.renews && !membership.endedAt,
    tierRenews: tier.autoRenews,
    renewalPrice: membership.renews && hasBenefits(status) ? tier.price : null,
    lapsesAt: status.state === "grace" ? status.lapsesAt : null,
    endedEarly: membership.endedAt !== null,
  };
}

/** What the member card shows: who, which tier, until when, and the signed code its QR carries. */
export async function memberCard(db: Db, input: { userId: string; now: Date; secret: string }) {
  const row = await membershipOf(db, input.userId);
  if (!row) return null;
  const status = statusOf(row.membership, input.now);
  return {
    membershipId: row.membership.id,
    tierName: row.tier.name,
    people: row.membership.people,
    state: status.state,
    valid: hasBenefits(status),
    validUntil: status.state === "grace" ? status.lapsesAt : row.membership.paidUntil,
    memberSince: row.membership.joinedAt,
    admitsToMembersEvents: row.tier.admitsToMembersEvents,
    qrPayload: hasBenefits(status) ? signTicketCode(row.membership.cardCode, input.secret) : null,
    /** What a steward may type at the gate when the QR will not scan. */
    code: hasBenefits(status) ? formatTicketCode(row.membership.cardCode) : null,
  };
}

/**
 * What cancelling now within the cooling-off days would give back: the order line that paid for
 * the current period (joining or a renewal), the refund and the value of the days already had.
 * Null when the cooling-off days are over, the membership has ended, or that payment was refunded.
 */
export async function coolingOffQuote(db: Db, userId: string, now: Date) {
  const row = await membershipOf(db, userId);
  const orderId = row?.membership.orderId;
  if (!row || !orderId || row.membership.endedAt) return null;
  const { membership } = row;
  const quote = coolingOffRefund(
    {
      paidPence: membership.paidPence,
      paidAt: membership.paidAt,
      period: { startsAt: membership.periodStartsAt, endsAt: membership.paidUntil },
    },
    now,
  );
  if (!quote) return null;
  const [line] = await db
    .select({ id: orderItems.id, refundedQuantity: orderItems.refundedQuantity })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.kind, "membership")));
  if (!line || line.refundedQuantity > 0) return null;
  return {
    orderId,
    orderItemId: line.id,
    ...quote,
    until: new Date(membership.paidAt.getTime() + COOLING_OFF_DAYS * 24 * 60 * 60 * 1000),
  };
}
