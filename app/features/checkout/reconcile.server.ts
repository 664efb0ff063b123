import { and, asc, eq, gt, inArray, isNotNull, lte, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "~/server/db/client.server";
import type { PaymentGateway, PaymentState } from "~/server/payments/payments.server";
import { orders } from "../../../db/schema";
import { mergeFollowUps, NO_FOLLOW_UPS, type PaymentFollowUps } from "./payment-follow-ups";
import { applyPaymentState } from "./payment-state.server";

/** A payment session younger than this is left alone: its buyer may be paying right now. */
const RECONCILE_AFTER_MINUTES = 2;

/**
 * How long a bank payment that was still on its way when its hold ended is waited for (Bacs and
 * SEPA debits confirm within days; a failure can take longer to be reported).
 */
export const BANK_PAYMENT_WAIT_DAYS = 14;

export type SessionSweep = {
  /** Orders looked at. */
  checked: number;
  settled: number;
  expired: number;
  /** Sessions the provider could not be asked about this time; the next run tries again. */
  errors: { orderId: string; error: unknown }[];
  followUps: PaymentFollowUps;
};

type DueOrder = { id: string; sessionId: string; awaitingBank: boolean };

/**
 * Closes the payment sessions of pending orders whose hold has run out (the expire-holds job).
 * Stripe keeps a Checkout Session open for at least 30 minutes, longer than the 15-minute hold, so
 * it is expired explicitly when the hold ends. The answer says whether the buyer paid just before:
 * then the payment is settled under the late-payment rules (ADR 0008); otherwise the order
 * expires. An order whose session could not be closed stays pending (its places are already
 * free, since holds count only until they expire) and is tried again on the next run.
 */
export async function closeExpiredPayments(
  db: Db,
  gateway: PaymentGateway,
  input: { now: Date; limit?: number },
): Promise<SessionSweep> {
  const due = await ordersWithSessions(db, gateway, {
    where: and(eq(orders.status, "pending"), lte(orders.holdExpiresAt, input.now)),
    oldestFirst: orders.holdExpiresAt,
    limit: input.limit,
    awaitingBank: false,
  });
  const bankPayments: string[] = [];
  const result = await sweep(db, gateway, due, input.now, async (order) => {
    const state = await gateway.expirePayment(order.sessionId);
    if (state.status === "unpaid") bankPayments.push(order.id);
    // Closed, or finished by a bank payment still on its way: either way the hold is over. A
    // bank payment that succeeds later is settled by its own notification, under the late
    // rules; should that notification be lost, reconcilePayments keeps asking until it is due.
    return state.status === "paid" ? state : { ...state, status: "expired" };
  });
  if (bankPayments.length > 0) {
    await db
      .update(orders)
      .set({ bankPaymentDueBy: new Date(input.now.getTime() + BANK_PAYMENT_WAIT_DAYS * 86_400_000) })
      .where(and(inArray(orders.id, bankPayments), eq(orders.status, "expired")));
  }
  return result;
}

/**
 * Catches payments whose notification never came (a webhook lost, or the server killed between
 * the payment and its settlement): every pending order with a payment session older than a couple
 * of minutes is checked with the provider, and settled or expired as the provider says. Runs
 * every few minutes; settlement is idempotent, so racing the webhook is harmless.
 */
export async function reconcilePayments(
  db: Db,
  gateway: PaymentGateway,
  input: {
    now: Date;
    limit?: number;
    /** Sessions younger than this are left alone (0 after a restart: any notification sent meanwhile is lost). */
    afterMinutes?: number;
  },
): Promise<SessionSweep> {
  const startedBefore = new Date(input.now.getTime() - (input.afterMinutes ?? RECONCILE_AFTER_MINUTES) * 60_000);
  const pending = await ordersWithSessions(db, gateway, {
    where: and(eq(orders.status, "pending"), lte(orders.createdAt, startedBefore)),
    oldestFirst: orders.createdAt,
    limit: input.limit,
    awaitingBank: false,
  });
  // Bank payments still on their way when their hold ended, whose news has not come yet: asked
  // about in a list of their own, so a backlog of them never crowds out the pending orders.
  const awaitingBank = await ordersWithSessions(db, gateway, {
    where: and(eq(orders.status, "expired"), gt(orders.bankPaymentDueBy, input.now)),
    oldestFirst: orders.bankPaymentDueBy,
    limit: input.limit,
    awaitingBank: true,
  });
  return sweep(db, gateway, [...pending, ...awaitingBank], input.now, (order) =>
    gateway.retrievePayment(order.sessionId),
  );
}

/** The provider's orders with a payment session that match `where`, oldest first by the column given. */
async function ordersWithSessions(
  db: Db,
  gateway: PaymentGateway,
  input: { where: SQL | undefined; oldestFirst: AnyPgColumn; limit?: number; awaitingBank: boolean },
): Promise<DueOrder[]> {
  const rows = await db
    .select({ id: orders.id, sessionId: orders.providerSessionId })
    .from(orders)
    .where(and(eq(orders.provider, gateway.provider), isNotNull(orders.providerSessionId), input.where))
    .orderBy(asc(input.oldestFirst))
    .limit(input.limit ?? 200);
  return rows.map((row) => ({ id: row.id, sessionId: row.sessionId!, awaitingBank: input.awaitingBank }));
}

/** One provider call per order, one after another: a provider's rate limit is never a reason to fail. */
async function sweep(
  db: Db,
  gateway: PaymentGateway,
  due: DueOrder[],
  now: Date,
  ask: (order: DueOrder) => Promise<PaymentState>,
): Promise<SessionSweep> {
  const result: SessionSweep = { checked: due.length, settled: 0, expired: 0, errors: [], followUps: NO_FOLLOW_UPS };
  for (const order of due) {
    let state: PaymentState;
    try {
      state = await ask(order);
    } catch (error) {
      result.errors.push({ orderId: order.id, error });
      continue;
    }
    if (order.awaitingBank) {
      // Still on its way: ask again next time. Arrived: settled under the late-payment rules
      // (honoured while places remain, otherwise refunded). Either way, or closed: no more asking.
      if (state.status === "unpaid" || state.status === "open") continue;
      if (state.status === "expired") {
        await stopAwaitingBank(db, order.id);
        continue;
      }
    }
    const applied = await applyPaymentState(db, { orderId: order.id, provider: gateway.provider, state, now, gateway });
    // Only once the payment is settled (an error above leaves it to be asked about again).
    if (order.awaitingBank) await stopAwaitingBank(db, order.id);
    if (applied.outcome.kind === "settlement" && applied.outcome.settlement.kind === "settled") result.settled++;
    if (applied.outcome.kind === "expired") result.expired++;
    result.followUps = mergeFollowUps(result.followUps, applied.followUps);
  }
  return result;
}

async function stopAwaitingBank(db: Db, orderId: string) {
  await db.update(orders).set({ bankPaymentDueBy: null }).where(eq(orders.id, orderId));
}
