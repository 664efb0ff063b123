import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { testAccounts } from "~/features/accounts/members.test-support";
import { requestContext, runtimeContext, userContext } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { Runtime } from "~/server/runtime.server";
import { testSessionUser } from "~/server/session-user.test-support";
import { routeTestSite } from "~/web/route-calls.test-support";
import { auditLog, users } from "../../../db/schema";
import { action, loader } from "./members";

// The role checks of the members page, called as React Router calls them.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "members" });
const { accounts } = site;

const contextFor = (who: keyof typeof accounts | null) => site.contextFor(who);

function setRoleRequest(userId: string, role: string) {
  const url = new URL("http://localhost/admin/members?q=the");
  const request = new Request(url, { method: "POST", body: new URLSearchParams({ intent: "set-role", userId, role }) });
  return { request, url, params: {}, context: contextFor(null), unstable_pattern: "/admin/members" };
}

async function statusOf(promise: Promise<unknown>) {
  try {
    await promise;
    return "no error";
  } catch (thrown) {
    if (thrown instanceof Response) return `${thrown.status} ${thrown.headers.get("Location")}`;
    return (thrown as { init?: { status?: number } }).init?.status;
  }
}

describe("/admin/members", () => {
  it("is for admins only: organizers and members get 403, visitors go to sign in", async () => {
    const args = setRoleRequest(accounts.member.id, "organizer");
    for (const who of ["organizer", "member"] as const) {
      expect(await statusOf(action({ ...args, context: contextFor(who) } as never))).toBe(403);
      expect(await statusOf(loader({ ...args, context: contextFor(who) } as never))).toBe(403);
    }
    expect(await statusOf(action(args as never))).toBe("302 /login?redirectTo=%2Fadmin%2Fmembers%3Fq%3Dthe");

    const [member] = await database()
      .db.select({ role: users.role })
      .from(users)
      .where(eq(users.id, accounts.member.id));
    expect(member?.role).toBe("member");
    expect(await database().db.select().from(auditLog)).toEqual([]);
  });

  it("lets an admin change a role, back to the same list, with the change in the audit log", async () => {
    const args = setRoleRequest(accounts.member.id, "organizer");
    const response = (await action({ ...args, context: contextFor("admin") } as never)) as Response;

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
    const own = await action({ ...setRoleRequest(accounts.admin.id, "member"), context: contextFor("admin") } as never);
    const unknown = await action({
      ...setRoleRequest(accounts.organizer.id, "owner"),
      context: contextFor("admin"),
    } as never);

    for (const answer of [own, unknown]) expect((answer as { init?: { status?: number } }).init?.status).toBe(400);
    const [admin] = await database().db.select({ role: users.role }).from(users).where(eq(users.id, accounts.admin.id));
    expect(admin?.role).toBe("admin");
  });

  it("asks an admin who signed in more than 5 minutes ago for their password before changing a role", async () => {
    const { db } = database();
    const { auth, env: authEnv, createMember } = testAccounts(db);
    const admin = await createMember({ name: "Stale Admin", email: "stale-admin@club.example" });
    await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.id));
    const context = new RouterContextProvider();
    context.set(runtimeContext, { db, env: authEnv, auth } as Runtime);
    context.set(requestContext, { ip: "10.9.0.1", nonce: "n", requestId: "r" });
    const signedInAt = new Date(Date.now() - 10 * 60 * 1000);
    context.set(userContext, testSessionUser({ id: admin.id, email: admin.email, role: "admin", signedInAt }));
    const url = new URL("http://localhost/admin/members");
    const send = (fields: Record<string, string>) => {
      const body = new URLSearchParams({
        intent: "set-role",
        userId: accounts.member.id,
        role: "organizer",
        ...fields,
      });
      const request = new Request(url, { method: "POST", headers: admin.headers, body });
      return action({ request, url, params: {}, context, unstable_pattern: "/admin/members" } as never) as Promise<
        { data: unknown; init: { status: number } } | Response
      >;
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
