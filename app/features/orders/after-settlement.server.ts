import type { Runtime } from "~/server/runtime.server";

/**
 * The one place where what follows a paid order starts: the order confirmation email with its
 * e-tickets, and later draw entry numbers or merch fulfilment. Every settlement path calls it
 * once, for the settlement that paid the order, and never for a replayed notification (those
 * answer `already_settled`): the Stripe webhook, the test checkout, /return and the
 * reconciliation jobs. Nothing follows a payment yet; the email is added here.
 *
 * It runs after the settlement transaction has committed. Work added here should be enqueued as
 * a job (`runtime.jobs.enqueue`) rather than done inline, so a slow mail server never holds up
 * the buyer's page or the webhook. A crash between the commit and this call skips it (the order
 * is paid either way), so a follow-up that must never be missed should also be found by a sweep,
 * say of paid orders whose confirmation was never sent.
 */
export async function afterOrderSettled(_runtime: Pick<Runtime, "db" | "jobs" | "env">, _orderId: string) {}
