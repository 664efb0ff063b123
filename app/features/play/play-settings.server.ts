import { and, eq, gte, inArray, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import type { Db } from "~/server/db/client.server";
import { orderItems, orders, playSettings } from "../../../db/schema";
import {
  breakProblem,
  type CoolOffChoice,
  changeLimits,
  coolOffEnd,
  type ExclusionChoice,
  exclusionEnd,
  extendedUntil,
  formatPlayInstant,
  leftToSpend,
  MONTH_MS,
  NO_PLAY_SETTINGS,
  PLAY_TIME_ZONE,
  type PlayProblem,
  type PlaySettings,
  type Spend,
  type SpendLimits,
  settingsAt,
  spendProblem,
  WEEK_MS,
} from "./play-rules";

/** Orders whose entry lines count as spent (a refunded line stops counting). */
const SPENT_STATUSES = ["paid", "fulfilled", "partly_refunded"] as const;

const storedColumns = {
  weekly: playSettings.weeklyLimit,
  monthly: playSettings.monthlyLimit,
  pending: playSettings.pendingLimits,
  coolOffUntil: playSettings.coolOffUntil,
  excludedUntil: playSettings.excludedUntil,
  limitsOfferedAt: playSettings.limitsOfferedAt,
};

type StoredSettings = { [Key in keyof typeof storedColumns]: (typeof storedColumns)[Key]["_"]["data"] | null };

/** The member's settings as stored; a raise whose day has passed is applied (and saved) on read. */
export async function readPlaySettings(db: Db, userId: string, now: Date): Promise<PlaySettings> {
  const [row] = await db.select(storedColumns).from(playSettings).where(eq(playSettings.userId, userId));
  return settingsOf(db, userId, row, now);
}

/** The settings in force at `now` from the stored row (none: the defaults), saving a raise now due. */
async function settingsOf(db: Db, userId: string, row: StoredSettings | undefined, now: Date) {
  if (!row) return NO_PLAY_SETTINGS;
  const { raiseApplied, ...settings } = settingsAt(row, now);
  if (raiseApplied) {
    // Only the raise read here is applied: a newer choice saved meanwhile stays as it is.
    await db
      .update(playSettings)
      .set({ weeklyLimit: settings.weekly, monthlyLimit: settings.monthly, pendingLimits: null, updatedAt: now })
      .where(
        and(
          eq(playSettings.userId, userId),
          sql`${playSettings.pendingLimits} = ${JSON.stringify(row.pending)}::jsonb`,
        ),
      );
  }
  return settings;
}

/**
 * What the member paid for entries in paid competitions over the last 7 and 30 days, the windows
 * the limits count, less refunded lines: one statement for both.
 */
export async function entrySpend(db: Db, userId: string, now: Date): Promise<Spend> {
  const [row] = await spendQuery(db, userId, now);
  return { week: Number(row?.week ?? 0), month: Number(row?.month ?? 0) };
}

/** entrySpend's one row: an aggregate, so there is always one. */
function spendQuery(db: Db, userId: string, now: Date) {
  const weekStart = new Date(now.getTime() - WEEK_MS);
  const spent = sql`${orderItems.unitPrice} * (${orderItems.quantity} - ${orderItems.refundedQuantity})`;
  return db
    .select({
      week: sql<number>`coalesce(sum(${spent}) filter (where ${gte(orders.paidAt, weekStart)}), 0)::int`.as("week"),
      month: sql<number>`coalesce(sum(${spent}), 0)::int`.as("month"),
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(
      and(
        eq(orders.userId, userId),
        inArray(orders.status, [...SPENT_STATUSES]),
        gte(orders.paidAt, new Date(now.getTime() - MONTH_MS)),
        eq(orderItems.kind, "entry"),
      ),
    );
}

/**
 * Everything the settings page (and a draw page) shows about the member's play: the settings and
 * the spend read in one statement (a draw's page asks for them on every view by a member).
 */
export async function playStatus(db: Db, userId: string, now: Date, timeZone = PLAY_TIME_ZONE) {
  const spendRow = spendQuery(db, userId, now).as("spend");
  const [row] = await db
    .select({ stored: { userId: playSettings.userId, ...storedColumns }, week: spendRow.week, month: spendRow.month })
    .from(spendRow)
    .leftJoin(playSettings, eq(playSettings.userId, userId));
  const { userId: storedFor, ...stored } = row?.stored ?? { userId: null };
  const settings = await settingsOf(db, userId, storedFor ? (stored as StoredSettings) : undefined, now);
  const spend = { week: Number(row?.week ?? 0), month: Number(row?.month ?? 0) };
  return {
    settings,
    spend,
    left: leftToSpend(settings, spend),
    /** Set while a cool-off or self-exclusion stops entries, with when it ends. */
    blocked: breakProblem(settings, now, timeZone),
  };
}

/**
 * Whether the member may enter draws now and pay `adding` more for entries: a cool-off or
 * self-exclusion refuses every entry, paid or free; a limit refuses paid ones beyond it.
 */
export async function entryPlayProblem(
  db: Db,
  input: { userId: string; adding: number; now: Date; timeZone?: string; currency?: string },
): Promise<PlayProblem | null> {
  const settings = await readPlaySettings(db, input.userId, input.now);
  const stop = breakProblem(settings, input.now, input.timeZone);
  if (stop || input.adding <= 0) return stop;
  if (settings.weekly === null && settings.monthly === null) return null;
  return spendProblem(settings, await entrySpend(db, input.userId, input.now), input.adding, input.currency);
}

async function saveSettings(db: Db, userId: string, values: Partial<typeof playSettings.$inferInsert>, now: Date) {
  await db
    .insert(playSettings)
    .values({ userId, ...values, updatedAt: now })
    .onConflictDoUpdate({ target: playSettings.userId, set: { ...values, updatedAt: now } });
}

/** The member's new limits: stricter ones apply now, raised or removed ones after a day. */
export async function setSpendLimits(db: Db, input: { userId: string; limits: SpendLimits; now: Date }) {
  return db.transaction(async (tx) => {
    // The row lock keeps two changes at once from each reading the limits the other replaces.
    await tx.execute(sql`select 1 from ${playSettings} where ${playSettings.userId} = ${input.userId} for update`);
    const current = await readPlaySettings(tx, input.userId, input.now);
    const next = changeLimits(current, input.limits, input.now);
    await saveSettings(
      tx,
      input.userId,
      { weeklyLimit: next.weekly, monthlyLimit: next.monthly, pendingLimits: next.pending },
      input.now,
    );
    await recordAudit(tx, {
      actorId: input.userId,
      action: "play.limits-changed",
      subjectType: "user",
      subjectId: input.userId,
      details: { wanted: input.limits, applied: { weekly: next.weekly, monthly: next.monthly }, pending: next.pending },
    });
    return next;
  });
}

/** Asked during onboarding: the member's first limits (applied at once) or none, and when they were asked. */
export async function recordLimitsOffer(db: Db, input: { userId: string; limits: SpendLimits | null; now: Date }) {
  if (input.limits && (input.limits.weekly !== null || input.limits.monthly !== null)) {
    await setSpendLimits(db, { userId: input.userId, limits: input.limits, now: input.now });
  }
  await saveSettings(db, input.userId, { limitsOfferedAt: input.now }, input.now);
}

export type BreakResult = { ok: true; until: Date } | { ok: false; message: string };

/** A cool-off or self-exclusion: it starts now and can only ever be made longer. */
export async function takeBreak(
  db: Db,
  input: { userId: string; now: Date; timeZone?: string } & (
    | { kind: "cool-off"; choice: CoolOffChoice }
    | { kind: "exclusion"; choice: ExclusionChoice }
  ),
): Promise<BreakResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from ${playSettings} where ${playSettings.userId} = ${input.userId} for update`);
    const current = await readPlaySettings(tx, input.userId, input.now);
    const coolOff = input.kind === "cool-off";
    const wanted = coolOff ? coolOffEnd(input.choice, input.now) : exclusionEnd(input.choice, input.now);
    const existing = coolOff ? current.coolOffUntil : current.excludedUntil;
    const until = extendedUntil(existing, wanted, input.now);
    if (!until) {
      const what = coolOff ? "cool-off" : "self-exclusion";
      return {
        ok: false as const,
        message: `Your ${what} already runs until ${formatPlayInstant(existing!, input.timeZone)}. It cannot be shortened: choose a longer one to extend it`,
      };
    }
    await saveSettings(tx, input.userId, coolOff ? { coolOffUntil: until } : { excludedUntil: until }, input.now);
    await recordAudit(tx, {
      actorId: input.userId,
      action: coolOff ? "play.cool-off" : "play.self-exclusion",
      subjectType: "user",
      subjectId: input.userId,
      details: { choice: input.choice, until: until.toISOString(), previous: existing?.toISOString() ?? null },
    });
    return { ok: true as const, until };
  });
}
