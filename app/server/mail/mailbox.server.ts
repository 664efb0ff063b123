import { desc, eq } from "drizzle-orm";
import { data } from "react-router";
import { outboundMessages } from "../../../db/schema";
import type { RequestInfo, SessionUser } from "../context.server";
import type { Db } from "../db/client.server";

/** Newest first; `to` narrows the list to one recipient (an email address or a phone number). */
export async function listOutboundMessages(db: Db, limit = 100, to?: string) {
  const rows = await db
    .select({
      id: outboundMessages.id,
      channel: outboundMessages.channel,
      to: outboundMessages.to,
      subject: outboundMessages.subject,
      text: outboundMessages.text,
      html: outboundMessages.html,
      transport: outboundMessages.transport,
      sentAt: outboundMessages.sentAt,
    })
    .from(outboundMessages)
    .where(to ? eq(outboundMessages.to, to) : undefined)
    .orderBy(desc(outboundMessages.sentAt))
    .limit(limit);
  return rows.map((row) => ({ ...row, sentAt: row.sentAt.toISOString() }));
}

export function isLoopback(ip: string) {
  return ip === "::1" || ip.startsWith("127.") || ip.startsWith("::ffff:127.");
}

/** The mailbox shows other people's messages: only this machine or an admin may read it. */
export function requireMailboxAccess(info: RequestInfo, user: SessionUser | null) {
  if (isLoopback(info.ip) || user?.role === "admin") return;
  throw data("The mailbox can be read only from this machine or by an admin", { status: 403 });
}
