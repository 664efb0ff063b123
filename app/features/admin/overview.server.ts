import { desc, gt, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { outboundMessages, users } from "../../../db/schema";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Accounts: all of them, those opened in the last 7 days, and staff (organizers and admins). One scan. */
export async function memberFigures(db: Db, now = new Date()) {
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS);
  const [row] = await db
    .select({
      members: sql<number>`count(*)::int`,
      newThisWeek: sql<number>`(count(*) filter (where ${users.createdAt} > ${weekAgo.toISOString()}::timestamptz))::int`,
      staff: sql<number>`(count(*) filter (where ${users.role} in ('organizer', 'admin')))::int`,
    })
    .from(users);
  return row ?? { members: 0, newThisWeek: 0, staff: 0 };
}

/** Emails and texts the site sent in the last 24 hours. */
export async function messagesSent(db: Db, now = new Date()) {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      emails: sql<number>`(count(*) filter (where ${outboundMessages.channel} = 'email'))::int`,
      texts: sql<number>`(count(*) filter (where ${outboundMessages.channel} = 'sms'))::int`,
    })
    .from(outboundMessages)
    .where(gt(outboundMessages.sentAt, new Date(now.getTime() - DAY_MS)));
  return row ?? { total: 0, emails: 0, texts: 0 };
}

/** The accounts opened most recently, newest first. */
export async function newestMembers(db: Db, limit = 5) {
  return db
    .select({ id: users.id, name: users.name, handle: users.handle, town: users.town, createdAt: users.createdAt })
    .from(users)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit);
}
