import { and, asc, count, desc, eq, gt, ilike, isNotNull, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { containing } from "~/server/db/like";
import { pageOf } from "~/ui/paging";
import { memberships, membershipTiers, users } from "../../../db/schema";
import type { MemberView } from "./member-views";
import { GRACE_DAYS } from "./membership-rules";
import { statusOf } from "./memberships.server";

const MEMBERS_PER_PAGE = 50;

/** The SQL of each view at `now`: the membership rules' states (`statusOf`), as conditions. */
function viewCondition(view: MemberView, now: Date): SQL | undefined {
  const graceEnds = sql`${memberships.paidUntil} + make_interval(days => ${GRACE_DAYS})`;
  const at = sql`${now.toISOString()}::timestamptz`;
  const live = isNull(memberships.endedAt);
  switch (view) {
    case "active":
      return and(live, gt(memberships.paidUntil, now));
    case "grace":
      return and(live, eq(memberships.renews, true), lte(memberships.paidUntil, now), sql`${graceEnds} > ${at}`);
    case "lapsed":
      return and(live, eq(memberships.renews, true), sql`${graceEnds} <= ${at}`);
    case "ended":
      return or(isNotNull(memberships.endedAt), and(eq(memberships.renews, false), lte(memberships.paidUntil, now)));
    default:
      return undefined;
  }
}

/**
 * The club's members for staff: name, email, tier, where the membership stands, paid until and
 * whether it renews; searched by name or email and filtered by state, newest joiners first.
 * `perPage: null` answers every match (the CSV).
 */
export async function listMembers(
  db: Db,
  input: { q: string; view: MemberView; page: number; now: Date; perPage?: number | null },
) {
  const pattern = input.q ? containing(input.q) : null;
  const where = and(
    viewCondition(input.view, input.now),
    pattern ? or(ilike(users.name, pattern), ilike(users.email, pattern)) : undefined,
  );
  const perPage = input.perPage === undefined ? MEMBERS_PER_PAGE : input.perPage;
  const base = db
    .select({
      id: memberships.id,
      name: users.name,
      email: users.email,
      tier: membershipTiers.name,
      people: memberships.people,
      joinedAt: memberships.joinedAt,
      paidUntil: memberships.paidUntil,
      renews: memberships.renews,
      endedAt: memberships.endedAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
    .where(where)
    .orderBy(desc(memberships.joinedAt), asc(users.name));
  const rows = perPage === null ? await base : await base.limit(perPage).offset((input.page - 1) * perPage);
  const [total] = await db
    .select({ count: count() })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(where);
  return {
    ...pageOf(total?.count ?? 0, input.page, perPage ?? MEMBERS_PER_PAGE),
    members: rows.map((row) => ({ ...row, state: statusOf(row, input.now).state })),
  };
}
