import { eq, sql } from "drizzle-orm";
import { gone, type NotFound, type Refusal, refuse } from "~/features/forms/refusal";
import type { Db } from "~/server/db/client.server";
import { events, ticketTypes } from "../../../../db/schema";

// What every organizer change to an event shares: the answers it may give besides success, and
// the lock that opens it. Each change runs in one transaction with its audit entry, and rules
// that could race (capacity against tickets sold, unique addresses) are settled by row locks
// and the unique index, not by a check beforehand.

export type { NotFound, Refusal };
export { refuse };

export const notFound = (what = "This event") => gone(what);

const CANCELLED = "This event was cancelled, so it can no longer change. Duplicate it to run it again.";

type EventRow = typeof events.$inferSelect;

/** Why an event cannot change any more, or null when it can. */
export function notEditable(event: Pick<EventRow, "status"> | undefined, whenCancelled = CANCELLED) {
  if (!event) return notFound();
  return event.status === "cancelled" ? refuse("", whenCancelled) : null;
}

/**
 * Opens every organizer change to an event: locks its row until the transaction ends (so its
 * dates, status and capacity hold, and a sale that locks it waits) and checks it still exists and
 * is not cancelled. `whenCancelled` words the refusal for changes that say it differently.
 */
export async function lockEditableEvent(
  tx: Db,
  eventId: string,
  options: { whenCancelled?: string } = {},
): Promise<{ ok: true; event: EventRow } | Refusal | NotFound> {
  const [event] = await tx.select().from(events).where(eq(events.id, eventId)).for("update");
  return notEditable(event, options.whenCancelled) ?? { ok: true, event: event! };
}

export async function ticketsSold(db: Db, eventId: string) {
  const [row] = await db
    .select({ sold: sql<number>`coalesce(sum(${ticketTypes.sold}), 0)::int` })
    .from(ticketTypes)
    .where(eq(ticketTypes.eventId, eventId));
  return row?.sold ?? 0;
}
