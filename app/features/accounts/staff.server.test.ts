import { verify } from "@node-rs/argon2";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { accounts, auditLog, sessions, twoFactors, users } from "../../../db/schema";
import { testAccounts } from "./members.test-support";
import { signInWithPassword } from "./sign-in.server";
import {
  changeRole,
  createStaffAccount,
  listStaff,
  passwordProblem,
  resetTwoFactor,
  StaffAccountError,
  setRole,
} from "./staff.server";
import { authenticatorCode } from "./totp.test-support";
import { confirmSetup, startSetup } from "./two-factor.server";

const database = freshDatabasePerFile();

async function credentialOf(userId: string) {
  const [row] = await database()
    .db.select({ providerId: accounts.providerId, accountId: accounts.accountId, password: accounts.password })
    .from(accounts)
    .where(eq(accounts.userId, userId));
  return row;
}

async function auditFor(userId: string) {
  return database()
    .db.select({ actorId: auditLog.actorId, action: auditLog.action, details: auditLog.details })
    .from(auditLog)
    .where(eq(auditLog.subjectId, userId))
    .orderBy(auditLog.createdAt);
}

describe("passwordProblem", () => {
  it("accepts 10 to 128 characters that are not a common password", async () => {
    expect(await passwordProblem("gearbox-lantern-42")).toBeNull();
    expect(await passwordProblem("short")).toMatch(/at least 10/);
    expect(await passwordProblem("x".repeat(129))).toMatch(/at most 128/);
    expect(await passwordProblem("1234567890")).toMatch(/attackers try first/);
  });
});

describe("createStaffAccount", () => {
  it("creates a verified account whose argon2id hash checks the given password", async () => {
    const result = await createStaffAccount(database().db, {
      email: "Chief@Club.Example",
      role: "admin",
      name: "Chief Marshal",
      password: "chequered-flag-at-dusk",
    });

    expect(result.kind).toBe("created");
    expect(result.kind === "created" && result.generatedPassword).toBeFalsy();
    const [user] = await database()
      .db.select({ email: users.email, name: users.name, role: users.role, emailVerified: users.emailVerified })
      .from(users)
      .where(eq(users.id, result.user.id));
    expect(user).toEqual({ email: "chief@club.example", name: "Chief Marshal", role: "admin", emailVerified: true });
    const credential = await credentialOf(result.user.id);
    expect(credential?.providerId).toBe("credential");
    expect(credential?.accountId).toBe(result.user.id);
    expect(credential?.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verify(credential!.password!, "chequered-flag-at-dusk")).toBe(true);
    expect(await auditFor(result.user.id)).toEqual([
      { actorId: null, action: "account.create", details: { role: "admin" } },
    ]);
  });

  it("generates a strong password when none is given and returns it once", async () => {
    const result = await createStaffAccount(database().db, { email: "steward@club.example", role: "organizer" });

    expect(result.kind).toBe("created");
    const generated = result.kind === "created" ? result.generatedPassword : undefined;
    expect(generated).toHaveLength(24);
    expect(await passwordProblem(generated!)).toBeNull();
    expect(result.user.name).toBe("steward");
    const credential = await credentialOf(result.user.id);
    expect(await verify(credential!.password!, generated!)).toBe(true);
  });

  it("refuses a short or common password and an address that is not one", async () => {
    const db = database().db;
    await expect(
      createStaffAccount(db, { email: "a@club.example", role: "admin", password: "short1" }),
    ).rejects.toThrow(/at least 10/);
    await expect(
      createStaffAccount(db, { email: "b@club.example", role: "admin", password: "password123" }),
    ).rejects.toMatchObject({ code: "invalid-password" });
    await expect(createStaffAccount(db, { email: "not-an-address", role: "admin" })).rejects.toBeInstanceOf(
      StaffAccountError,
    );
    const rows = await db.select({ id: users.id }).from(users).where(eq(users.email, "a@club.example"));
    expect(rows).toEqual([]);
  });

  it("gives an existing account the role and keeps its password", async () => {
    const db = database().db;
    const first = await createStaffAccount(db, {
      email: "promoted@club.example",
      role: "member",
      password: "original-password-kept",
    });
    const again = await createStaffAccount(db, {
      email: "PROMOTED@club.example",
      role: "organizer",
      password: "ignored-new-password",
    });

    expect(again).toMatchObject({ kind: "updated", previousRole: "member", user: { id: first.user.id } });
    const credential = await credentialOf(first.user.id);
    expect(await verify(credential!.password!, "original-password-kept")).toBe(true);
    expect((await auditFor(first.user.id)).map((entry) => entry.action)).toEqual(["account.create", "user.set-role"]);
  });
});

describe("setRole and changeRole", () => {
  it("changes the role and records who changed it from what to what", async () => {
    const db = database().db;
    const admin = await createStaffAccount(db, { email: "owner@club.example", role: "admin" });
    const member = await createStaffAccount(db, { email: "driver@club.example", role: "member" });

    const result = await changeRole(db, { userId: member.user.id, role: "organizer", actorId: admin.user.id });

    expect(result).toEqual({ name: "driver", previousRole: "member", changed: true });
    expect((await auditFor(member.user.id)).at(-1)).toEqual({
      actorId: admin.user.id,
      action: "user.set-role",
      details: { from: "member", to: "organizer" },
    });
  });

  it("records nothing when the role does not change", async () => {
    const db = database().db;
    await createStaffAccount(db, { email: "same@club.example", role: "organizer" });
    const result = await setRole(db, { email: "same@club.example", role: "organizer" });

    expect(result.changed).toBe(false);
    expect((await auditFor(result.user.id)).map((entry) => entry.action)).toEqual(["account.create"]);
  });

  it("says when there is no account for the address", async () => {
    await expect(setRole(database().db, { email: "nobody@club.example", role: "admin" })).rejects.toMatchObject({
      code: "not-found",
    });
  });
});

describe("listStaff", () => {
  it("lists organizers and admins, admins first, and no members", async () => {
    const staff = await listStaff(database().db);
    const emails = staff.map((member) => `${member.role} ${member.email}`);

    expect(emails).toEqual([
      "admin chief@club.example",
      "admin owner@club.example",
      "organizer driver@club.example",
      "organizer promoted@club.example",
      "organizer same@club.example",
      "organizer steward@club.example",
    ]);
  });
});

describe("resetTwoFactor", () => {
  it("turns two-factor sign-in off, ends every session and records it", async () => {
    const { db } = database();
    const accounts = testAccounts(db);
    const member = await accounts.createMember({ name: "Lost Phone", email: "lost-phone@example.com" });
    const call = { ...accounts.callFor(member.headers), ip: "10.4.0.1" };
    const setup = await startSetup(call, member.id, member.password);
    if (!setup.ok) throw new Error(setup.message);
    await confirmSetup(call, member.id, authenticatorCode(setup.totpURI));

    await resetTwoFactor(db, { email: "Lost-Phone@example.com" });
    const [row] = await db.select().from(users).where(eq(users.id, member.id));
    expect(row?.twoFactorEnabled).toBe(false);
    expect(await db.select().from(twoFactors).where(eq(twoFactors.userId, member.id))).toEqual([]);
    expect(await db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
    expect((await auditFor(member.id)).map((entry) => entry.action)).toEqual(["two-factor.reset"]);
    const signIn = await signInWithPassword(
      { auth: accounts.auth, db, headers: new Headers(), ip: "10.4.0.2" },
      { email: member.email, password: member.password },
    );
    expect(signIn).toMatchObject({ ok: true, needsCode: false });
    await expect(resetTwoFactor(db, { email: "nobody@example.com" })).rejects.toThrow(
      "There is no account for nobody@example.com",
    );
  });
});
