import { and, desc, eq, gt, ne } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { sessions } from "../../../db/schema";
import { describeDevice } from "./devices";

export type SignedInDevice = {
  id: string;
  device: string;
  ipAddress: string | null;
  signedInAt: Date;
  lastSeenAt: Date;
  current: boolean;
};

/** Where the member is signed in: every session that has not ended, this one first, then the latest. */
export async function signedInDevices(db: Db, userId: string, currentSessionId: string): Promise<SignedInDevice[]> {
  const rows = await db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      ipAddress: sessions.ipAddress,
      createdAt: sessions.createdAt,
      updatedAt: sessions.updatedAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.updatedAt));
  const devices = rows.map((row) => ({
    id: row.id,
    device: describeDevice(row.userAgent),
    ipAddress: row.ipAddress,
    signedInAt: row.createdAt,
    lastSeenAt: row.updatedAt,
    current: row.id === currentSessionId,
  }));
  return [...devices.filter((device) => device.current), ...devices.filter((device) => !device.current)];
}

/** Ends one of the member's other sessions; that device is signed out at its next request. */
export async function signOutDevice(db: Db, userId: string, sessionId: string, currentSessionId: string) {
  if (sessionId === currentSessionId) return false;
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return ended.length > 0;
}

/** Ends every session of the member but this one; answers how many. */
export async function signOutOtherDevices(db: Db, userId: string, currentSessionId: string) {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, currentSessionId)))
    .returning({ id: sessions.id });
  return ended.length;
}
