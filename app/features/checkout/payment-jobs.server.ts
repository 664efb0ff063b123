import { expireHolds } from "~/features/commerce/holds.server";
import { afterOrderSettled } from "~/features/orders/after-settlement.server";
import { enqueueOrderEmail, ordersAwaitingConfirmation } from "~/features/orders/order-email.server";
import { enqueueRefusedPaymentEmail } from "~/features/orders/refused-payment-email.server";
import { sendPendingRefunds } from "~/features/orders/send-refunds.server";
import type { Db } from "~/server/db/client.server";
import { defineJob, type JobQueue } from "~/server/jobs/queue.server";
import { getLog } from "~/server/log.server";
import type { PaymentGateway } from "~/server/payments/payments.server";
import type { PaymentFollowUps } from "./payment-follow-ups";
import { closeExpiredPayments, reconcilePayments } from "./reconcile.server";

/** What the payment jobs work with, handed to them by the composition root. */
export type PaymentServices = { db: Db; jobs: Pick<JobQueue, "enqueue">; payments: PaymentGateway };

/**
 * The payment housekeeping jobs. Each queue is `stately` (pg-boss lets at most one job wait and
 * one run across every instance), so any number of app servers can run workers without two runs
 * overlapping; and every step is safe to repeat anyway (conditional updates, idempotent
 * settlement, idempotency keys at the provider).
 */

/**
 * Every minute: closes the provider sessions of orders whose hold ran out (settling any that were
 * paid at the last moment), then expires every other unpaid order past its hold.
 */
const expireHoldsJob = defineJob<object, PaymentServices>({
  name: "expire-holds",
  expireInSeconds: 600,
  schedule: "* * * * *",
  policy: "stately",
  retryLimit: 2,
  retryDelay: 10,
  handler: async (_data, services) => {
    const now = new Date();
    const closed = await closeExpiredPayments(services.db, services.payments, { now });
    const { expired } = await expireHolds(services.db, now, { leaveSessionsOf: services.payments.provider });
    await followUpPayments(services, closed.followUps);
    logSweep("expire-holds", { ...closed, expired: closed.expired + expired });
  },
});

/** Every five minutes: settles or expires pending orders whose payment notification never came. */
const reconcilePaymentsJob = defineJob<object, PaymentServices>({
  name: "reconcile-payments",
  expireInSeconds: 600,
  schedule: "*/5 * * * *",
  policy: "stately",
  retryLimit: 2,
  retryDelay: 30,
  handler: async (_data, services) => {
    const now = new Date();
    const sweep = await reconcilePayments(services.db, services.payments, { now });
    await followUpPayments(services, sweep.followUps);
    for (const orderId of await ordersAwaitingConfirmation(services.db, now)) {
      await enqueueOrderEmail(services.jobs, orderId);
    }
    logSweep("reconcile-payments", sweep);
  },
});

/**
 * Sends pending refunds to the provider. Sent when a refund is recorded, and every ten minutes as
 * a sweep, so a refund recorded just before a crash is still sent. A provider that cannot be
 * reached fails the job, and pg-boss retries it with a growing delay.
 */
const sendRefundsJob = defineJob<object, PaymentServices>({
  name: "send-refunds",
  expireInSeconds: 600,
  schedule: "*/10 * * * *",
  policy: "stately",
  retryLimit: 6,
  retryDelay: 30,
  handler: async (_data, { db, payments }) => {
    const run = await sendPendingRefunds(db, payments, { now: new Date() });
    const log = getLog();
    if (run.sent > 0 || run.failed > 0) log.info({ sent: run.sent, failed: run.failed }, "refunds sent");
    if (run.retry.length > 0) {
      log.warn({ err: run.retry[0]!.error, waiting: run.retry.length }, "refunds could not be sent yet");
      throw new Error(`${run.retry.length} refund(s) could not be sent yet`);
    }
  },
});

export const paymentJobs = [expireHoldsJob, reconcilePaymentsJob, sendRefundsJob];

/**
 * Run once when a server starts: a server that was stopped or killed may have missed payment
 * notifications (Stripe retries them, but only after a growing delay) and left paid orders
 * unconfirmed, so every pending payment session is checked with the provider now rather than at
 * the next sweep, and every paid order still without its confirmation is queued. Everything it
 * does is idempotent, so servers starting together, or racing a notification, change nothing.
 * It never throws: the scheduled sweeps try again.
 */
export async function catchUpAfterStart(runtime: PaymentServices) {
  const log = getLog();
  try {
    const now = new Date();
    const sweep = await reconcilePayments(runtime.db, runtime.payments, { now, afterMinutes: 0 });
    await followUpPayments(runtime, sweep.followUps);
    const unconfirmed = await ordersAwaitingConfirmation(runtime.db, now, { afterMinutes: 0 });
    for (const orderId of unconfirmed) await enqueueOrderEmail(runtime.jobs, orderId);
    logSweep("catch-up after start", sweep);
    if (unconfirmed.length > 0) log.info({ orders: unconfirmed.length }, "order confirmations queued after start");
  } catch (error) {
    log.warn({ err: error }, "payments could not be checked after start; the scheduled sweep will");
  }
}

/** Asks for the pending refunds to be sent now (staff refunds call this after recording theirs). */
export async function queueRefunds(jobs: Pick<JobQueue, "enqueue">) {
  await jobs.enqueue(sendRefundsJob, {});
}

/**
 * What follows a handled payment, after its transaction committed: each newly paid order's
 * follow-ups, the buyer's email for each refused payment, and the refund job when a refund was
 * recorded. It never throws: the payment is
 * settled whatever happens here, and a retry of the request would find it settled and follow up
 * nothing, so a failure is logged for staff (and the refund sweep still finds the refund).
 */
export async function followUpPayments(runtime: Pick<PaymentServices, "db" | "jobs">, followUps: PaymentFollowUps) {
  const log = getLog();
  for (const orderId of followUps.settledOrderIds) {
    await afterOrderSettled(runtime, orderId).catch((error: unknown) =>
      log.error({ err: error, orderId }, "follow-up of a paid order failed"),
    );
  }
  for (const orderId of followUps.refusedOrderIds) {
    await enqueueRefusedPaymentEmail(runtime.jobs, orderId).catch((error: unknown) =>
      log.error({ err: error, orderId }, "could not queue the email about a refused payment"),
    );
  }
  if (followUps.refundsDue) {
    await queueRefunds(runtime.jobs).catch((error: unknown) =>
      log.warn({ err: error }, "could not queue the refund job; its sweep will send the refund"),
    );
  }
}

function logSweep(job: string, sweep: { checked: number; settled: number; expired: number; errors: unknown[] }) {
  const log = getLog();
  if (sweep.settled > 0 || sweep.expired > 0) {
    log.info({ job, settled: sweep.settled, expired: sweep.expired }, "payments swept");
  }
  if (sweep.errors.length > 0) {
    const first = sweep.errors[0] as { orderId: string; error: unknown };
    log.warn(
      { job, err: first.error, orderId: first.orderId, failed: sweep.errors.length },
      "payment provider could not be reached; trying again on the next run",
    );
  }
}
