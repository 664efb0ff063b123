import { and, eq } from "drizzle-orm";
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
  await db
    .insert(paymentEvents)
    .values({ provider: input.provider, eventId: input.eventId, type: input.type, receivedAt: input.now })
    .onConflictDoNothing();
  const [row] = await db.select({ processedAt: paymentEvents.processedAt }).from(paymentEvents).where(keyOf(input));
  return row?.processedAt ? "duplicate" : "handle";
}

export async function markPaymentEventProcessed(db: Db, input: PaymentEventKey & { now: Date }) {
  await db.update(paymentEvents).set({ processedAt: input.now }).where(keyOf(input));
}

function keyOf(input: PaymentEventKey) {
  return and(eq(paymentEvents.provider, input.provider), eq(paymentEvents.eventId, input.eventId));
}
