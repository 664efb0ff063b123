import { and, eq, isNull, lt, type Placeholder, type SQL, sql } from "drizzle-orm";
import { type AlsoWhenPaid, type OrderToSettle, orderToSettleFromJson } from "~/features/commerce/settle.server";
import { orderToSettleSql } from "~/features/selling/selling.server";
import { builtOnce } from "~/server/db/built-once.server";
import type { Db } from "~/server/db/client.server";
import { type PaymentProvider, paymentEvents } from "../../../db/schema";

type PaymentEventKey = { provider: PaymentProvider; eventId: string };

/**
 * How long a delivery's claim on an event stands while it is handled. Another delivery of the
 * event (Stripe's retry, sent to another server) waits this long for the first to finish before
 * handling the event itself; handling takes well under a second, and settlement is idempotent, so
 * a claim left by a server that died only delays its event by this much.
 */
export const PAYMENT_EVENT_CLAIM_MS = 5_000;

export type ReceivedPaymentEvent =
  /**
   * This delivery claimed the event: the first one, or one after an earlier claim lapsed. With
   * `orderToSettle` asked for, the order as the same statement read it.
   */
  | { kind: "handle"; order?: OrderToSettle }
  /** An earlier delivery was handled to the end. */
  | { kind: "duplicate" }
  /** Another delivery claimed the event at `since` and has not finished yet. */
  | { kind: "claimed"; since: Date };

/**
 * Notes a provider notification (a Stripe webhook event) as received and says what this delivery
 * should do with it, in one statement. The record spares the work and the log noise of replays,
 * it is not what prevents double payment (settlement is idempotent): a delivery whose handling
 * failed gives its claim up (`releasePaymentEvent`), and a claim older than
 * PAYMENT_EVENT_CLAIM_MS is taken over, so an event is never left unhandled.
 *
 * `orderToSettle` names the order a payment is for: when this delivery claims the event, the same
 * statement reads the order as settlement needs it, sparing the payment a round trip of its own.
 */
export async function receivePaymentEvent(
  db: Db,
  input: PaymentEventKey & { type: string; now: Date; orderToSettle?: string },
): Promise<ReceivedPaymentEvent> {
  const lapsedBefore = new Date(input.now.getTime() - PAYMENT_EVENT_CLAIM_MS);
  const values = { provider: input.provider, eventId: input.eventId, type: input.type, now: input.now, lapsedBefore };
  const { rows } = input.orderToSettle
    ? await claimReadingOrderStatement(db, { ...values, orderId: input.orderToSettle })
    : await claimStatement(db, values);
  const row = rows[0]!;
  if (Number(row.claimed) > 0) {
    return input.orderToSettle ? { kind: "handle", order: orderToSettleFromJson(row.to_settle) } : { kind: "handle" };
  }
  if (row.processed_at) return { kind: "duplicate" };
  // Claimed by a delivery that committed after this statement began: it has only just started.
  return { kind: "claimed", since: row.received_at ? new Date(row.received_at as string) : input.now };
}

type ClaimValues = { provider: PaymentProvider; eventId: string; type: string; now: Date; lapsedBefore: Date };
type ClaimRow = { claimed: number; processed_at: unknown; received_at: unknown; to_settle?: unknown };

/** The claim of receivePaymentEvent, built once: every delivery of every notification runs it. */
const claimStatement = builtOnce<ClaimValues, ClaimRow>((db) => claimSql(db));

/** The claim, and when it is won, the order named by `orderId` as settlement reads it. */
const claimReadingOrderStatement = builtOnce<ClaimValues & { orderId: string }, ClaimRow>((db) =>
  claimSql(db, orderToSettleSql(sql.placeholder("orderId"), sql.placeholder("now"))),
);

function claimSql(db: Db, readWhenClaimed?: SQL) {
  const now = sql.placeholder("now");
  const key = { provider: sql.placeholder("provider"), eventId: sql.placeholder("eventId") };
  const claim = db
    .insert(paymentEvents)
    .values({ ...key, type: sql.placeholder("type"), receivedAt: now })
    .onConflictDoUpdate({
      target: [paymentEvents.provider, paymentEvents.eventId],
      set: { receivedAt: sql`${now}` },
      setWhere: and(isNull(paymentEvents.processedAt), lt(paymentEvents.receivedAt, sql.placeholder("lapsedBefore"))),
    })
    .returning({ eventId: paymentEvents.eventId });
  // The record as it was before this statement (a statement does not see its own writes).
  const earlier = db
    .select({ processedAt: paymentEvents.processedAt, receivedAt: paymentEvents.receivedAt })
    .from(paymentEvents)
    .where(keyOf(key));
  const read = readWhenClaimed
    ? sql`, case when exists (select 1 from claim) then ${readWhenClaimed} end as to_settle`
    : sql``;
  return sql`with claim as (${claim.getSQL()}), earlier as (${earlier.getSQL()})
      select (select count(*) from claim)::int as claimed, earlier.processed_at, earlier.received_at${read}
      from (select 1) as one left join earlier on true`;
}

/**
 * Waits for another delivery's claim on an event (`receivePaymentEvent` answered "claimed" to a
 * delivery received at `now`): "processed" once that delivery has handled it to the end, "free"
 * once the claim was given up or has lapsed, so this delivery can claim it. Asks often at first,
 * since handling usually ends within a few hundredths of a second, then less often; before each
 * question, `processedHere` says whether this server has been told already.
 */
export async function awaitPaymentEvent(
  db: Db,
  input: PaymentEventKey & { since: Date; now: Date; processedHere?: () => boolean },
): Promise<"processed" | "free"> {
  const waitFor = input.since.getTime() + PAYMENT_EVENT_CLAIM_MS - input.now.getTime();
  const started = performance.now();
  let pause = 25;
  for (let waited = 0; waited < waitFor; waited = performance.now() - started) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, waitFor - waited)));
    pause = Math.min(pause * 2, 200);
    // Told already (the server's notice that the event was processed): no need to ask.
    if (input.processedHere?.()) return "processed";
    const [event] = await db.select({ processedAt: paymentEvents.processedAt }).from(paymentEvents).where(keyOf(input));
    if (!event) return "free";
    if (event.processedAt) return "processed";
  }
  return "free";
}

export async function markPaymentEventProcessed(db: Db, input: PaymentEventKey & { now: Date }) {
  await db.update(paymentEvents).set({ processedAt: input.now }).where(keyOf(input));
}

/**
 * The event marked processed in the statement that pays its order, only once the order is paid
 * (settlement's AlsoWhenPaid): one statement fewer per payment, and one commit for both.
 */
export function paymentEventProcessedWhenPaid(input: PaymentEventKey & { now: Date }): AlsoWhenPaid {
  return {
    name: "payment event processed",
    write: (db, paid) =>
      db
        .update(paymentEvents)
        .set({ processedAt: sql`${sql.placeholder("eventProcessedAt")}::timestamptz` })
        .where(and(keyOf({ provider: sql.placeholder("eventProvider"), eventId: sql.placeholder("eventId") }), paid))
        .getSQL(),
    values: { eventProvider: input.provider, eventId: input.eventId, eventProcessedAt: input.now },
  };
}

/**
 * Gives up this delivery's claim on an event it failed to handle, so that the provider's next
 * attempt, or another delivery waiting on it, handles the event at once.
 */
export async function releasePaymentEvent(db: Db, input: PaymentEventKey) {
  await db.delete(paymentEvents).where(and(keyOf(input), isNull(paymentEvents.processedAt)));
}

function keyOf(input: { provider: PaymentProvider | Placeholder; eventId: string | Placeholder }) {
  return and(eq(paymentEvents.provider, input.provider), eq(paymentEvents.eventId, input.eventId));
}
