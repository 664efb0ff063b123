import { recordAudit } from "~/features/audit/audit.server";
import { entryPlayProblem } from "~/features/play/play-settings.server";
import type { Db } from "~/server/db/client.server";
import { transactionWithRetry } from "~/server/db/retry.server";
import { type EntrantPlayProblem, entrantOf } from "./cart-entries.server";
import { type EntryProblem, entrantProblem, entryLineProblem } from "./draw-rules";
import { allocateEntries, readDrawStock } from "./entries.server";

/**
 * Entries that take no payment: a free giveaway's one entry per member, and the free postal
 * route every paid competition offers, recorded by staff from the envelope. Both count against
 * the same caps as paid entries, under the same lock.
 */

export type EnterResult = { ok: true; numbers: number[] } | { ok: false; problem: EntryProblem | EntrantPlayProblem };

/** A member's one free entry in a giveaway, with their answer. */
export async function enterGiveaway(
  db: Db,
  input: { drawId: string; userId: string; answer: number; confirmedAdult: boolean; now: Date },
): Promise<EnterResult> {
  return transactionWithRetry(db, async (tx) => {
    const stock = await readDrawStock(tx, [input.drawId], input.now, { lock: true, userId: input.userId });
    const draw = stock.draws.get(input.drawId);
    const drawId = input.drawId;
    if (!draw || draw.status === "draft") {
      return { ok: false, problem: { code: "not_found", message: "This draw could not be found", drawId } };
    }
    if (draw.kind !== "giveaway") {
      return {
        ok: false,
        problem: { code: "bundle", message: "This draw takes paid entries: add them to your cart", drawId },
      };
    }
    const entrant = { ...(await entrantOf(tx, input.userId)), confirmedAdult: input.confirmedAdult };
    const problem =
      entrantProblem(draw, entrant, input.now) ??
      entryLineProblem(draw, stock.counts(drawId), { entriesPerUnit: 1, quantity: 1, answer: input.answer }, input.now);
    if (problem) return { ok: false, problem };
    const play = await entryPlayProblem(tx, { userId: input.userId, adding: 0, now: input.now });
    if (play) return { ok: false, problem: { ...play, drawId } };
    const numbers = await allocateEntries(tx, draw, {
      drawId,
      userId: input.userId,
      source: "free",
      answer: input.answer,
      count: 1,
      now: input.now,
    });
    return { ok: true, numbers };
  });
}

export type PostalEntryInput = {
  drawId: string;
  name: string;
  address: string;
  receivedAt: Date;
  answer: number;
  /** The member the envelope names, when they have an account: their limit then counts it. */
  userId: string | null;
  actorId: string;
  now: Date;
};

/**
 * One postal entry, as staff record it. Postal entries are taken until the draw closes, count
 * against the member's limit when the entrant has an account, and share the pool of numbers.
 */
export async function recordPostalEntry(db: Db, input: PostalEntryInput): Promise<EnterResult> {
  return transactionWithRetry(db, async (tx) => {
    const drawId = input.drawId;
    const stock = await readDrawStock(tx, [drawId], input.now, { lock: true, userId: input.userId ?? undefined });
    const draw = stock.draws.get(drawId);
    if (!draw) return { ok: false, problem: { code: "not_found", message: "This draw could not be found", drawId } };
    const counts = input.userId ? stock.counts(drawId) : { ...stock.counts(drawId), mine: 0 };
    const problem = entryLineProblem(draw, counts, { entriesPerUnit: 1, quantity: 1, answer: input.answer }, input.now);
    if (problem) return { ok: false, problem };
    // A member named on the envelope passes the same age and responsible-play checks as online:
    // staff cannot enter, nor can a member under 18 or on a break (the free route needs no phone).
    if (input.userId) {
      const entrant = await entrantOf(tx, input.userId);
      const problem = entrantProblem(draw, { ...entrant, confirmedAdult: true, phoneVerified: true }, input.now);
      if (problem) return { ok: false, problem: postalWording(problem) };
      const play = await entryPlayProblem(tx, { userId: input.userId, adding: 0, now: input.now });
      if (play) return { ok: false, problem: { ...play, drawId, message: postalPlayWording(play.code) } };
    }
    if (input.receivedAt > draw.closesAt) {
      return { ok: false, problem: { code: "closed", message: "This entry arrived after the draw closed", drawId } };
    }
    const numbers = await allocateEntries(tx, draw, {
      drawId,
      userId: input.userId,
      source: "postal",
      answer: input.answer,
      count: 1,
      postal: { name: input.name, address: input.address, receivedAt: input.receivedAt, recordedBy: input.actorId },
      now: input.now,
    });
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "draw.postal-entry",
      subjectType: "draw",
      subjectId: drawId,
      details: { number: numbers[0], receivedAt: input.receivedAt.toISOString() },
    });
    return { ok: true, numbers };
  });
}

/** The online wording speaks to the entrant; staff recording a postal entry are told about the member. */
function postalWording(problem: EntryProblem): EntryProblem {
  if (problem.code === "staff")
    return { ...problem, message: "Staff run the club's prize draws, so they cannot enter them" };
  if (problem.code !== "age") return problem;
  return {
    ...problem,
    message: problem.message.startsWith("Add")
      ? "This member has no date of birth on file, so their age cannot be checked: entrants must be 18 or over"
      : "This member is under 18: entrants must be 18 or over",
  };
}

function postalPlayWording(code: EntrantPlayProblem["code"]) {
  return code === "excluded"
    ? "This member has excluded themselves from prize draws, so their entry cannot be recorded"
    : code === "cool_off"
      ? "This member is taking a break from prize draws, so their entry cannot be recorded"
      : "This entry cannot be recorded for this member";
}
