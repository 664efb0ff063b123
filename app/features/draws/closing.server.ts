import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import type { Db } from "~/server/db/client.server";
import { transactionWithRetry } from "~/server/db/retry.server";
import { drawEntries, draws, orderItems, orders } from "../../../db/schema";
import { instantWinsProblem } from "./draw-rules";
import { commitmentOf, drawWinners, instantWinCommitment, listHashOf, newSalt, newSeed } from "./fairness";

/**
 * A draw's life after it is made (docs/draws.md, ADR 0013): go live with a commitment to a
 * secret seed; close at its time or when sold out, freezing the list of eligible entry numbers
 * and publishing its hash; once the named beacon is known, draw the winner from seed, list hash
 * and beacon, and reveal the seed. Every step takes the draw's row lock and is audited.
 */

export type DrawStepResult = { ok: true } | { ok: false; problem: string };

async function lockDraw(tx: Db, drawId: string) {
  const [draw] = await tx
    .select({
      id: draws.id,
      slug: draws.slug,
      status: draws.status,
      closesAt: draws.closesAt,
      allocated: draws.allocated,
      minEntries: draws.minEntries,
      undersoldPolicy: draws.undersoldPolicy,
      extendDays: draws.extendDays,
      extended: draws.extended,
      seed: draws.seed,
      listHash: draws.listHash,
      beaconValue: draws.beaconValue,
      winnerNumber: draws.winnerNumber,
      cashAlternative: draws.cashAlternative,
      totalEntries: draws.totalEntries,
      instantWins: draws.instantWins,
    })
    .from(draws)
    .where(eq(draws.id, drawId))
    .for("update");
  return draw ?? null;
}

/**
 * Publishes a draft: the seed is made and kept, its SHA-256 is what the page shows from now on.
 * A draw with instant wins also publishes the commitment to their list (with a fresh salt).
 */
export async function publishDraw(db: Db, input: { drawId: string; actorId: string | null; now: Date }) {
  return transactionWithRetry(db, async (tx): Promise<DrawStepResult> => {
    const draw = await lockDraw(tx, input.drawId);
    if (!draw) return { ok: false, problem: "This draw could not be found." };
    if (draw.status !== "draft") return { ok: false, problem: "Only a draft can be published." };
    if (draw.closesAt <= input.now) return { ok: false, problem: "Its closing time has passed: change it first." };
    const instantProblem = instantWinsProblem(draw.instantWins, draw.totalEntries);
    if (instantProblem) return { ok: false, problem: instantProblem };
    const seed = newSeed();
    const commitment = await commitmentOf(seed);
    const instantSalt = draw.instantWins.length > 0 ? newSalt() : null;
    const instantCommitment = instantSalt ? await instantWinCommitment(draw.instantWins, instantSalt) : null;
    await tx
      .update(draws)
      .set({
        status: "live",
        seed,
        commitment,
        instantSalt,
        instantCommitment,
        publishedAt: input.now,
        updatedAt: input.now,
      })
      .where(eq(draws.id, draw.id));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "draw.publish",
      subjectType: "draw",
      subjectId: draw.id,
      details: { slug: draw.slug, commitment, instantCommitment },
    });
    return { ok: true };
  });
}

/** The eligible entry numbers of a draw, ascending: valid entries with the right answer. */
export async function eligibleNumbers(db: Db, drawId: string) {
  const rows = await db
    .select({ number: drawEntries.number })
    .from(drawEntries)
    .where(and(eq(drawEntries.drawId, drawId), eq(drawEntries.status, "valid"), eq(drawEntries.eligible, true)))
    .orderBy(asc(drawEntries.number));
  return rows.map((row) => row.number);
}

export type CloseOutcome = "closed" | "extended" | "cash" | "refund" | "not_due";

/**
 * Closes a live draw whose time has come (or that sold out), applying the undersold policy
 * chosen before it opened: extend once, draw for the cash alternative, or cancel for refunds.
 * Entries still being paid for when the time comes are refused at settlement and refunded.
 */
export async function closeDraw(
  db: Db,
  input: { drawId: string; actorId: string | null; now: Date },
): Promise<CloseOutcome> {
  return transactionWithRetry(db, async (tx) => {
    const draw = await lockDraw(tx, input.drawId);
    if (!draw) return "not_due";
    const due = draw.status === "live" && draw.closesAt <= input.now;
    const soldOutAlready = draw.status === "closed" && draw.listHash === null;
    if (!due && !soldOutAlready) return "not_due";

    const audit = (action: string, details: Record<string, unknown>) =>
      recordAudit(tx, { actorId: input.actorId, action, subjectType: "draw", subjectId: draw.id, details });
    if (draw.allocated < draw.minEntries && !soldOutAlready) {
      if (draw.undersoldPolicy === "extend" && !draw.extended) {
        const closesAt = new Date(draw.closesAt.getTime() + draw.extendDays * 24 * 60 * 60 * 1000);
        await tx.update(draws).set({ closesAt, extended: true, updatedAt: input.now }).where(eq(draws.id, draw.id));
        await audit("draw.extend", { slug: draw.slug, closesAt: closesAt.toISOString(), entries: draw.allocated });
        return "extended";
      }
      if (draw.undersoldPolicy === "refund") {
        await tx
          .update(draws)
          .set({
            status: "cancelled",
            cancelledAt: input.now,
            cancelReason: "Fewer entries than needed by the closing time",
            updatedAt: input.now,
          })
          .where(eq(draws.id, draw.id));
        await audit("draw.cancel", { slug: draw.slug, reason: "undersold", entries: draw.allocated });
        return "refund";
      }
    }
    const numbers = await eligibleNumbers(tx, draw.id);
    const listHash = await listHashOf(numbers);
    // A draw with no cash alternative (a giveaway) is drawn for its prize whatever the number.
    const cashPrize =
      draw.allocated < draw.minEntries && draw.undersoldPolicy === "cash" && draw.cashAlternative !== null;
    await tx
      .update(draws)
      .set({
        status: "closed",
        closedAt: sql`coalesce(${draws.closedAt}, ${input.now.toISOString()}::timestamptz)`,
        listHash,
        eligibleCount: numbers.length,
        cashPrize,
        updatedAt: input.now,
      })
      .where(eq(draws.id, draw.id));
    await audit("draw.close", { slug: draw.slug, listHash, eligible: numbers.length, cashPrize });
    return cashPrize ? "cash" : "closed";
  });
}

/** Live draws past their time and sold-out draws whose list is not frozen yet: the close job's work. */
export async function drawsToClose(db: Db, now: Date) {
  const rows = await db
    .select({ id: draws.id })
    .from(draws)
    .where(
      sql`(${draws.status} = 'live' and ${draws.closesAt} <= ${now.toISOString()}::timestamptz)
        or (${draws.status} = 'closed' and ${draws.listHash} is null)`,
    )
    .orderBy(asc(draws.closesAt));
  return rows.map((row) => row.id);
}

/** Closed draws with a beacon value and no winner yet: drawn by the job as soon as it runs. */
export async function drawsToDraw(db: Db) {
  const rows = await db
    .select({ id: draws.id })
    .from(draws)
    .where(and(eq(draws.status, "closed"), sql`${draws.beaconValue} is not null`, sql`${draws.listHash} is not null`));
  return rows.map((row) => row.id);
}

/** Records the beacon's value once it is known (the organiser reads it from its public source). */
export async function recordBeacon(
  db: Db,
  input: { drawId: string; value: string; actorId: string | null; now: Date },
) {
  const value = input.value.trim();
  if (!value || value.length > 500)
    return { ok: false as const, problem: "Enter the beacon's value (up to 500 characters)." };
  return transactionWithRetry(db, async (tx): Promise<DrawStepResult> => {
    const draw = await lockDraw(tx, input.drawId);
    if (!draw) return { ok: false, problem: "This draw could not be found." };
    if (draw.status !== "closed" || !draw.listHash) {
      return { ok: false, problem: "The beacon is entered after the draw closes, when its value is known." };
    }
    if (draw.beaconValue !== null) return { ok: false, problem: "The beacon's value has already been recorded." };
    await tx.update(draws).set({ beaconValue: value, updatedAt: input.now }).where(eq(draws.id, draw.id));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "draw.beacon",
      subjectType: "draw",
      subjectId: draw.id,
      details: { slug: draw.slug, beacon: value },
    });
    return { ok: true };
  });
}

export type DrawResult =
  | { ok: true; winner: number | null; userId: string | null; already: boolean }
  | { ok: false; problem: string };

/**
 * Draws the winner of a closed draw whose beacon is known, from the frozen list, and reveals the
 * seed. A draw with no eligible entries ends drawn with no winner. Drawing twice changes nothing:
 * the minute's job draws a draw as soon as its beacon is recorded, so an organizer who presses
 * Draw after it is told the result it already has (`already`).
 */
export async function drawWinner(db: Db, input: { drawId: string; actorId: string | null; now: Date }) {
  return transactionWithRetry(db, async (tx): Promise<DrawResult> => {
    const draw = await lockDraw(tx, input.drawId);
    if (!draw) return { ok: false, problem: "This draw could not be found." };
    if (draw.status === "drawn") return { ok: true, winner: draw.winnerNumber, userId: null, already: true };
    if (draw.status !== "closed" || !draw.listHash || !draw.seed) {
      return { ok: false, problem: "Only a closed draw can be drawn." };
    }
    if (draw.beaconValue === null) return { ok: false, problem: "Enter the beacon's value first." };
    const numbers = await eligibleNumbers(tx, draw.id);
    if ((await listHashOf(numbers)) !== draw.listHash)
      throw new Error(`The entry list of draw ${draw.id} changed after close`);
    const [winner] =
      numbers.length === 0
        ? [null]
        : await drawWinners({ seed: draw.seed, listHash: draw.listHash, beacon: draw.beaconValue, entries: numbers });
    await tx
      .update(draws)
      .set({ status: "drawn", winnerNumber: winner, drawnAt: input.now, updatedAt: input.now })
      .where(eq(draws.id, draw.id));
    const [entry] =
      winner === null
        ? []
        : await tx
            .select({ userId: drawEntries.userId })
            .from(drawEntries)
            .where(and(eq(drawEntries.drawId, draw.id), eq(drawEntries.number, winner)));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "draw.draw",
      subjectType: "draw",
      subjectId: draw.id,
      details: { slug: draw.slug, winner, eligible: numbers.length, beacon: draw.beaconValue },
    });
    return { ok: true, winner, userId: entry?.userId ?? null, already: false };
  });
}

/** Paid orders holding valid entries of a cancelled draw, for its refunds. */
export async function ordersWithEntriesOf(db: Db, drawId: string) {
  const rows = await db
    .selectDistinct({ orderId: drawEntries.orderId })
    .from(drawEntries)
    .innerJoin(orders, eq(orders.id, drawEntries.orderId))
    .where(
      and(
        eq(drawEntries.drawId, drawId),
        eq(drawEntries.status, "valid"),
        inArray(orders.status, ["paid", "fulfilled", "partly_refunded"]),
      ),
    );
  return rows.map((row) => row.orderId!);
}

/** Order lines of a draw with their valid bundles, for refunding a cancelled draw. */
export async function refundableEntryLines(db: Db, orderId: string, drawId: string) {
  const rows = await db
    .select({
      id: orderItems.id,
      entriesPerUnit: orderItems.entriesPerUnit,
      valid: sql<number>`count(${drawEntries.id})::int`,
    })
    .from(orderItems)
    .innerJoin(drawEntries, and(eq(drawEntries.orderItemId, orderItems.id), eq(drawEntries.status, "valid")))
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.drawId, drawId)))
    .groupBy(orderItems.id, orderItems.entriesPerUnit);
  return rows
    .map((row) => ({ orderItemId: row.id, quantity: Math.floor(Number(row.valid) / row.entriesPerUnit) }))
    .filter((line) => line.quantity > 0);
}
