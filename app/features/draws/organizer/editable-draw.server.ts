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

/** The states in which the draw's words (summary, description, rules, postal route, alt text) may change. */
const WORDING_EDITABLE = new Set<DrawRow["status"]>(["draft", "live", "closed"]);

export const LIVE_REFUSAL =
  "This draw is live: its terms are fixed. Only the summary, description, rules, postal route and photo descriptions can change now.";

/** Why the draw's words cannot change now, or null when they can. */
export function wordingRefusal(draw: Pick<DrawRow, "status">): Refusal | null {
  if (WORDING_EDITABLE.has(draw.status)) return null;
  return refuse(
    "",
    draw.status === "cancelled"
      ? "This draw was cancelled, so it can no longer change."
      : "This draw has been drawn: its record is final and can no longer change.",
  );
}

const auditValue = (value: unknown) => (value instanceof Date ? value.toISOString() : value);
const same = (a: unknown, b: unknown) =>
  a instanceof Date || b instanceof Date
    ? (a as Date | null)?.getTime() === (b as Date | null)?.getTime()
    : JSON.stringify(a) === JSON.stringify(b);

/** What changed between the row and the new values, for the audit log; long texts are named only. */
export function drawChanges(before: DrawRow, after: Partial<DrawRow>, keyFields: ReadonlySet<string>) {
  const changed: string[] = [];
  const values: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of Object.keys(after) as (keyof DrawRow)[]) {
    if (same(before[field], after[field])) continue;
    changed.push(field);
    if (keyFields.has(field)) values[field] = { from: auditValue(before[field]), to: auditValue(after[field]) };
  }
  return { changed, values };
}
