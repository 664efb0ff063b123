import { sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { countOf } from "~/ui/plural";
import { ipKey } from "./ip-key";

export type AttemptRule = { max: number; windowSeconds: number };

/**
 * Limits for the account forms (OWASP: sign-in, reset and code guessing are rate limited). Per
 * address limits protect each account; per-IP limits stop spraying, and are loose enough for a
 * venue's Wi-Fi where a whole car show shares one address.
 */
export const ATTEMPT_RULES = {
  signInByIp: { max: 100, windowSeconds: 15 * 60 },
  signInByAddressAndIp: { max: 5, windowSeconds: 15 * 60 },
  signInByEmail: { max: 50, windowSeconds: 60 * 60 },
  signUpByIp: { max: 30, windowSeconds: 10 * 60 },
  emailLinkByIp: { max: 30, windowSeconds: 15 * 60 },
  emailLinkByEmail: { max: 3, windowSeconds: 15 * 60 },
  phoneCodeSend: { max: 1, windowSeconds: 60 },
  phoneCodeSendDaily: { max: 10, windowSeconds: 24 * 60 * 60 },
  phoneCodeSendByIp: { max: 10, windowSeconds: 60 * 60 },
  phoneCodeSendByNumber: { max: 5, windowSeconds: 24 * 60 * 60 },
  passwordChange: { max: 5, windowSeconds: 15 * 60 },
  secondFactorByIp: { max: 30, windowSeconds: 15 * 60 },
  imageUploadByMember: { max: 10, windowSeconds: 10 * 60 },
  imageUploadByIp: { max: 30, windowSeconds: 10 * 60 },
  ticketTransferByMember: { max: 10, windowSeconds: 24 * 60 * 60 },
} satisfies Record<string, AttemptRule>;

export type AttemptResult = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts one attempt under `key` in a fixed window and says whether it is allowed. One
 * statement (insert or increment, resetting an expired window) so concurrent attempts on any
 * number of instances are all counted.
 */
export async function countAttempt(db: Db, key: string, rule: AttemptRule, now = new Date()): Promise<AttemptResult> {
  const windowEnd = new Date(now.getTime() + rule.windowSeconds * 1000);
  const result = (await db.execute(sql`
    insert into attempt_limits as a (key, count, window_ends_at)
    values (${key}, 1, ${windowEnd.toISOString()})
    on conflict (key) do update set
      count = case when a.window_ends_at <= ${now.toISOString()} then 1 else a.count + 1 end,
      window_ends_at = case when a.window_ends_at <= ${now.toISOString()} then excluded.window_ends_at else a.window_ends_at end
    returning count, window_ends_at`)) as unknown as { rows: { count: number; window_ends_at: string | Date }[] };
  const row = result.rows[0]!;
  if (row.count <= rule.max) return { allowed: true, remaining: rule.max - row.count };
  const endsAt = new Date(row.window_ends_at).getTime();
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000)) };
}

/** Seconds until one more attempt under `key` is allowed (0: now), without counting one. */
export async function secondsUntilAllowed(db: Db, key: string, rule: AttemptRule, now = new Date()) {
  const result = (await db.execute(sql`
    select count, window_ends_at from attempt_limits where key = ${key}`)) as unknown as {
    rows: { count: number; window_ends_at: string | Date }[];
  };
  const row = result.rows[0];
  if (!row || row.count < rule.max) return 0;
  return Math.max(0, Math.ceil((new Date(row.window_ends_at).getTime() - now.getTime()) / 1000));
}

/** Forgets the attempts under `key`, e.g. after a successful sign-in. */
export async function clearAttempts(db: Db, key: string) {
  await db.execute(sql`delete from attempt_limits where key = ${key}`);
}

/** "in 3 minutes", "in 45 seconds": the wait shown with a 429. */
export function describeWait(seconds: number) {
  if (seconds < 60) return countOf(seconds, "second", "seconds");
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return countOf(minutes, "minute", "minutes");
  const hours = Math.ceil(minutes / 60);
  return countOf(hours, "hour", "hours");
}

/**
 * Thrown past a limit. The limit holds whoever calls; the page answers it with the "too many
 * attempts" page (429) that says how long to wait.
 */
export class TooManyAttempts extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many attempts. Please wait ${describeWait(retryAfterSeconds)} and try again.`);
    this.name = "TooManyAttempts";
  }
}

/** Counts an attempt under each key, and throws `TooManyAttempts` when one is over its limit. */
export async function limitAttempts(db: Db, checks: [key: string, rule: AttemptRule][]) {
  for (const [key, rule] of checks) {
    const result = await countAttempt(db, key, rule);
    if (!result.allowed) throw new TooManyAttempts(result.retryAfterSeconds);
  }
}

/**
 * Every uploaded photo is decoded and resized, which keeps a core busy for a moment: counted per
 * member and per network before that work starts (photos refused for their size or type earlier
 * are not counted).
 */
export async function limitImageUploads(db: Db, who: { userId: string; ip: string }) {
  await limitAttempts(db, [
    [`image-upload:${who.userId}`, ATTEMPT_RULES.imageUploadByMember],
    [`image-upload-ip:${ipKey(who.ip)}`, ATTEMPT_RULES.imageUploadByIp],
  ]);
}
