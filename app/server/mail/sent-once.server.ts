import { and, eq, getTableColumns, isNull, lt, sql } from "drizzle-orm";
import type { PgColumn, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import { outboundMessages } from "../../../db/schema";
import type { Db } from "../db/client.server";
import { type MailTransport, type OutboundEmail, sendEmail } from "./mail.server";

/**
 * A table with one row per email that must go out once (an order's confirmation, a draw's result
 * to one entrant): its key columns, then `claimed_at`, `sent_at` and `message_id`.
 */
export type SentOnceTable = PgTable & { claimedAt: PgColumn; sentAt: PgColumn; messageId: PgColumn };

/**
 * How long a claim may stay unrecorded before another sender takes it over: its server stopped
 * between claiming and recording. Far longer than one send takes.
 */
export const EMAIL_CLAIM_MS = 5 * 60_000;

/** A claim that was never recorded and is older than EMAIL_CLAIM_MS at `now`: free to take over. */
export function lapsedEmailClaim(table: SentOnceTable, now: Date) {
  return and(isNull(table.sentAt), lt(table.claimedAt, new Date(now.getTime() - EMAIL_CLAIM_MS)));
}

/**
 * Sends `email` once for the row `key` of `table`, however often it is asked (a job retried, or
 * run on two servers at once). The sender claims the row first (a committed `claimed_at`, no
 * `sent_at`), sends, then records the message and `sent_at` in one statement; every other sender
 * finds the claim and sends nothing. No transaction stays open while the mail server answers, so
 * a slow mail server holds none of the pool's connections. A failed send gives the claim up, so a
 * retry sends; a claim never recorded lapses after EMAIL_CLAIM_MS and the next sender takes it.
 */
export async function sendOnce<T extends SentOnceTable>(
  db: Db,
  mail: MailTransport,
  input: { table: T; key: Record<string, unknown>; email: OutboundEmail },
): Promise<"sent" | "already_sent"> {
  const { table, key } = input;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const keyColumns = Object.keys(key).map((name) => columns[name]!);
  const row = and(...Object.entries(key).map(([name, value]) => eq(columns[name]!, value)));
  const claimedAt = new Date();
  const claimed = await db
    .insert(table)
    .values({ ...key, claimedAt, sentAt: null } as T["$inferInsert"])
    .onConflictDoUpdate({
      target: keyColumns,
      set: { claimedAt } as PgUpdateSetSource<T>,
      setWhere: lapsedEmailClaim(table, claimedAt),
    })
    .returning({ claimedAt: table.claimedAt });
  if (claimed.length === 0) return "already_sent";
  const ours = and(row, eq(table.claimedAt, claimedAt));
  try {
    const record = await sendEmail(mail, input.email);
    const sent = { sentAt: new Date() };
    if (!record)
      await db
        .update(table)
        .set(sent as PgUpdateSetSource<T>)
        .where(ours);
    else {
      // The message and the claim's end, written together.
      const message = db.insert(outboundMessages).values(record).returning({ id: outboundMessages.id });
      const recorded = db
        .update(table)
        .set({ ...sent, messageId: sql`(select id from message)` } as PgUpdateSetSource<T>)
        .where(ours);
      await db.execute(sql`with message as (${message.getSQL()}) ${recorded.getSQL()}`);
    }
  } catch (error) {
    await db
      .delete(table)
      .where(and(ours, isNull(table.sentAt)))
      .catch(() => undefined);
    throw error;
  }
  return "sent";
}
