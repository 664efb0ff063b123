import { and, asc, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { heldQuantity, liveHolds } from "~/features/commerce/live-holds.server";
import type { Db } from "~/server/db/client.server";
import { holds, memberships, membershipTiers } from "../../../db/schema";
import { GRACE_DAYS, type MembershipTerm } from "./membership-rules";

export type Tier = typeof membershipTiers.$inferSelect;

/** A tier's terms as the membership rules read them. */
export function termOf(tier: Tier): MembershipTerm {
  if (tier.period === "rolling") return { kind: "rolling", months: tier.rollingMonths ?? 12 };
  return {
    kind: "season",
    startsOn: { month: tier.seasonStartMonth ?? 1, day: tier.seasonStartDay ?? 1 },
    lateJoin:
      tier.lateJoinMonth !== null && tier.lateJoinDay !== null
        ? {
            from: { month: tier.lateJoinMonth, day: tier.lateJoinDay },
            price: tier.lateJoinPrice === null ? "pro-rata" : { pence: tier.lateJoinPrice },
          }
        : null,
  };
}

/**
 * The memberships that hold one of their tier's places at `now`: not stopped early, and paid for
 * now, or waiting for a renewal's payment within the grace days (the membership rules'
 * `hasBenefits`, as SQL).
 */
export function holdingPlace(now: Date) {
  return and(
    isNull(memberships.endedAt),
    or(
      gt(memberships.paidUntil, now),
      and(
        eq(memberships.renews, true),
        sql`${memberships.paidUntil} + make_interval(days => ${GRACE_DAYS}) > ${now.toISOString()}::timestamptz`,
      ),
    ),
  );
}

/** A tier with its places taken: members holding one, and others' live holds. */
export type TierPlacesLine = Tier & { members: number; held: number };

/** Places left on a tier with a cap (never below zero); null for a tier without one. */
export function placesLeft(line: Pick<TierPlacesLine, "capacity" | "members" | "held">) {
  return line.capacity === null ? null : Math.max(0, line.capacity - line.members - line.held);
}

export type TierPlaces = {
  tiers: Map<string, TierPlacesLine>;
  /** Counts a place as taken by the order being made, so its next line sees it gone. */
  take(tierId: string, places: number): void;
};

/**
 * Reads these tiers with their places taken. With `lock: true` the tier rows are locked (`FOR NO
 * KEY UPDATE`, sorted by id) for a decision that must not race: checkout, settlement and refunds.
 * This is the one function that reads a tier's places; every path that could put a tier over its
 * cap goes through it under the lock. In the one lock order every money path uses (ADR 0007)
 * tiers come after merch variants and before orders. `exceptUserId` leaves out that member's own
 * unpaid order's holds (checkout replaces it), as for every kind.
 */
export async function readTierPlaces(
  db: Db,
  tierIds: readonly string[],
  now: Date,
  options: { lock: boolean; exceptUserId?: string },
): Promise<TierPlaces> {
  const ids = [...new Set(tierIds)].sort();
  const tiers = new Map<string, TierPlacesLine>();
  if (ids.length > 0) {
    const select = db.select().from(membershipTiers).where(inArray(membershipTiers.id, ids));
    const rows = options.lock ? await select.orderBy(asc(membershipTiers.id)).for("no key update") : await select;
    const members = await db
      .select({ tierId: memberships.tierId, count: sql<number>`count(*)::int`.mapWith(Number) })
      .from(memberships)
      .where(and(inArray(memberships.tierId, ids), holdingPlace(now)))
      .groupBy(memberships.tierId);
    const held = await db
      .select({ tierId: holds.tierId, held: heldQuantity })
      .from(holds)
      .where(and(inArray(holds.tierId, ids), liveHolds(db, now, options)))
      .groupBy(holds.tierId);
    for (const row of rows) {
      tiers.set(row.id, {
        ...row,
        members: members.find((count) => count.tierId === row.id)?.count ?? 0,
        held: held.find((count) => count.tierId === row.id)?.held ?? 0,
      });
    }
  }
  return {
    tiers,
    take(tierId, places) {
      const line = tiers.get(tierId);
      if (line) line.held += places;
    },
  };
}
