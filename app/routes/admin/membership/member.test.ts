import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { issueMembership } from "~/features/membership/memberships.server";
import { createTestTier } from "~/features/membership/tiers.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { answerOf, fieldErrors, routeTestSite } from "~/web/route-calls.test-support";
import { auditLog, memberships } from "../../../../db/schema";
import { action, loader } from "./member";

// /admin/membership/members/:membershipId, called as React Router calls it, by a visitor and
// each role.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "membership-member" });

async function aMembership(tierName: string) {
  const { db } = database();
  const tier = await createTestTier(db, { name: tierName });
  const holder = await testAccount(db, "member", `Holder of ${tierName}`);
  await issueMembership(db, {
    userId: holder.id,
    tier,
    people: ["Kit"],
    orderId: null,
    paidPence: 3000,
    paidAt: new Date(),
  });
  const [row] = await db.select().from(memberships).where(eq(memberships.userId, holder.id));
  return { tier, membership: row!, path: `/admin/membership/members/${row!.id}`, params: { membershipId: row!.id } };
}

describe("/admin/membership/members/:membershipId", () => {
  it("sends a visitor to sign in and refuses a member, on the page and its forms", async () => {
    const { membership, path, params } = await aMembership("Route guarded");
    const change = { intent: "change", tierId: membership.tierId, validUntil: "2040-01-01", reason: "x" };
    const end = { intent: "end", reason: "x" };
    const login = `/login?redirectTo=${encodeURIComponent(path)}`;
    for (const call of [
      () => loader(site.args(null, { path, params })),
      () => action(site.args(null, { path, params, body: change })),
      () => action(site.args(null, { path, params, body: end })),
    ]) {
      expect(await answerOf(call)).toMatchObject({ status: 302, location: login });
    }
    for (const call of [
      () => loader(site.args("member", { path, params })),
      () => action(site.args("member", { path, params, body: change })),
      () => action(site.args("member", { path, params, body: end })),
    ]) {
      expect((await answerOf(call)).status).toBe(403);
    }
    const [after] = await database().db.select().from(memberships).where(eq(memberships.id, membership.id));
    expect(after).toMatchObject({ endedAt: null, paidUntil: membership.paidUntil });
  });

  it("shows organizers and admins the membership, and saves a change with its reason", async () => {
    const { db } = database();
    for (const who of ["organizer", "admin"] as const) {
      const { membership, path, params } = await aMembership(`Route ${who}`);
      const other = await createTestTier(db, { name: `Route ${who} family` });
      const page = await answerOf(() => loader(site.args(who, { path, params })));
      expect(page.status, who).toBe(200);
      expect(page.data!.membership, who).toMatchObject({
        name: `Holder of Route ${who}`,
        tierName: `Route ${who}`,
        state: "active",
        people: ["Kit"],
      });
      const validUntil = (page.data!.membership as { validUntil: string }).validUntil;

      const noReason = await action(
        site.args(who, { path, params, body: { intent: "change", tierId: other.id, validUntil } }),
      );
      expect(fieldErrors(noReason).reason, who).toBe("Say why you are making this change");

      const saved = await answerOf(() =>
        action(
          site.args(who, {
            path,
            params,
            body: { intent: "change", tierId: other.id, validUntil, reason: "Moved to family" },
          }),
        ),
      );
      expect(saved, who).toMatchObject({ status: 302, location: path });
      const ended = await answerOf(() =>
        action(site.args(who, { path, params, body: { intent: "end", reason: "Left the club" } })),
      );
      expect(ended, who).toMatchObject({ status: 302, location: path });
      const [after] = await db.select().from(memberships).where(eq(memberships.id, membership.id));
      expect(after, who).toMatchObject({ tierId: other.id, renews: false });
      expect(after?.endedAt, who).not.toBeNull();
      const audit = await db.select().from(auditLog).where(eq(auditLog.subjectId, membership.id));
      expect(
        audit.map((entry) => [entry.action, entry.actorId, (entry.details as { reason: string }).reason]),
        who,
      ).toEqual([
        ["membership.change", site.accounts[who].id, "Moved to family"],
        ["membership.change", site.accounts[who].id, "Left the club"],
      ]);
      const refused = await action(site.args(who, { path, params, body: { intent: "end", reason: "Again" } }));
      expect(fieldErrors(refused), who).toEqual({ "": expect.stringContaining("cannot be changed") });
    }
  });

  it("refuses a full tier with a message on the tier, and answers 404 for a membership that is not there", async () => {
    const { db } = database();
    const { path, params } = await aMembership("Route from");
    const full = await createTestTier(db, { name: "Route full", capacity: 0 });
    const refused = await action(
      site.args("organizer", {
        path,
        params,
        body: { intent: "change", tierId: full.id, validUntil: "2040-01-01", reason: "Upgrade" },
      }),
    );
    expect(fieldErrors(refused).tierId).toBe("Route full is full: every place is taken");
    for (const membershipId of ["nope", "00000000-0000-4000-8000-000000000000"]) {
      const missing = `/admin/membership/members/${membershipId}`;
      expect(
        (await answerOf(() => loader(site.args("organizer", { path: missing, params: { membershipId } })))).status,
      ).toBe(404);
      const gone = await answerOf(() =>
        action(site.args("admin", { path: missing, params: { membershipId }, body: { intent: "end", reason: "x" } })),
      );
      expect(gone.status).toBe(404);
    }
  });
});
