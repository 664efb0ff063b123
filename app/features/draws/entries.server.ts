import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import { heldQuantity, liveHolds } from "~/features/commerce/live-holds.server";
import type { Db } from "~/server/db/client.server";
import { drawEntries, draws, holds, type InstantWin } from "../../../db/schema";
import { type DrawCounts, type DrawForEntry, instantWinsAmong } from "./draw-rules";

/**
 * Entry stock: the counts the caps are checked against, and the allocation of entry numbers.
 * A draw's row is the lock every writer of its entries takes first (after events and ticket
 * types, before orders: ADR 0007's one order), so on any number of servers the per-person and
 * total caps read here stay true until the transaction ends.
 */

const drawForEntryColumns = {
  id: draws.id,
  title: draws.title,
  kind: draws.kind,
  status: draws.status,
  price: draws.price,
  bundles: draws.bundles,
  totalEntries: draws.totalEntries,
  maxPerMember: draws.maxPerMember,
  opensAt: draws.opensAt,
  closesAt: draws.closesAt,
  optionCount: sql<number>`cardinality(${draws.options})`.mapWith(Number),
  allocated: draws.allocated,
  answer: draws.answer,
  instantWins: draws.instantWins,
  allowPicks: draws.allowPicks,
};

export type LockedDraw = DrawForEntry & { allocated: number; answer: number; instantWins: InstantWin[] };

export type DrawStock = {
  draws: Map<string, LockedDraw>;
  counts(drawId: string): DrawCounts;
  /** Counts entries as taken by the order being made, so its next line sees them gone. */
  take(drawId: string, entries: number): void;
};

/**
 * Reads draws and their counts. `lock: true` locks the draw rows by id (`FOR NO KEY UPDATE`: it
 * excludes other writers of the same draw but lets entries and holds that point at it be
 * inserted). `userId` fills in `mine`: that member's valid entries, every route counted.
 * `exceptUserId` leaves out the holds of that member's own unpaid orders, which checkout replaces.
 */
export async function readDrawStock(
  db: Db,
  drawIds: readonly string[],
  now: Date,
  options: { lock: boolean; userId?: string; exceptUserId?: string; exceptOrderId?: string },
): Promise<DrawStock> {
  const ids = [...new Set(drawIds)].sort();
  const result = new Map<string, LockedDraw>();
  const held = new Map<string, number>();
  const mine = new Map<string, number>();
  if (ids.length > 0) {
    const query = db.select(drawForEntryColumns).from(draws).where(inArray(draws.id, ids)).orderBy(asc(draws.id));
    const rows = options.lock ? await query.for("no key update") : await query;
    for (const row of rows) result.set(row.id, row);

    const conditions = [inArray(holds.drawId, ids), liveHolds(db, now, options)];
    const holdRows = await db
      .select({ drawId: holds.drawId, held: heldQuantity })
      .from(holds)
      .where(and(...conditions))
      .groupBy(holds.drawId);
    for (const row of holdRows) held.set(row.drawId!, row.held);

    if (options.userId) {
      const mineRows = await db
        .select({ drawId: drawEntries.drawId, count: sql<number>`count(*)::int` })
        .from(drawEntries)
        .where(
          and(
            inArray(drawEntries.drawId, ids),
            eq(drawEntries.userId, options.userId),
            eq(drawEntries.status, "valid"),
          ),
        )
        .groupBy(drawEntries.drawId);
      for (const row of mineRows) mine.set(row.drawId, Number(row.count));
    }
  }
  return {
    draws: result,
    counts: (drawId) => ({
      allocated: result.get(drawId)?.allocated ?? 0,
      held: held.get(drawId) ?? 0,
      mine: mine.get(drawId) ?? 0,
    }),
    take(drawId, entries) {
      held.set(drawId, (held.get(drawId) ?? 0) + entries);
      if (options.userId) mine.set(drawId, (mine.get(drawId) ?? 0) + entries);
    },
  };
}

/**
 * `count` entry numbers not used before in this draw, chosen at random. Numbers are never given
 * twice, even after a refund voids an entry, so the range grows by one for each void entry: there
 * are always `total_entries` numbers for valid entries. Call only with the draw's row locked.
 */
async function pickFreeNumbers(
  db: Db,
  drawId: string,
  count: number,
  options: { now?: Date; exceptOrderId?: string; besides?: readonly number[] } = {},
): Promise<number[]> {
  if (count <= 0) return [];
  const besides = options.besides?.length
    ? sql`and n not in (${sql.join(
        options.besides.map((number) => sql`${number}::int`),
        sql`, `,
      )})`
    : sql``;
  const now = (options.now ?? new Date()).toISOString();
  const result = (await db.execute(sql`
    select n from generate_series(
      1,
      (select total_entries from draws where id = ${drawId})
        + (select count(*)::int from draw_entries where draw_id = ${drawId} and status = 'void')
    ) as n
    where not exists (select 1 from draw_entries e where e.draw_id = ${drawId} and e.number = n)
      and n not in (${heldPicks(drawId, now, options.exceptOrderId)})
      ${besides}
    order by random()
    limit ${count}`)) as unknown as { rows: { n: number }[] };
  const numbers = result.rows.map((row) => Number(row.n));
  if (numbers.length < count) throw new Error(`Draw ${drawId} has ${numbers.length} numbers left, ${count} wanted`);
  return numbers;
}

/** Numbers other buyers chose and hold while they pay: kept from everyone else. */
function heldPicks(drawId: string, now: string, exceptOrderId: string | undefined) {
  return sql`select unnest(h.picked_numbers) from holds h
    where h.draw_id = ${drawId} and h.status = 'active' and h.expires_at > ${now}::timestamptz
      ${exceptOrderId ? sql`and h.order_id <> ${exceptOrderId}` : sql``}`;
}

/**
 * Which of `numbers` are taken in this draw: given to an entry (even one voided since: numbers
 * are never reused) or chosen by another buyer who is paying. Ascending.
 */
export async function takenNumbers(
  db: Db,
  drawId: string,
  numbers: readonly number[],
  options: { now: Date; exceptOrderId?: string; exceptUserId?: string },
): Promise<number[]> {
  if (numbers.length === 0) return [];
  const list = sql.join(
    numbers.map((number) => sql`${number}::int`),
    sql`, `,
  );
  const result = (await db.execute(sql`
    select n from unnest(array[${list}]) as n
    where exists (select 1 from draw_entries e where e.draw_id = ${drawId} and e.number = n)
      or n in (select unnest(h.picked_numbers) from holds h
        join orders o on o.id = h.order_id
        where h.draw_id = ${drawId} and h.status = 'active' and h.expires_at > ${options.now.toISOString()}::timestamptz
          ${options.exceptOrderId ? sql`and h.order_id <> ${options.exceptOrderId}` : sql``}
          ${options.exceptUserId ? sql`and not (o.user_id = ${options.exceptUserId} and o.status = 'pending')` : sql``})
    order by n`)) as unknown as { rows: { n: number }[] };
  return result.rows.map((row) => Number(row.n));
}

export type NewEntries = {
  drawId: string;
  userId: string | null;
  source: "paid" | "postal" | "free";
  answer: number;
  count: number;
  orderId?: string;
  orderItemId?: string;
  /** Numbers the buyer chose, given first when still free; the rest are chosen at random. */
  picks?: readonly number[];
  postal?: { name: string; address: string; receivedAt: Date; recordedBy: string | null };
  now: Date;
};

/**
 * Writes `count` entries with fresh numbers and counts them as allocated; eligibility is fixed by
 * the answer now. The draw's row must be locked by the caller, who has checked the caps. A draw
 * that this fills is sold out, and closes at once.
 */
export async function allocateEntries(db: Db, draw: LockedDraw, input: NewEntries) {
  const wanted = (input.picks ?? []).slice(0, input.count);
  const taken = new Set(
    await takenNumbers(db, draw.id, wanted, { now: input.now, exceptOrderId: input.orderId ?? undefined }),
  );
  const picked = wanted.filter((number) => !taken.has(number));
  const numbers = [
    ...picked,
    ...(await pickFreeNumbers(db, draw.id, input.count - picked.length, {
      now: input.now,
      exceptOrderId: input.orderId,
      besides: picked,
    })),
  ];
  const eligible = input.answer === draw.answer;
  await db.insert(drawEntries).values(
    numbers.map((number) => ({
      drawId: draw.id,
      number,
      userId: input.userId,
      source: input.source,
      answer: input.answer,
      eligible,
      orderId: input.orderId ?? null,
      orderItemId: input.orderItemId ?? null,
      postalName: input.postal?.name ?? null,
      postalAddress: input.postal?.address ?? null,
      receivedAt: input.postal?.receivedAt ?? null,
      recordedBy: input.postal?.recordedBy ?? null,
      createdAt: input.now,
    })),
  );
  const [updated] = await db
    .update(draws)
    .set({ allocated: sql`${draws.allocated} + ${numbers.length}`, updatedAt: input.now })
    .where(eq(draws.id, draw.id))
    .returning({ allocated: draws.allocated, totalEntries: draws.totalEntries });
  draw.allocated = updated!.allocated;
  // An instant win goes to an eligible entry only; a wrong answer stays unrevealed until close.
  const wins = eligible ? instantWinsAmong(draw.instantWins, numbers) : [];
  for (const win of wins) {
    await recordAudit(db, {
      actorId: null,
      action: "draw.instant_win",
      subjectType: "draw",
      subjectId: draw.id,
      details: { number: win.number, prize: win.prize, userId: input.userId, orderId: input.orderId ?? null },
    });
  }
  if (updated!.allocated >= updated!.totalEntries) {
    await db
      .update(draws)
      .set({ status: "closed", closedAt: input.now, updatedAt: input.now })
      .where(and(eq(draws.id, draw.id), eq(draws.status, "live")));
    draw.status = "closed";
  }
  return numbers.sort((a, b) => a - b);
}

/**
 * Voids entries (a refund, a cancelled draw) and gives their places back. Entries of a draw
 * already drawn stay as they are: the result stands. Returns how many were voided per draw.
 */
export async function voidEntries(db: Db, entryIds: readonly string[], now: Date) {
  if (entryIds.length === 0) return new Map<string, number>();
  const voided = await db
    .update(drawEntries)
    .set({ status: "void", voidedAt: now })
    .where(and(inArray(drawEntries.id, [...entryIds]), eq(drawEntries.status, "valid")))
    .returning({ drawId: drawEntries.drawId });
  const byDraw = new Map<string, number>();
  for (const entry of voided) byDraw.set(entry.drawId, (byDraw.get(entry.drawId) ?? 0) + 1);
  for (const [drawId, count] of byDraw) {
    await db
      .update(draws)
      .set({ allocated: sql`${draws.allocated} - ${count}`, updatedAt: now })
      .where(eq(draws.id, drawId));
  }
  return byDraw;
}
