import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestTier } from "~/features/membership/tiers.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { answerOf, type FormFields, routeTestSite } from "~/web/route-calls.test-support";
import { auditLog, memberships } from "../../../../db/schema";
import { action, loader } from "./import";

// /admin/membership/import, called as React Router calls it, by a visitor and each role.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "membership-import" });
const PATH = "/admin/membership/import";

const file = (text: string) => new File([text], "members.csv", { type: "text/csv" });

describe("/admin/membership/import", () => {
  it("sends a visitor to sign in and refuses a member, on the page and both forms", async () => {
    const upload = { intent: "check", file: file("email,tier,valid until\n") };
    const sent = { intent: "import", text: "email,tier,valid until\n", digest: "x" };
    for (const call of [
      () => loader(site.args(null, { path: PATH })),
      () => action(site.args(null, { path: PATH, body: upload })),
      () => action(site.args(null, { path: PATH, body: sent })),
    ]) {
      expect(await answerOf(call)).toMatchObject({
        status: 302,
        location: "/login?redirectTo=%2Fadmin%2Fmembership%2Fimport",
      });
    }
    for (const call of [
      () => loader(site.args("member", { path: PATH })),
      () => action(site.args("member", { path: PATH, body: upload })),
      () => action(site.args("member", { path: PATH, body: sent })),
    ]) {
      expect((await answerOf(call)).status).toBe(403);
    }
  });

  it("lets organizers and admins check a file (nothing written), then import it", async () => {
    const { db } = database();
    await createTestTier(db, { name: "Route import tier" });
    for (const who of ["organizer", "admin"] as const) {
      const page = await answerOf(() => loader(site.args(who, { path: PATH })));
      expect(page.status, who).toBe(200);
      expect(page.data!.tiers, who).toContain("Route import tier");

      const member = await testAccount(db, "member", `Imported by ${who}`);
      const csv = `Email,Name,Tier,Valid until\r\n${member.email},Someone,Route import tier,2099-12-31\r\n`;
      const tooFar = await answerOf(() =>
        action(site.args(who, { path: PATH, body: { intent: "check", file: file(csv) } })),
      );
      expect(tooFar.status, who).toBe(200);
      expect(tooFar.data!.preview, who).toMatchObject({ totals: { refused: 1, importable: 0 } });

      const good = csv.replace("2099-12-31", "2030-12-31");
      const checked = await answerOf(() =>
        action(site.args(who, { path: PATH, body: { intent: "check", file: file(good) } })),
      );
      const preview = checked.data!.preview as { text: string; digest: string; totals: { join: number } };
      expect(preview.totals.join, who).toBe(1);
      expect(await db.select().from(memberships).where(eq(memberships.userId, member.id)), who).toEqual([]);

      const imported = await answerOf(() =>
        action(
          site.args(who, {
            path: PATH,
            body: { intent: "import", text: preview.text, digest: preview.digest },
          }),
        ),
      );
      expect(imported, who).toMatchObject({ status: 302, location: "/admin/membership/members" });
      expect(imported.headers?.get("Set-Cookie"), who).toMatch(/pitlane\.flash=/);
      const [row] = await db.select().from(memberships).where(eq(memberships.userId, member.id));
      expect(row?.paidUntil, who).toEqual(new Date("2031-01-01T00:00:00Z"));
      const audit = await db.select().from(auditLog).where(eq(auditLog.actorId, site.accounts[who].id));
      expect(
        audit.map((entry) => entry.action),
        who,
      ).toEqual(["membership.import"]);
    }
  });

  it("answers bad input with a message and a 400, never a 500", async () => {
    const bodies: FormFields[] = [
      { intent: "check" },
      { intent: "check", file: file("") },
      { intent: "check", file: file("name\nJo") },
      { intent: "check", file: file('email,tier,valid until\n"never closed') },
      { intent: "import", text: "email,tier,valid until\na@club.example,x,2030-01-01", digest: "made-up" },
      { intent: "import" },
      { intent: "delete-everything" },
      {},
    ];
    for (const body of bodies) {
      const answer = await answerOf(() => action(site.args("organizer", { path: PATH, body })));
      expect(answer.status, JSON.stringify(Object.keys(body))).toBe(400);
      expect(typeof answer.data!.error).toBe("string");
    }
  });
});
