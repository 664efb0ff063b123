import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { type PaymentProvider, paymentEvents } from "../../../db/schema";

type PaymentEventKey = { provider: PaymentProvider; eventId: string };

/**
 * Notes a provider notification (a Stripe webhook event) as received and says whether it still
 * needs handling: "duplicate" once an earlier delivery was handled to the end. A delivery that
 * failed half-way is handled again, which is safe because settlement is idempotent; this record
 * spares the work and the log noise of replays, it is not what prevents double payment.
 */
export async function receivePaymentEvent(
  db: Db,
  input: PaymentEventKey & { type: string; now: Date },
): Promise<"handle" | "duplicate"> {
  // One statement: the record of an earlier delivery (its processed_at), or none when this is the
  // first, or when the first is still being handled (then this one is handled too, harmlessly).
  const insert = db
    .insert(paymentEvents)
    .values({ provider: input.provider, eventId: input.eventId, type: input.type, receivedAt: input.now })
    .onConflictDoNothing();
  const earlier = db.select({ processedAt: paymentEvents.processedAt }).from(paymentEvents).where(keyOf(input));
  const result = (await db.execute(sql`with received as (${insert.getSQL()}) ${earlier.getSQL()}`)) as unknown as {
    rows: { processed_at: unknown }[];
  };
  return result.rows[0]?.processed_at ? "duplicate" : "handle";
}

export async function markPaymentEventProcessed(db: Db, input: PaymentEventKey & { now: Date }) {
  await db.update(paymentEvents).set({ processedAt: input.now }).where(keyOf(input));
}

function keyOf(input: PaymentEventKey) {
  return and(eq(paymentEvents.provider, input.provider), eq(paymentEvents.eventId, input.eventId));
}
