import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { memberships, orderItems, orders } from "../../../db/schema";
import { membersByMonth, membersChartHtml } from "./members-by-month.server";
import { issueMembership } from "./memberships.server";
import { createTestTier } from "./tiers.test-support";

// The overview's chart: joins, renewals and lapses in each of the last 12 months, by the
// club's calendar months.
const database = freshDatabasePerFile();
const NOW = new Date("2027-06-15T12:00:00Z");
const LONDON = "Europe/London";

async function member(values: Partial<typeof memberships.$inferInsert>) {
  const { db } = database();
  const tier = await createTestTier(db);
  const account = await testAccount(db, "member");
  const joinedAt = values.joinedAt ?? new Date("2020-01-01T12:00:00Z");
  await issueMembership(db, { userId: account.id, tier, people: [], orderId: null, paidPence: 0, paidAt: joinedAt });
  const [row] = await db
    .update(memberships)
    .set({ periodStartsAt: joinedAt, ...values })
    .where(eq(memberships.userId, account.id))
    .returning();
  return { account, tier, membership: row! };
}

async function renewal(paidAt: Date, options: { refunded?: boolean } = {}) {
  const { db } = database();
  const { account, tier, membership } = await member({});
  const [order] = await db
    .insert(orders)
    .values({
      userId: account.id,
      email: account.email,
      status: options.refunded ? "refunded" : "paid",
      currency: "GBP",
      subtotal: 3000,
      total: 3000,
      provider: "test",
      paidAt,
    })
    .returning();
  await db.insert(orderItems).values({
    orderId: order!.id,
    kind: "membership",
    tierId: tier.id,
    renewsMembershipId: membership.id,
    description: "Renewal",
    unitPrice: 3000,
    quantity: 1,
    refundedQuantity: options.refunded ? 1 : 0,
  });
}

describe("members by month", () => {
  it("is twelve empty months, oldest first, ending with this one, on a new site", async () => {
    const months = await membersByMonth(database().db, { now: NOW, timeZone: LONDON });
    expect(months.map((month) => month.month)).toEqual([
      "2026-07",
      "2026-08",
      "2026-09",
      "2026-10",
      "2026-11",
      "2026-12",
      "2027-01",
      "2027-02",
      "2027-03",
      "2027-04",
      "2027-05",
      "2027-06",
    ]);
    expect(months[0]).toEqual({ month: "2026-07", label: "Jul 2026", joins: 0, renewals: 0, lapses: 0 });
  });

  it("counts joins, paid renewals and benefits ending in the club's months", async () => {
    // Joins: 31 May 23:30 in London is already 1 June; one before the twelve months is left out.
    await member({ joinedAt: new Date("2027-05-31T23:30:00Z"), paidUntil: new Date("2028-05-31T23:30:00Z") });
    await member({ joinedAt: new Date("2027-01-10T12:00:00Z"), paidUntil: new Date("2028-01-10T12:00:00Z") });
    await member({ joinedAt: new Date("2026-06-10T12:00:00Z"), paidUntil: new Date("2027-12-10T12:00:00Z") });
    // Renewals: paid in March and April; one refunded in full is not counted.
    await renewal(new Date("2027-03-03T10:00:00Z"));
    await renewal(new Date("2027-04-20T10:00:00Z"));
    await renewal(new Date("2027-04-21T10:00:00Z"), { refunded: true });
    // Lapses: renewal off, ends at paid until (February); renewal left unpaid, ends 7 days
    // after paid until (28 March + 7 = 4 April); stopped early by a refund (May); in grace now
    // (not yet); renewing and paid on (never).
    const old = new Date("2026-01-01T12:00:00Z");
    await member({ joinedAt: old, renews: false, paidUntil: new Date("2027-02-14T12:00:00Z") });
    await member({ joinedAt: old, renews: true, paidUntil: new Date("2027-03-28T12:00:00Z") });
    await member({
      joinedAt: old,
      paidUntil: new Date("2027-09-01T12:00:00Z"),
      endedAt: new Date("2027-05-05T12:00:00Z"),
    });
    await member({ joinedAt: old, renews: true, paidUntil: new Date("2027-06-12T12:00:00Z") });

    const months = await membersByMonth(database().db, { now: NOW, timeZone: LONDON });
    const of = (key: string) => months.find((month) => month.month === key);
    expect(of("2027-06")).toMatchObject({ joins: 1, renewals: 0, lapses: 0 });
    expect(of("2027-05")).toMatchObject({ joins: 0, lapses: 1 });
    expect(of("2027-04")).toMatchObject({ renewals: 1, lapses: 1 });
    expect(of("2027-03")).toMatchObject({ renewals: 1, lapses: 0 });
    expect(of("2027-02")).toMatchObject({ lapses: 1 });
    expect(of("2027-01")).toMatchObject({ joins: 1 });
    const sum = (key: "joins" | "renewals" | "lapses") => months.reduce((total, month) => total + month[key], 0);
    // The test memberships made by `renewal` joined in 2020 and renew: they count nowhere.
    expect([sum("joins"), sum("renewals"), sum("lapses")]).toEqual([2, 2, 3]);

    const html = membersChartHtml(months);
    expect(html).toContain('role="img"');
    expect(html).toContain("Over the last 12 months: 2 joined, 2 renewed, 3 lapsed or ended.");
    expect(html).toContain("<table");
    expect(html).toContain('<th scope="row" class="py-1 pr-4 text-left font-normal">Apr 2027</th>');
    expect(html).not.toContain("<script");
  });
});
