import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { testAccounts } from "~/features/accounts/members.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { type TestRole, testSessionUser } from "~/server/session-user.test-support";
import { routeArgs, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { auditLog, users } from "../../../db/schema";
import { action, loader } from "./members";

// The role checks of the members page, called as React Router calls them.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "members" });
const { accounts } = site;

/** The form that gives `userId` this role, sent by `who` from a search of the list. */
const setRoleRequest = (who: TestRole | null, userId: string, role: string) =>
  site.args(who, { path: "/admin/members?q=the", body: { intent: "set-role", userId, role } });

describe("/admin/members", () => {
  it("is for admins only: organizers and members get 403, visitors go to sign in", async () => {
    for (const who of ["organizer", "member"] as const) {
      expect(await statusOf(action(setRoleRequest(who, accounts.member.id, "organizer")))).toBe(403);
      expect(await statusOf(loader(setRoleRequest(who, accounts.member.id, "organizer")))).toBe(403);
    }
    expect(await statusOf(action(setRoleRequest(null, accounts.member.id, "organizer")))).toBe(
      "302 /login?redirectTo=%2Fadmin%2Fmembers%3Fq%3Dthe",
    );

    const [member] = await database()
      .db.select({ role: users.role })
      .from(users)
      .where(eq(users.id, accounts.member.id));
    expect(member?.role).toBe("member");
    expect(await database().db.select().from(auditLog)).toEqual([]);
  });

  it("lets an admin change a role, back to the same list, with the change in the audit log", async () => {
    const response = (await action(setRoleRequest("admin", accounts.member.id, "organizer"))) as Response;

    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/members?q=the");
    expect(response.headers.get("Set-Cookie")).toMatch(/pitlane\.flash=/);
    const entries = await database()
      .db.select({
        actorId: auditLog.actorId,
        subjectId: auditLog.subjectId,
        ip: auditLog.ip,
        details: auditLog.details,
      })
      .from(auditLog);
    expect(entries).toEqual([
      {
        actorId: accounts.admin.id,
        subjectId: accounts.member.id,
        ip: "192.0.2.10",
        details: { from: "member", to: "organizer" },
      },
    ]);
  });

  it("refuses an admin's change to their own role, and a role that does not exist", async () => {
    const own = await action(setRoleRequest("admin", accounts.admin.id, "member"));
    const unknown = await action(setRoleRequest("admin", accounts.organizer.id, "owner"));

    for (const answer of [own, unknown]) expect((answer as { init?: { status?: number } }).init?.status).toBe(400);
    const [admin] = await database().db.select({ role: users.role }).from(users).where(eq(users.id, accounts.admin.id));
    expect(admin?.role).toBe("admin");
  });

  it("asks an admin who signed in more than 5 minutes ago for their password before changing a role", async () => {
    const { db } = database();
    const { auth, env: authEnv, createMember } = testAccounts(db);
    const admin = await createMember({ name: "Stale Admin", email: "stale-admin@club.example" });
    await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.id));
    const signedInAt = new Date(Date.now() - 10 * 60 * 1000);
    const who = testSessionUser({ id: admin.id, email: admin.email, role: "admin", signedInAt });
    const send = (fields: Record<string, string>) => {
      const body = { intent: "set-role", userId: accounts.member.id, role: "organizer", ...fields };
      const args = routeArgs({
        db,
        env: authEnv,
        runtime: { auth },
        who,
        path: "/admin/members",
        body,
        headers: admin.headers,
      });
      return action(args) as Promise<{ data: unknown; init: { status: number } } | Response>;
    };
    const roleNow = async () =>
      (await db.select({ role: users.role }).from(users).where(eq(users.id, accounts.member.id)))[0]?.role;

    await db.update(users).set({ role: "member" }).where(eq(users.id, accounts.member.id));
    const asked = await send({});
    expect(asked).toMatchObject({
      data: { error: null, confirm: { userId: accounts.member.id, role: "organizer", problem: null } },
    });
    const wrong = await send({ password: "not the password" });
    expect(wrong).toMatchObject({
      init: { status: 400 },
      data: { confirm: { problem: "The password is not right." } },
    });
    expect(await roleNow()).toBe("member");

    const right = (await send({ password: admin.password })) as Response;
    expect(right.status).toBe(302);
    expect(await roleNow()).toBe("organizer");
  });
});

describe("/admin/members: a member's date of birth", () => {
  const setBirthRequest = (who: TestRole | null, fields: Record<string, string>) =>
    site.args(who, {
      path: "/admin/members?q=the",
      body: { intent: "set-date-of-birth", userId: accounts.member.id, ...fields },
    });
  const birthAudits = () =>
    database()
      .db.select({ actorId: auditLog.actorId, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.action, "user.set-date-of-birth"));

  it("is changed by an admin only, with a reason, in the audit log", async () => {
    const fields = { dateOfBirth: "1984-02-03", reason: "Passport seen at the clubhouse" };
    for (const who of ["organizer", "member"] as const) {
      expect(await statusOf(action(setBirthRequest(who, fields)))).toBe(403);
    }
    expect(await statusOf(action(setBirthRequest(null, fields)))).toMatch(/^302 \/login/);
    expect(await statusOf(action(setBirthRequest("admin", { dateOfBirth: "1984-02-03", reason: "" })))).toBe(400);
    expect(await birthAudits()).toEqual([]);

    const response = (await action(setBirthRequest("admin", fields))) as Response;
    expect(response.status).toBe(302);
    const [member] = await database()
      .db.select({ dateOfBirth: users.dateOfBirth })
      .from(users)
      .where(eq(users.id, accounts.member.id));
    expect(member?.dateOfBirth).toBe("1984-02-03");
    expect(await birthAudits()).toMatchObject([
      { actorId: accounts.admin.id, details: { to: "1984-02-03", reason: "Passport seen at the clubhouse" } },
    ]);
  });
});
