import { and, eq } from "drizzle-orm";
import { addMonths } from "~/features/membership/membership-rules";
import { newTicketCode } from "~/features/tickets/ticket-codes.server";
import type { Db } from "~/server/db/client.server";
import type { Seeder } from "~/server/seed.server";
import { events, memberships, membershipTiers, ticketTypes, users, vouchers } from "../../db/schema";

const TIME_ZONE = "Europe/London";
/** The demo event whose gate lets member cards in. */
const MEMBERS_EVENT = "castle-combe-night-meet";
const PRESALE_EVENT = "oulton-park-novice-track-evening";
/** The demo event with a hidden crew ticket that a code unlocks. */
const CREW_EVENT = "silverstone-festival-of-speed";
const DAY = 24 * 60 * 60 * 1000;

/**
 * Two tiers to try joining, the demo member holding the family tier, which renews next month (so
 * its reminder and renewal can be tried on the test clock), and a members' event where member
 * cards are let in at the gate. Two codes: money off joining, and a crew code that unlocks a
 * hidden free ticket and keeps its places.
 */
const DEMO_TIERS = [
  {
    slug: "annual",
    name: "Annual",
    summary: "One member for the club year, January to December.",
    benefits: [
      "Member card: entry to members' meets",
      "Member prices on tickets and club merch",
      "Tickets to big shows before general sale",
      "A vote at the annual general meeting",
    ].join("\n"),
    price: 3500,
    period: "season" as const,
    seasonStartMonth: 1,
    seasonStartDay: 1,
    lateJoinMonth: 7,
    lateJoinDay: 1,
    people: 1,
  },
  {
    slug: "family",
    name: "Family",
    summary: "Two adults and up to three children, a year from the day you join.",
    benefits: [
      "Everything in Annual, for everyone it names",
      "One member card that admits the family",
      "Free entry for the children at club meets",
    ].join("\n"),
    price: 6000,
    period: "rolling" as const,
    rollingMonths: 12,
    people: 5,
    capacity: 100,
  },
];

export const demoMembershipSeeder: Seeder = {
  name: "demo-membership",
  demo: true,
  async run(db: Db) {
    const now = new Date();
    const ids = new Map<string, string>();
    for (const [position, tier] of DEMO_TIERS.entries()) {
      const [row] = await db
        .insert(membershipTiers)
        .values({ ...tier, timeZone: TIME_ZONE, onSale: true, position })
        .returning({ id: membershipTiers.id });
      ids.set(tier.slug, row!.id);
    }
    // The members' event: member cards let in at the gate, its tickets for members alone.
    const [meet] = await db
      .update(events)
      .set({ membersEvent: true })
      .where(eq(events.slug, MEMBERS_EVENT))
      .returning({ id: events.id });
    if (meet) await db.update(ticketTypes).set({ membersOnly: true }).where(eq(ticketTypes.eventId, meet.id));
    // A member price (lower still for the family tier) and a members' presale: the novice
    // evening's places go to members a week early.
    const [novice] = await db.select({ id: events.id }).from(events).where(eq(events.slug, PRESALE_EVENT));
    const familyTier = ids.get("family");
    if (novice) {
      await db
        .update(ticketTypes)
        .set({
          memberPrice: 12900,
          tierPrices: familyTier ? { [familyTier]: 11900 } : {},
          memberSalesStartAt: new Date(now.getTime() - 2 * DAY),
          salesStartAt: new Date(now.getTime() + 5 * DAY),
        })
        .where(and(eq(ticketTypes.eventId, novice.id), eq(ticketTypes.name, "Novice driver with instructor")));
    }
    await seedVouchers(db);
    const [member] = await db.select({ id: users.id }).from(users).where(eq(users.email, "member@pitlane.test"));
    const familyId = ids.get("family");
    if (!member || !familyId) return;
    const joinedAt = addMonths(now, -11, TIME_ZONE);
    await db.insert(memberships).values({
      userId: member.id,
      tierId: familyId,
      people: ["Alex Cole", "Robin Cole"],
      joinedAt,
      periodStartsAt: joinedAt,
      paidUntil: addMonths(joinedAt, 12, TIME_ZONE),
      paidPence: 6000,
      paidAt: joinedAt,
      renews: true,
      cardCode: newTicketCode(),
    });
  },
};

/**
 * WELCOME10 takes 10% off joining, once per member; CREW2027 unlocks the festival's hidden crew
 * ticket at no charge and keeps its 12 places for the crew until they are used.
 */
async function seedVouchers(db: Db) {
  await db.insert(vouchers).values({
    code: "WELCOME10",
    label: "Joining offer",
    effect: "percent_off",
    value: 10,
    kinds: ["membership"],
    maxUsesPerMember: 1,
  });
  const [festival] = await db.select({ id: events.id }).from(events).where(eq(events.slug, CREW_EVENT));
  if (!festival) return;
  const [crew] = await db
    .insert(ticketTypes)
    .values({
      eventId: festival.id,
      name: "Crew",
      description: "Marshals, volunteers and club crew. Bring your crew code.",
      price: 2500,
      capacity: 12,
      maxPerOrder: 1,
      hidden: true,
      sortOrder: 99,
    })
    .returning({ id: ticketTypes.id });
  await db.insert(vouchers).values({
    code: "CREW2027",
    label: "Festival crew",
    effect: "set_price",
    value: 0,
    ticketTypeIds: [crew!.id],
    maxUses: 12,
    maxUsesPerMember: 1,
    holdsPlaces: true,
  });
}
