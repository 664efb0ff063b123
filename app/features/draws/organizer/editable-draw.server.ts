import { eq } from "drizzle-orm";
import { gone, type NotFound, type Refusal, refuse } from "~/features/forms/refusal";
import type { Db } from "~/server/db/client.server";
import { draws } from "../../../../db/schema";

// What every organizer change to a draw shares: the answers it may give besides success, and
// the lock that opens it. The lock is the draw's row lock that entries, closing and drawing take
// too (docs/draws.md, "Caps"), so a change and a sale or a close never interleave.

export type { NotFound, Refusal };
export { refuse };

export const drawNotFound = () => gone("This draw");

export type DrawRow = typeof draws.$inferSelect;

/** Locks the draw's row until the transaction ends and reads it whole; null when it is gone. */
export async function lockEditableDraw(tx: Db, drawId: string): Promise<DrawRow | null> {
  const [draw] = await tx.select().from(draws).where(eq(draws.id, drawId)).for("update");
  return draw ?? null;
}

const WORDING_EDITABLE = new Set<DrawRow["status"]>(["draft", "live", "closed"]);

const LIVE_REFUSAL =
  "This draw is live: its terms are fixed. Only the summary, description, rules, postal route and photo descriptions can change now.";

/**
 * Why the draw cannot take a change now, or null when it can: its words (summary, description,
 * rules, postal route, alt text) change while it is a draft, live or closed; anything else
 * (`draftOnly`: its terms, adding or moving photos) only while it is a draft.
 */
export function changeRefusal(draw: Pick<DrawRow, "status">, options: { draftOnly: boolean }): Refusal | null {
  if (!WORDING_EDITABLE.has(draw.status))
    return refuse(
      "",
      draw.status === "cancelled"
        ? "This draw was cancelled, so it can no longer change."
        : "This draw has been drawn: its record is final and can no longer change.",
    );
  return options.draftOnly && draw.status !== "draft" ? refuse("", LIVE_REFUSAL) : null;
}

/** Opens a change to a draw's details or photos: its row lock, then `changeRefusal`. */
export async function lockChangeableDraw(
  tx: Db,
  drawId: string,
  options: { draftOnly: boolean },
): Promise<{ ok: true; draw: DrawRow } | Refusal | NotFound> {
  const draw = await lockEditableDraw(tx, drawId);
  if (!draw) return drawNotFound();
  return changeRefusal(draw, options) ?? { ok: true, draw };
}
