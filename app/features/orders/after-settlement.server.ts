import { settleHandBacksAfter } from "~/features/transfers/hand-backs.server";
import type { Db } from "~/server/db/client.server";
import type { JobQueue } from "~/server/jobs/queue.server";
import { enqueueOrderEmail } from "./order-email.server";

/**
 * The one place where what follows a paid order starts: the order confirmation email with its
 * e-tickets, and later draw entry numbers or merch fulfilment. Every settlement path calls it
 * once, for the settlement that paid the order, and never for a replayed notification (those
 * answer `already_settled`): the Stripe webhook, the test checkout, /return and the
 * reconciliation jobs. Today that is the order confirmation email.
 *
 * It runs after the settlement transaction has committed. Work added here should be enqueued as
 * a job (`runtime.jobs.enqueue`) rather than done inline, so a slow mail server never holds up
 * the buyer's page or the webhook. A crash between the commit and this call skips it (the order
 * is paid either way), so the reconciliation sweep also queues the confirmation of any paid order
 * that has none (`ordersAwaitingConfirmation`); the email itself is sent once whoever asks.
 * An order that took places handed back for resale also settles those hand-backs (their
 * minute-by-minute job catches up after a crash).
 */
export async function afterOrderSettled(runtime: { db: Db; jobs: Pick<JobQueue, "enqueue"> }, orderId: string) {
  await enqueueOrderEmail(runtime.jobs, orderId);
  await settleHandBacksAfter(runtime, orderId);
}
