import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { insertAccount, type StaffMember } from "~/features/accounts/staff.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { auditLog, users } from "../../../db/schema";
import { changeMemberDateOfBirth, changeMemberRole, listMembers, MEMBERS_PER_PAGE } from "./members.server";

const database = freshDatabasePerFile();
let admin: StaffMember;
let driver: StaffMember;

beforeAll(async () => {
  const db = database().db;
  admin = await insertAccount(db, {
    email: "owner@club.example",
    name: "Olivia Owner",
    role: "admin",
    passwordHash: "x",
  });
  driver = await insertAccount(db, {
    email: "dan@club.example",
    name: "Dan Driver",
    role: "member",
    passwordHash: "x",
  });
  await insertAccount(db, { email: "percent@club.example", name: "100% Petrol", role: "member", passwordHash: "x" });
  // 30 more, each a minute older than the last, so the order is known.
  const start = Date.parse("2026-01-01T12:00:00Z");
  for (let index = 0; index < 30; index++) {
    const member = await insertAccount(db, {
      email: `member${String(index).padStart(2, "0")}@club.example`,
      name: `Member ${index}`,
      role: index % 10 === 0 ? "organizer" : "member",
      passwordHash: "x",
    });
    await db
      .update(users)
      .set({ createdAt: new Date(start - index * 60_000) })
      .where(eq(users.id, member.id));
  }
});

describe("listMembers", () => {
  it("pages through every account, newest first, 25 a page", async () => {
    const db = database().db;
    const first = await listMembers(db, { query: "", role: "all", page: 1 });
    const second = await listMembers(db, { query: "", role: "all", page: 2 });

    expect(first.total).toBe(33);
    expect(first.pageCount).toBe(2);
    expect(first.members).toHaveLength(MEMBERS_PER_PAGE);
    expect(second.members).toHaveLength(8);
    expect(second.members.at(-1)?.email).toBe("member29@club.example");
    const ids = new Set([...first.members, ...second.members].map((member) => member.id));
    expect(ids.size).toBe(33);
  });

  it("finds members by part of their name or email, in any case", async () => {
    const db = database().db;
    const byName = await listMembers(db, { query: "dRiVeR", role: "all", page: 1 });
    const byEmail = await listMembers(db, { query: "owner@", role: "all", page: 1 });

    expect(byName.members.map((member) => member.name)).toEqual(["Dan Driver"]);
    expect(byEmail.members.map((member) => member.name)).toEqual(["Olivia Owner"]);
  });

  it("treats % and _ in the search as plain characters", async () => {
    const db = database().db;
    expect((await listMembers(db, { query: "100%", role: "all", page: 1 })).total).toBe(1);
    expect((await listMembers(db, { query: "%", role: "all", page: 1 })).total).toBe(1);
    expect((await listMembers(db, { query: "_", role: "all", page: 1 })).total).toBe(0);
  });

  it("filters by role, staff meaning organizers and admins", async () => {
    const db = database().db;
    const staff = await listMembers(db, { query: "", role: "staff", page: 1 });
    const admins = await listMembers(db, { query: "", role: "admin", page: 1 });

    expect(staff.total).toBe(4);
    expect(admins.members.map((member) => member.email)).toEqual(["owner@club.example"]);
  });

  it("answers an empty page past the end", async () => {
    const page = await listMembers(database().db, { query: "", role: "all", page: 9 });
    expect(page).toMatchObject({ members: [], total: 33, pageCount: 2, page: 9 });
  });
});

describe("changeMemberRole", () => {
  /** The admin gives `userId` this role, from the address the audit log should show. */
  const setRole = (userId: string, role: "member" | "organizer" | "admin") =>
    changeMemberRole(database().db, { actorId: admin.id, userId, role, ip: "192.0.2.7" });

  it("changes the role and records the admin's change in the audit log", async () => {
    const db = database().db;
    const outcome = await setRole(driver.id, "organizer");

    expect(outcome).toEqual({ ok: true, name: "Dan Driver", role: "organizer", changed: true });
    const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, driver.id));
    expect(row?.role).toBe("organizer");
    const entries = await db
      .select({
        actorId: auditLog.actorId,
        action: auditLog.action,
        subjectType: auditLog.subjectType,
        subjectId: auditLog.subjectId,
        ip: auditLog.ip,
        details: auditLog.details,
      })
      .from(auditLog)
      .where(eq(auditLog.subjectId, driver.id));
    expect(entries).toEqual([
      {
        actorId: admin.id,
        action: "user.set-role",
        subjectType: "user",
        subjectId: driver.id,
        ip: "192.0.2.7",
        details: { from: "member", to: "organizer" },
      },
    ]);
  });

  it("refuses an admin's change to their own role and records nothing", async () => {
    const db = database().db;
    const outcome = await setRole(admin.id, "member");

    expect(outcome).toEqual({ ok: false, reason: "own-role" });
    const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, admin.id));
    expect(row?.role).toBe("admin");
    expect(await db.select().from(auditLog).where(eq(auditLog.subjectId, admin.id))).toEqual([]);
  });

  it("says when the account no longer exists", async () => {
    const outcome = await setRole("gone", "organizer");
    expect(outcome).toEqual({ ok: false, reason: "not-found" });
  });
});

describe("changeMemberDateOfBirth", () => {
  it("lets an admin correct a member's date of birth, with a reason, in the audit log", async () => {
    const db = database().db;
    const outcome = await changeMemberDateOfBirth(db, {
      actorId: admin.id,
      userId: driver.id,
      dateOfBirth: "1985-03-04",
      reason: "Passport seen",
      ip: "192.0.2.7",
    });
    expect(outcome).toEqual({ ok: true, name: "Dan Driver" });
    const [row] = await db.select({ dateOfBirth: users.dateOfBirth }).from(users).where(eq(users.id, driver.id));
    expect(row?.dateOfBirth).toBe("1985-03-04");
    const entries = await db
      .select({ actorId: auditLog.actorId, action: auditLog.action, ip: auditLog.ip, details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, driver.id), eq(auditLog.action, "user.set-date-of-birth")));
    expect(entries).toEqual([
      {
        actorId: admin.id,
        action: "user.set-date-of-birth",
        ip: "192.0.2.7",
        details: { from: null, to: "1985-03-04", reason: "Passport seen" },
      },
    ]);
    expect(
      await changeMemberDateOfBirth(db, {
        actorId: admin.id,
        userId: "gone",
        dateOfBirth: "1985-03-04",
        reason: "Passport seen",
        ip: "192.0.2.7",
      }),
    ).toEqual({ ok: false, reason: "not-found" });
  });
});
