import { and, desc, eq, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import { changeRole, StaffAccountError } from "~/features/accounts/staff.server";
import { recordAudit } from "~/features/audit/audit.server";
import type { Role } from "~/server/auth/session.server";
import type { Db } from "~/server/db/client.server";
import { containing } from "~/server/db/like";
import { pageOf } from "~/ui/paging";
import { carPhotos, cars, users } from "../../../db/schema";

export const MEMBERS_PER_PAGE = 25;

export type RoleFilter = "all" | "staff" | Role;
/** Newest accounts first, or those whose car photos take the most storage. */
export type MemberSort = "newest" | "storage";

const ROLE_FILTERS: Record<Exclude<RoleFilter, "all">, Role[]> = {
  staff: ["organizer", "admin"],
  member: ["member"],
  organizer: ["organizer"],
  admin: ["admin"],
};

/**
 * What each member's car photos take in storage, their original and every size (docs/media.md,
 * "Storage per member"): one grouped read joined to the page, so the list costs the same two
 * statements however many members it shows. Photos stored before their size was recorded are
 * counted apart, as `unmeasured`.
 */
function photoStorage(db: Db) {
  return db
    .select({
      ownerId: cars.ownerId,
      photos: sql<number>`count(*)::int`.as("photos"),
      bytes: sql<number>`coalesce(sum(${carPhotos.bytes}), 0)::float8`.as("bytes"),
      unmeasured: sql<number>`(count(*) filter (where ${carPhotos.bytes} is null))::int`.as("unmeasured"),
    })
    .from(carPhotos)
    .innerJoin(cars, eq(cars.id, carPhotos.carId))
    .groupBy(cars.ownerId)
    .as("stored");
}

/**
 * One page of accounts whose name or email contains `query`, newest first or those storing the
 * most first, each with what their car photos take in storage.
 */
export async function listMembers(db: Db, input: { query: string; role: RoleFilter; page: number; sort?: MemberSort }) {
  const conditions: SQL[] = [];
  if (input.query) {
    const pattern = containing(input.query);
    conditions.push(or(ilike(users.name, pattern), ilike(users.email, pattern))!);
  }
  if (input.role !== "all") conditions.push(inArray(users.role, ROLE_FILTERS[input.role]));
  const where = conditions.length ? and(...conditions) : undefined;
  const stored = photoStorage(db);
  const newest = [desc(users.createdAt), desc(users.id)];
  const order = input.sort === "storage" ? [sql`coalesce(${stored.bytes}, 0) desc`, ...newest] : newest;

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
        photos: stored.photos,
        bytes: stored.bytes,
        unmeasured: stored.unmeasured,
      })
      .from(users)
      .leftJoin(stored, eq(stored.ownerId, users.id))
      .where(where)
      .orderBy(...order)
      .limit(MEMBERS_PER_PAGE)
      .offset((input.page - 1) * MEMBERS_PER_PAGE),
    db.select({ total: sql<number>`count(*)::int` }).from(users).where(where),
  ]);
  const total = count?.total ?? 0;
  return {
    members: rows.map(({ photos, bytes, unmeasured, ...row }) => ({
      ...row,
      role: row.role as Role,
      storage: { photos: Number(photos ?? 0), bytes: Number(bytes ?? 0), unmeasured: Number(unmeasured ?? 0) },
    })),
    ...pageOf(total, input.page, MEMBERS_PER_PAGE),
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

export type DateOfBirthChange = { ok: true; name: string } | { ok: false; reason: "not-found" };

/**
 * An admin corrects a member's date of birth, which the member can no longer change once they
 * have entered a prize draw (docs/draws.md, "Who can enter"). The old and new dates and the
 * admin's reason go to the audit log with the change.
 */
export async function changeMemberDateOfBirth(
  db: Db,
  input: { actorId: string; userId: string; dateOfBirth: string | null; reason: string; ip: string },
): Promise<DateOfBirthChange> {
  return db.transaction(async (tx) => {
    const [member] = await tx
      .select({ name: users.name, dateOfBirth: users.dateOfBirth })
      .from(users)
      .where(eq(users.id, input.userId))
      .for("update");
    if (!member) return { ok: false, reason: "not-found" };
    await tx
      .update(users)
      .set({ dateOfBirth: input.dateOfBirth, updatedAt: new Date() })
      .where(eq(users.id, input.userId));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "user.set-date-of-birth",
      subjectType: "user",
      subjectId: input.userId,
      ip: input.ip,
      details: { from: member.dateOfBirth, to: input.dateOfBirth, reason: input.reason },
    });
    return { ok: true, name: member.name };
  });
}
