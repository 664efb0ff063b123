import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { auditLog, memberships } from "../../../db/schema";
import { changeMembership, membershipForStaff } from "./member-changes.server";
import { issueMembership } from "./memberships.server";
import { createTestTier } from "./tiers.test-support";

// Staff changing one member's tier or valid-until day, or ending the membership, with a reason
// kept in the audit log.
const database = freshDatabasePerFile();
const NOW = new Date("2027-03-10T12:00:00Z");
const LONDON = "Europe/London";

async function memberOn(tierName: string, options: { capacity?: number; paidAt?: Date } = {}) {
  const { db } = database();
  const staff = await testAccount(db, "organizer");
  const tier = await createTestTier(db, { name: tierName, capacity: options.capacity ?? null });
  const member = await testAccount(db, "member", `Member of ${tierName}`);
  const paidAt = options.paidAt ?? NOW;
  await issueMembership(db, { userId: member.id, tier, people: [], orderId: null, paidPence: 3000, paidAt });
  const [row] = await db.select().from(memberships).where(eq(memberships.userId, member.id));
  return { db, staff, tier, member, membership: row! };
}

const auditOf = (membershipId: string) =>
  database().db.select().from(auditLog).where(eq(auditLog.subjectId, membershipId));

describe("changing a member's tier", () => {
  it("moves the membership to another tier, keeps its dates, and records before, after and why", async () => {
    const { db, staff, tier, membership } = await memberOn("Change from");
    const family = await createTestTier(db, { name: "Change to family", autoRenews: false });
    const page = await membershipForStaff(db, membership.id, NOW, LONDON);
    expect(page).toMatchObject({ tierName: "Change from", state: "active", validUntil: "2028-03-10" });

    const outcome = await changeMembership(db, {
      membershipId: membership.id,
      actorId: staff.id,
      now: NOW,
      timeZone: LONDON,
      change: { intent: "change", tierId: family.id, validUntil: page!.validUntil, reason: "Moved at the AGM" },
    });
    expect(outcome).toEqual({
      ok: true,
      message: "Member of Change from's membership is saved: Change to family, paid until 10 March 2028.",
    });
    const [after] = await db.select().from(memberships).where(eq(memberships.id, membership.id));
    // The day shown and sent back unchanged keeps the exact time paid for; the new tier does not renew by itself.
    expect(after).toMatchObject({ tierId: family.id, paidUntil: membership.paidUntil, renews: false });
    expect(await auditOf(membership.id)).toEqual([
      expect.objectContaining({
        actorId: staff.id,
        action: "membership.change",
        subjectType: "membership",
        details: {
          intent: "change",
          reason: "Moved at the AGM",
          userId: membership.userId,
          before: {
            tierId: tier.id,
            tier: "Change from",
            paidUntil: membership.paidUntil.toISOString(),
            renews: true,
            endedAt: null,
          },
          after: {
            tierId: family.id,
            tier: "Change to family",
            paidUntil: membership.paidUntil.toISOString(),
            renews: false,
            endedAt: null,
          },
        },
      }),
    ]);
  });

  it("refuses a capped tier that is full, and changes nothing", async () => {
    const { db, staff, membership } = await memberOn("Full from");
    const full = await createTestTier(db, { name: "Full tier", capacity: 1 });
    const holder = await testAccount(db, "member");
    await issueMembership(db, { userId: holder.id, tier: full, people: [], orderId: null, paidPence: 0, paidAt: NOW });

    const outcome = await changeMembership(db, {
      membershipId: membership.id,
      actorId: staff.id,
      now: NOW,
      timeZone: LONDON,
      change: { intent: "change", tierId: full.id, validUntil: "2028-03-10", reason: "Upgrade" },
    });
    expect(outcome).toEqual({ ok: false, field: "tierId", message: "Full tier is full: every place is taken" });
    const [after] = await db.select().from(memberships).where(eq(memberships.id, membership.id));
    expect(after?.tierId).toBe(membership.tierId);
    expect(await auditOf(membership.id)).toEqual([]);
  });

  it("lets a member holding the last place of a capped tier have their dates changed", async () => {
    const { db, staff, membership } = await memberOn("Capped own", { capacity: 1 });
    const outcome = await changeMembership(db, {
      membershipId: membership.id,
      actorId: staff.id,
      now: NOW,
      timeZone: LONDON,
      change: { intent: "change", tierId: membership.tierId, validUntil: "2028-12-31", reason: "Paid cash" },
    });
    expect(outcome.ok).toBe(true);
  });
});

describe("changing a member's valid-until day", () => {
  it("runs the membership to the end of the day, and forgets failed renewal tries", async () => {
    const { db, staff, membership } = await memberOn("Dates tier");
    await db.update(memberships).set({ renewalFailures: 2 }).where(eq(memberships.id, membership.id));
    const outcome = await changeMembership(db, {
      membershipId: membership.id,
      actorId: staff.id,
      now: NOW,
      timeZone: LONDON,
      change: { intent: "change", tierId: membership.tierId, validUntil: "2028-07-31", reason: "Paid by cheque" },
    });
    expect(outcome.ok).toBe(true);
    const [after] = await db.select().from(memberships).where(eq(memberships.id, membership.id));
    expect(after).toMatchObject({ paidUntil: new Date("2028-07-31T23:00:00Z"), renewalFailures: 0, retryAt: null });
  });

  it("refuses a day before the period paid for began, and a change that changes nothing", async () => {
    const { db, staff, membership } = await memberOn("Refused dates");
    const change = (validUntil: string) =>
      changeMembership(db, {
        membershipId: membership.id,
        actorId: staff.id,
        now: NOW,
        timeZone: LONDON,
        change: { intent: "change", tierId: membership.tierId, validUntil, reason: "Typo" },
      });
    expect(await change("2027-03-09")).toEqual({
      ok: false,
      field: "validUntil",
      message: "Choose a day from 10 March 2027 on, when the period paid for began, or end the membership now",
    });
    expect(await change("2028-03-10")).toEqual({
      ok: false,
      field: "",
      message: "Nothing to change: choose another tier or valid-until day",
    });
    expect(await change("2028-02-30")).toMatchObject({ ok: false, field: "validUntil" });
  });

  it("needs a place to bring a lapsed membership back on a full capped tier", async () => {
    const longAgo = new Date("2025-01-01T12:00:00Z");
    const { db, staff, tier, membership } = await memberOn("Lapsed capped", { capacity: 1, paidAt: longAgo });
    const taker = await testAccount(db, "member");
    await issueMembership(db, { userId: taker.id, tier, people: [], orderId: null, paidPence: 0, paidAt: NOW });
    const outcome = await changeMembership(db, {
      membershipId: membership.id,
      actorId: staff.id,
      now: NOW,
      timeZone: LONDON,
      change: { intent: "change", tierId: tier.id, validUntil: "2027-12-31", reason: "Back" },
    });
    expect(outcome).toMatchObject({
      ok: false,
      field: "tierId",
      message: "Lapsed capped is full: every place is taken",
    });
  });
});

describe("ending a membership now", () => {
  it("stops it at once with renewal off, audited, and then it cannot be changed", async () => {
    const { db, staff, membership } = await memberOn("End tier");
    const end = await changeMembership(db, {
      membershipId: membership.id,
      actorId: staff.id,
      now: NOW,
      timeZone: LONDON,
      change: { intent: "end", reason: "Asked to leave" },
    });
    expect(end).toEqual({ ok: true, message: "Member of End tier's membership has ended." });
    const [after] = await db.select().from(memberships).where(eq(memberships.id, membership.id));
    expect(after).toMatchObject({ endedAt: NOW, endReason: "ended by staff", renews: false });
    expect((await membershipForStaff(db, membership.id, NOW, LONDON))?.state).toBe("ended");
    const [entry] = await auditOf(membership.id);
    expect(entry?.details).toMatchObject({
      intent: "end",
      reason: "Asked to leave",
      after: { endedAt: NOW.toISOString(), renews: false },
    });

    const again = await changeMembership(db, {
      membershipId: membership.id,
      actorId: staff.id,
      now: NOW,
      timeZone: LONDON,
      change: { intent: "change", tierId: membership.tierId, validUntil: "2029-01-01", reason: "Oops" },
    });
    expect(again).toMatchObject({ ok: false, field: "", message: expect.stringContaining("cannot be changed") });
  });

  it("answers not found for a membership that does not exist", async () => {
    const { db } = database();
    const staff = await testAccount(db, "organizer");
    const outcome = await changeMembership(db, {
      membershipId: "00000000-0000-4000-8000-000000000000",
      actorId: staff.id,
      now: NOW,
      timeZone: LONDON,
      change: { intent: "end", reason: "Gone" },
    });
    expect(outcome).toMatchObject({ ok: false, notFound: true });
  });
});
