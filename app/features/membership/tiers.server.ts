import { and, asc, eq, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import { changesBetween } from "~/features/audit/changes";
import type { PriceTier } from "~/features/forms/fields";
import { gone, type NotFound, refuse } from "~/features/forms/refusal";
import { numberedSlug, slugify } from "~/features/forms/slug";
import type { Db } from "~/server/db/client.server";
import { memberships, membershipTiers } from "../../../db/schema";
import { membershipDate } from "./membership-labels";
import { joiningPeriod, joiningPrice } from "./membership-rules";
import type { TierInput } from "./schemas";
import { holdingPlace, placesLeft, readTierPlaces, type Tier, termOf } from "./tier-places.server";

const SLUG_MAX = 60;

/** What the membership page shows of a tier on sale: its terms, today's joining price and places left. */
export type PublicTier = {
  id: string;
  name: string;
  summary: string;
  benefits: string[];
  price: number;
  joiningPrice: number;
  /** The last day a membership joined today is paid for, in the tier's time zone. */
  joiningUntil: string;
  period: Tier["period"];
  rollingMonths: number | null;
  seasonStartMonth: number | null;
  seasonStartDay: number | null;
  people: number;
  placesLeft: number | null;
  autoRenews: boolean;
  admitsToMembersEvents: boolean;
};

/** The tiers on sale, in the organizer's order, with what joining costs at `now`. */
export async function tiersOnSale(db: Db, now: Date): Promise<PublicTier[]> {
  const rows = await db
    .select({ id: membershipTiers.id })
    .from(membershipTiers)
    .where(eq(membershipTiers.onSale, true))
    .orderBy(asc(membershipTiers.position), asc(membershipTiers.createdAt));
  const places = await readTierPlaces(
    db,
    rows.map((row) => row.id),
    now,
    { lock: false },
  );
  return rows.flatMap(({ id }) => {
    const tier = places.tiers.get(id);
    if (!tier) return [];
    return [
      {
        id: tier.id,
        name: tier.name,
        summary: tier.summary,
        benefits: tier.benefits
          .split("\n")
          .map((benefit) => benefit.trim())
          .filter(Boolean),
        price: tier.price,
        joiningPrice: joiningPrice(termOf(tier), tier.price, now, tier.timeZone),
        joiningUntil: membershipDate(
          new Date(joiningPeriod(termOf(tier), now, tier.timeZone).endsAt.getTime() - 1),
          tier.timeZone,
        ),
        period: tier.period,
        rollingMonths: tier.rollingMonths,
        seasonStartMonth: tier.seasonStartMonth,
        seasonStartDay: tier.seasonStartDay,
        people: tier.people,
        placesLeft: placesLeft(tier),
        autoRenews: tier.autoRenews,
        admitsToMembersEvents: tier.admitsToMembersEvents,
      },
    ];
  });
}

/** Every tier, on sale or not, for the forms that set what each tier's members pay, in the tiers' order. */
export async function tiersForPrices(db: Db): Promise<PriceTier[]> {
  return db
    .select({ id: membershipTiers.id, slug: membershipTiers.slug, name: membershipTiers.name })
    .from(membershipTiers)
    .orderBy(asc(membershipTiers.position), asc(membershipTiers.createdAt));
}

/** Every tier for the organizer, with how many members hold each now. */
export async function tiersForStaff(db: Db, now: Date) {
  return db
    .select({
      id: membershipTiers.id,
      name: membershipTiers.name,
      price: membershipTiers.price,
      period: membershipTiers.period,
      rollingMonths: membershipTiers.rollingMonths,
      seasonStartMonth: membershipTiers.seasonStartMonth,
      seasonStartDay: membershipTiers.seasonStartDay,
      capacity: membershipTiers.capacity,
      onSale: membershipTiers.onSale,
      members: sql<number>`(select count(*)::int from ${memberships} where ${and(
        eq(memberships.tierId, membershipTiers.id),
        holdingPlace(now),
      )})`.mapWith(Number),
    })
    .from(membershipTiers)
    .orderBy(asc(membershipTiers.position), asc(membershipTiers.createdAt));
}

export async function tierById(db: Db, tierId: string) {
  const [tier] = await db.select().from(membershipTiers).where(eq(membershipTiers.id, tierId));
  return tier ?? null;
}

/** The columns a saved form writes: the terms of the other period kind are cleared. */
function tierValues(input: TierInput, timeZone: string) {
  const season = input.period === "season";
  return {
    name: input.name,
    summary: input.summary,
    benefits: input.benefits,
    price: input.price,
    period: input.period,
    rollingMonths: season ? null : input.rollingMonths,
    seasonStartMonth: season ? input.seasonStartMonth : null,
    seasonStartDay: season ? input.seasonStartDay : null,
    lateJoinMonth: season ? input.lateJoinMonth : null,
    lateJoinDay: season ? input.lateJoinDay : null,
    lateJoinPrice: season ? input.lateJoinPrice : null,
    timeZone,
    people: input.people,
    capacity: input.capacity,
    autoRenews: input.autoRenews,
    admitsToMembersEvents: input.admitsToMembersEvents,
    onSale: input.onSale,
  };
}

/** The fields whose old and new values the audit log keeps (the rest it names only). */
const AUDITED_VALUES = new Set(["price", "lateJoinPrice", "capacity", "onSale", "autoRenews", "people"]);

type Actor = { actorId: string; now: Date; timeZone: string };

/** Adds a tier (at the end of the list), with an address made from its name. */
export async function createTier(db: Db, input: TierInput, actor: Actor) {
  return db.transaction(async (tx) => {
    const base = slugify(input.name, { max: SLUG_MAX, fallback: "tier" });
    let slug = base;
    for (let n = 2; ; n++) {
      const [taken] = await tx
        .select({ id: membershipTiers.id })
        .from(membershipTiers)
        .where(eq(membershipTiers.slug, slug));
      if (!taken) break;
      slug = numberedSlug(base, n, SLUG_MAX);
    }
    const [{ position }] = (await tx
      .select({ position: sql<number>`coalesce(max(${membershipTiers.position}) + 1, 0)::int`.mapWith(Number) })
      .from(membershipTiers)) as [{ position: number }];
    const [tier] = await tx
      .insert(membershipTiers)
      .values({ ...tierValues(input, actor.timeZone), slug, position, createdAt: actor.now, updatedAt: actor.now })
      .returning({ id: membershipTiers.id });
    await recordAudit(tx as unknown as Db, {
      actorId: actor.actorId,
      action: "membership_tier.create",
      subjectType: "membership_tier",
      subjectId: tier!.id,
      details: { name: input.name, price: input.price },
    });
    return { ok: true as const, id: tier!.id };
  });
}

/**
 * Saves a tier's terms. Members already holding it keep the period they paid for; new prices and
 * terms apply to joining and to renewals from now on. A cap below the members holding the tier
 * is refused.
 */
export async function updateTier(db: Db, tierId: string, input: TierInput, actor: Actor) {
  return db.transaction(async (tx) => {
    const places = await readTierPlaces(tx, [tierId], actor.now, { lock: true });
    const tier = places.tiers.get(tierId);
    if (!tier) return gone("This membership tier") as NotFound;
    if (input.capacity !== null && input.capacity < tier.members) {
      return refuse("capacity", `${tier.members} members hold this tier now: the cap cannot be lower`);
    }
    const values = tierValues(input, tier.timeZone);
    const changes = changesBetween(tier, values, AUDITED_VALUES);
    await tx
      .update(membershipTiers)
      .set({ ...values, updatedAt: actor.now })
      .where(eq(membershipTiers.id, tierId));
    await recordAudit(tx as unknown as Db, {
      actorId: actor.actorId,
      action: "membership_tier.update",
      subjectType: "membership_tier",
      subjectId: tierId,
      details: { changes },
    });
    return { ok: true as const, id: tierId };
  });
}
