import { eq, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import type { Db } from "~/server/db/client.server";
import { draws, users } from "../../../../db/schema";
import { type CloseOutcome, closeDraw } from "../closing.server";
import type { RefundDraw } from "../draw-jobs.server";
import { type EnterResult, recordPostalEntry } from "../enter.server";
import {
  type DrawRow,
  drawNotFound,
  lockEditableDraw,
  type NotFound,
  type Refusal,
  refuse,
} from "./editable-draw.server";
import type { PostalEntryFormInput } from "./schemas";

// The organizer's steps in a draw's life beyond editing: closing when due, cancelling with
// refunds, and postal entries. Publishing, the beacon and the draw itself are the draw area's
// own functions (closing.server.ts), called as they are.

export type CancelledDraw = { ok: true; refundedOrders: number };

const CLOSED_REFUSAL =
  "Entries to this draw have closed, so it can no longer be cancelled: its undersold policy applies.";

/**
 * Cancels a draft or live draw with the reason entrants are given, under its row lock, then
 * refunds every paid entry as the undersold policy's cancellation does. Once entries have closed
 * (closed, or live past its closing time) it is refused, and a drawn draw's result stands.
 */
export async function cancelDraw(
  db: Db,
  refundDraw: RefundDraw,
  input: { drawId: string; actorId: string; reason: string; now: Date },
): Promise<CancelledDraw | Refusal | NotFound> {
  const outcome = await db.transaction(async (tx): Promise<{ ok: true } | Refusal | NotFound> => {
    const draw = await lockEditableDraw(tx, input.drawId);
    if (!draw) return drawNotFound();
    if (draw.status === "cancelled") return refuse("", "This draw is already cancelled.");
    if (draw.status === "drawn") return refuse("", "This draw has been drawn: its result stands.");
    // Once entries close the entrants hold a fair chance at a known list: only the undersold
    // policy chosen before publishing may still refund them (closing.server.ts).
    if (draw.status === "closed" || (draw.status === "live" && draw.closesAt <= input.now))
      return refuse("", CLOSED_REFUSAL);
    await tx
      .update(draws)
      .set({ status: "cancelled", cancelledAt: input.now, cancelReason: input.reason, updatedAt: input.now })
      .where(eq(draws.id, draw.id));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "draw.cancel",
      subjectType: "draw",
      subjectId: draw.id,
      details: { slug: draw.slug, from: draw.status, reason: input.reason, entries: draw.allocated },
    });
    return { ok: true };
  });
  if (!outcome.ok) return outcome;
  const refundedOrders = await refundDraw(db, input);
  return { ok: true, refundedOrders };
}

/**
 * Shows an admin a draw's instant-win list, which staff pages otherwise keep to its commitment
 * while the draw is live. Asking is an explicit step, and each one is audited.
 */
export async function revealInstantWins(
  db: Db,
  input: { drawId: string; actorId: string },
): Promise<{ ok: true; wins: DrawRow["instantWins"] } | NotFound> {
  return db.transaction(async (tx) => {
    const [draw] = await tx
      .select({ id: draws.id, slug: draws.slug, status: draws.status, instantWins: draws.instantWins })
      .from(draws)
      .where(eq(draws.id, input.drawId));
    if (!draw) return drawNotFound();
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "draw.reveal-instant-wins",
      subjectType: "draw",
      subjectId: draw.id,
      details: { slug: draw.slug, status: draw.status, count: draw.instantWins.length },
    });
    return { ok: true, wins: draw.instantWins };
  });
}

/** Refunds a cancelled draw's paid entries again: for a refund that failed the first time. */
export async function retryDrawRefunds(
  db: Db,
  refundDraw: RefundDraw,
  input: { drawId: string; actorId: string; now: Date },
) {
  const [draw] = await db.select({ status: draws.status }).from(draws).where(eq(draws.id, input.drawId));
  if (!draw) return drawNotFound();
  if (draw.status !== "cancelled") return refuse("", "Only a cancelled draw's entries are refunded.");
  return { ok: true as const, refundedOrders: await refundDraw(db, input) };
}

/**
 * Does now what the close job does each minute: closes a draw whose time has come (or that sold
 * out), with its undersold policy, and refunds at once when the policy cancelled it.
 */
export async function closeDrawNow(
  db: Db,
  refundDraw: RefundDraw,
  input: { drawId: string; actorId: string; now: Date },
): Promise<{ ok: true; outcome: Exclude<CloseOutcome, "not_due"> } | Refusal> {
  const outcome = await closeDraw(db, input);
  if (outcome === "not_due")
    return refuse("", "This draw is not due to close: it closes at its closing time, or as soon as it sells out.");
  if (outcome === "refund") await refundDraw(db, input);
  return { ok: true, outcome };
}

/** A postal entry from the form: the member named by email, when there is one, counts it in their limit. */
export async function recordPostalEntryFor(
  db: Db,
  input: { drawId: string; actorId: string; entry: PostalEntryFormInput; now: Date },
): Promise<EnterResult | Refusal> {
  let userId: string | null = null;
  if (input.entry.email) {
    const [member] = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, input.entry.email))
      .limit(1);
    if (!member)
      return refuse("email", "No member has this email address. Leave it empty for someone without an account.");
    userId = member.id;
  }
  return recordPostalEntry(db, {
    drawId: input.drawId,
    name: input.entry.name,
    address: input.entry.address,
    receivedAt: input.entry.receivedAt,
    answer: input.entry.answer,
    userId,
    actorId: input.actorId,
    now: input.now,
  });
}
