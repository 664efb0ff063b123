import { getLog } from "~/server/log.server";
import type { BillingEvent } from "~/server/payments/payments.server";
import { followUpPayments, type PaymentServices } from "./payment-jobs.server";
import { handlePaymentNotification } from "./payment-notifications.server";

/** What the provider is answered: a 2xx tells it to stop sending the event, anything else to retry. */
export type NotificationAnswer = { status: 200 | 400; body: { received: true; result: string } | { error: string } };

/**
 * Answers one POST of the provider's payment notifications (docs/payments.md lists the events to
 * enable), given its body as raw bytes, exactly as sent, since the signature is over those bytes.
 * The signature replaces the Origin check that guards every other POST (ADR 0004). Handling is
 * idempotent, so the provider's retries after an error are safe.
 */
export async function answerPaymentNotification(
  services: PaymentServices,
  request: { rawBody: Uint8Array; signature: string | null },
  /** What memberships do with a subscription notification (Stripe Billing), from the composition root. */
  onBilling?: (event: BillingEvent, now: Date) => Promise<unknown>,
): Promise<NotificationAnswer> {
  const now = new Date();
  const result = await handlePaymentNotification(services.db, services.payments, { ...request, now });
  const log = getLog();
  if (result.kind === "refused") {
    log.warn({ reason: result.message }, "payment notification refused: bad signature");
    return { status: 400, body: { error: "Invalid signature" } };
  }
  // Safe to receive again: an error answers 500 below and Stripe sends it once more.
  if (result.kind === "ignored" && result.billing && onBilling) {
    await onBilling(result.billing, now);
    log.info({ event: result.eventId, type: result.type }, "subscription notification handled");
  }
  if (result.kind === "handled") {
    log.info({ event: result.eventId, type: result.type, outcome: result.outcome }, "payment notification handled");
    await followUpPayments(services, result.followUps);
  }
  return { status: 200, body: { received: true, result: result.kind } };
}
