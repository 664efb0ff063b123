import { and, desc, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import { changeRole, StaffAccountError } from "~/features/accounts/staff.server";
import type { Role } from "~/server/auth/session.server";
import type { Db } from "~/server/db/client.server";
import { containing } from "~/server/db/like";
import { users } from "../../../db/schema";

export const MEMBERS_PER_PAGE = 25;

export type RoleFilter = "all" | "staff" | Role;

const ROLE_FILTERS: Record<Exclude<RoleFilter, "all">, Role[]> = {
  staff: ["organizer", "admin"],
  member: ["member"],
  organizer: ["organizer"],
  admin: ["admin"],
};

/** One page of accounts, newest first, whose name or email contains `query`. */
export async function listMembers(db: Db, input: { query: string; role: RoleFilter; page: number }) {
  const conditions: SQL[] = [];
  if (input.query) {
    const pattern = containing(input.query);
    conditions.push(or(ilike(users.name, pattern), ilike(users.email, pattern))!);
  }
  if (input.role !== "all") conditions.push(inArray(users.role, ROLE_FILTERS[input.role]));
  const where = conditions.length ? and(...conditions) : undefined;

  const [rows, [count]] = await Promise.all([
    db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        handle: users.handle,
        role: users.role,
        emailVerified: users.emailVerified,
        createdAt: users.createdAt,
      })
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(MEMBERS_PER_PAGE)
      .offset((input.page - 1) * MEMBERS_PER_PAGE),
    db.select({ total: sql<number>`count(*)::int` }).from(users).where(where),
  ]);
  const total = count?.total ?? 0;
  return {
    members: rows.map((row) => ({ ...row, role: row.role as Role })),
    total,
    page: input.page,
    pageCount: Math.max(1, Math.ceil(total / MEMBERS_PER_PAGE)),
  };
}

export type RoleChange =
  | { ok: true; name: string; role: Role; changed: boolean }
  | { ok: false; reason: "own-role" | "not-found" };

/**
 * An admin gives a member a role. Admins cannot change their own role, so a site always keeps
 * the admin who is using it; the change and its author go to the audit log.
 */
export async function changeMemberRole(
  db: Db,
  input: { actorId: string; userId: string; role: Role; ip: string },
): Promise<RoleChange> {
  if (input.actorId === input.userId) return { ok: false, reason: "own-role" };
  try {
    const { name, changed } = await changeRole(db, {
      userId: input.userId,
      role: input.role,
      actorId: input.actorId,
      ip: input.ip,
    });
    return { ok: true, name, role: input.role, changed };
  } catch (error) {
    if (error instanceof StaffAccountError && error.code === "not-found") return { ok: false, reason: "not-found" };
    throw error;
  }
}
