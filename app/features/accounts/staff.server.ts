import { randomBytes, randomUUID } from "node:crypto";
import { hash } from "@node-rs/argon2";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import { ARGON2ID } from "~/server/auth/auth.server";
import type { Role } from "~/server/auth/session.server";
import type { Db } from "~/server/db/client.server";
import { accounts, sessions, twoFactors, users } from "../../../db/schema";
import { passwordProblem } from "./passwords.server";
import { emailField, nameField } from "./schemas";

// Staff accounts made outside the sign-up form: the first admin from the command line, the demo
// accounts, and role changes made by an admin. The rows are the ones Better Auth itself writes
// (a user and a "credential" account holding the argon2id hash), so these accounts sign in
// through the ordinary /login form.

export const ROLES = ["member", "organizer", "admin"] as const satisfies readonly Role[];

export class StaffAccountError extends Error {
  constructor(
    readonly code: "invalid-email" | "invalid-name" | "invalid-password" | "not-found",
    message: string,
  ) {
    super(message);
    this.name = "StaffAccountError";
  }
}

export type StaffMember = { id: string; email: string; name: string; role: Role };

export { passwordProblem };

/** 24 characters from 144 random bits: shown once, then only its hash is kept. */
function generatePassword() {
  return randomBytes(18).toString("base64url");
}

export function hashPassword(password: string) {
  return hash(password, ARGON2ID);
}

function parseEmail(email: string) {
  const parsed = emailField.safeParse(email);
  if (!parsed.success) throw new StaffAccountError("invalid-email", `"${email}" is not an email address`);
  return parsed.data;
}

async function findByEmail(db: Db, email: string) {
  const [user] = await db
    .select({ id: users.id, email: users.email, name: users.name, role: users.role })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  return user ? { ...user, role: user.role as Role } : undefined;
}

export type NewAccount = {
  email: string;
  name: string;
  role: Role;
  passwordHash: string;
  /** Onboarding fields, for accounts that should look finished (the demo members). */
  profile?: { handle: string; town: string };
};

/** Inserts a verified account with its password, as Better Auth's admin "create user" would. */
export async function insertAccount(db: Db, account: NewAccount): Promise<StaffMember> {
  const id = randomUUID();
  const now = new Date();
  await db.insert(users).values({
    id,
    email: account.email,
    name: account.name,
    role: account.role,
    emailVerified: true,
    termsAcceptedAt: now,
    ...(account.profile ? { handle: account.profile.handle, town: account.profile.town, onboardedAt: now } : {}),
  });
  await db.insert(accounts).values({
    id: randomUUID(),
    userId: id,
    accountId: id,
    providerId: "credential",
    password: account.passwordHash,
  });
  return { id, email: account.email, name: account.name, role: account.role };
}

export type StaffAccountResult =
  | {
      kind: "created";
      user: StaffMember /** Set when no password was given: show it once. */;
      generatedPassword?: string;
    }
  | { kind: "updated"; user: StaffMember; previousRole: Role };

/**
 * Creates a verified account with `role`, or gives an existing account that role (its password
 * and everything else stay as they are). Without a password, a strong one is generated.
 */
export async function createStaffAccount(
  db: Db,
  input: { email: string; role: Role; name?: string; password?: string; actorId?: string | null },
): Promise<StaffAccountResult> {
  const email = parseEmail(input.email);
  const existing = await findByEmail(db, email);
  if (existing) {
    const { previousRole } = await changeRole(db, { userId: existing.id, role: input.role, actorId: input.actorId });
    return { kind: "updated", user: { ...existing, role: input.role }, previousRole };
  }

  const name = nameField.safeParse(input.name ?? email.split("@")[0]);
  if (!name.success) throw new StaffAccountError("invalid-name", name.error.issues[0]?.message ?? "Invalid name");
  if (input.password !== undefined) {
    const problem = passwordProblem(input.password);
    if (problem) throw new StaffAccountError("invalid-password", problem);
  }
  const password = input.password ?? generatePassword();
  const passwordHash = await hashPassword(password);

  const user = await db.transaction(async (tx) => {
    const created = await insertAccount(tx, { email, name: name.data, role: input.role, passwordHash });
    await recordAudit(tx, {
      actorId: input.actorId ?? null,
      action: "account.create",
      subjectType: "user",
      subjectId: created.id,
      details: { role: input.role },
    });
    return created;
  });
  return { kind: "created", user, generatedPassword: input.password === undefined ? password : undefined };
}

/**
 * Gives an account a role and records the change in the audit log, in one transaction. Setting
 * the role an account already has changes nothing and records nothing.
 */
export async function changeRole(
  db: Db,
  input: { userId: string; role: Role; actorId?: string | null; ip?: string | null },
): Promise<{ name: string; previousRole: Role; changed: boolean }> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ name: users.name, role: users.role })
      .from(users)
      .where(eq(users.id, input.userId))
      .for("update");
    if (!current) throw new StaffAccountError("not-found", "There is no such account");
    const previousRole = current.role as Role;
    if (previousRole === input.role) return { name: current.name, previousRole, changed: false };
    await tx.update(users).set({ role: input.role, updatedAt: new Date() }).where(eq(users.id, input.userId));
    await recordAudit(tx, {
      actorId: input.actorId ?? null,
      action: "user.set-role",
      subjectType: "user",
      subjectId: input.userId,
      ip: input.ip ?? null,
      details: { from: previousRole, to: input.role },
    });
    return { name: current.name, previousRole, changed: true };
  });
}

/** Sets the role of the account with this email. */
export async function setRole(db: Db, input: { email: string; role: Role; actorId?: string | null }) {
  const email = parseEmail(input.email);
  const user = await findByEmail(db, email);
  if (!user) throw new StaffAccountError("not-found", `There is no account for ${email}`);
  const { previousRole, changed } = await changeRole(db, { userId: user.id, role: input.role, actorId: input.actorId });
  return { user: { ...user, role: input.role }, previousRole, changed };
}

/** Organizers and admins, admins first. */
export async function listStaff(db: Db) {
  const rows = await db
    .select({ id: users.id, email: users.email, name: users.name, role: users.role, createdAt: users.createdAt })
    .from(users)
    .where(inArray(users.role, ["organizer", "admin"]))
    .orderBy(asc(users.role), asc(users.email));
  return rows.map((row) => ({ ...row, role: row.role as Role }));
}

/**
 * For a member who lost their phone and their recovery codes: turns two-factor sign-in off for
 * the account with this email and signs it out everywhere, so its next sign-in is with the
 * password alone (staff are then asked to set it up again). Recorded in the audit log.
 */
export async function resetTwoFactor(db: Db, input: { email: string; actorId?: string | null }) {
  const email = parseEmail(input.email);
  const user = await findByEmail(db, email);
  if (!user) throw new StaffAccountError("not-found", `There is no account for ${email}`);
  await db.transaction(async (tx) => {
    await tx.delete(twoFactors).where(eq(twoFactors.userId, user.id));
    await tx.update(users).set({ twoFactorEnabled: false, updatedAt: new Date() }).where(eq(users.id, user.id));
    await tx.delete(sessions).where(eq(sessions.userId, user.id));
    await recordAudit(tx, {
      actorId: input.actorId ?? null,
      action: "two-factor.reset",
      subjectType: "account",
      subjectId: user.id,
    });
  });
  return user;
}
