import {
  awaitPaymentEvent,
  markPaymentEventProcessed,
  paymentEventProcessedWhenPaid,
  receivePaymentEvent,
  releasePaymentEvent,
} from "~/features/checkout/payment-events.server";
import type { OrderToSettle } from "~/features/commerce/settle.server";
import { isOrderId } from "~/features/orders/order-id";
import type { Db } from "~/server/db/client.server";
import {
  type BillingEvent,
  type PaymentGateway,
  type PaymentNotification,
  WebhookSignatureError,
} from "~/server/payments/payments.server";
import { NO_FOLLOW_UPS, type PaymentFollowUps } from "./payment-follow-ups";
import {
  type AppliedPaymentState,
  applyPaymentState,
  failPayment,
  isOrdersSession,
  orderIdForSession,
  type PaymentStateOutcome,
} from "./payment-state.server";

const UNCHANGED: AppliedPaymentState = { outcome: { kind: "unchanged" }, followUps: NO_FOLLOW_UPS };

export type NotificationResult =
  /** The signature did not verify: answered 400 and nothing is written. */
  | { kind: "refused"; message: string }
  /** Handled to the end before: acknowledged, no effect. */
  | { kind: "duplicate"; eventId: string }
  /**
   * A type the order flow does not act on, or a session that is not one of this site's orders;
   * `billing` carries a subscription notification, for memberships to act on.
   */
  | { kind: "ignored"; eventId: string; type: string; billing?: BillingEvent }
  | { kind: "handled"; eventId: string; type: string; outcome: PaymentStateOutcome; followUps: PaymentFollowUps };

/**
 * Handles one provider notification (the Stripe webhook), given the request's raw body and
 * signature header. Notifications are verified and idempotent, and a
 * repeated or out-of-order one never pays, issues or emails twice:
 * - the signature is checked on the raw bytes before anything else; a bad one writes nothing;
 * - the event id is recorded, and an event already handled to the end is acknowledged at once;
 * - a delivery that arrives while another, on this server or another, is handling the event waits
 *   for it and is acknowledged as a duplicate; it handles the event itself only if that one
 *   failed or stopped answering (payment-events.server.ts);
 * - settlement itself is idempotent per payment, so two different events about one payment
 *   (`completed`, then `async_payment_succeeded`) settle it once.
 * An error thrown from here leaves the event unprocessed, so the provider's retry handles it again.
 */
export async function handlePaymentNotification(
  db: Db,
  gateway: PaymentGateway,
  input: { rawBody: string | Uint8Array; signature: string | null; now: Date },
): Promise<NotificationResult> {
  let notification: PaymentNotification;
  try {
    notification = gateway.parseWebhook(input.rawBody, input.signature);
  } catch (error) {
    if (error instanceof WebhookSignatureError) return { kind: "refused", message: error.message };
    throw error;
  }
  const { id: eventId, type, payment, billing } = notification;
  if (!payment) return billing ? { kind: "ignored", eventId, type, billing } : { kind: "ignored", eventId, type };

  // Another delivery of this very event is being handled in this process: wait for it and answer
  // as a duplicate, instead of doing the same work beside it. If that one fails, this one fails
  // too, and the provider sends the event again.
  const flight = eventKey(gateway.provider, eventId);
  const running = inFlight.get(flight);
  if (running) {
    await running;
    return { kind: "duplicate", eventId };
  }
  // Handled to the end by this process already: the database says so too, for good.
  const handled = handledHere(db);
  if (handled.has(flight)) return { kind: "duplicate", eventId };
  const handling = handleVerified(db, gateway, { eventId, type, payment, now: input.now });
  inFlight.set(flight, handling);
  try {
    const result = await handling;
    remember(handled, flight);
    return result;
  } finally {
    inFlight.delete(flight);
  }
}

/** Notifications being handled by this process, by provider and event id. */
const inFlight = new Map<string, Promise<NotificationResult>>();

/**
 * Notifications this process has handled to the end (their event is recorded as processed), per
 * database and oldest first, so that the provider's repeats of them are answered without a query.
 * Bounded: an event forgotten here is still found as processed in the database.
 */
const handledByDatabase = new WeakMap<Db, Set<string>>();
const HANDLED_REMEMBERED = 10_000;

function handledHere(db: Db) {
  const known = handledByDatabase.get(db);
  if (known) return known;
  const handled = new Set<string>();
  handledByDatabase.set(db, handled);
  return handled;
}

function remember(handled: Set<string>, flight: string) {
  handled.add(flight);
  if (handled.size > HANDLED_REMEMBERED) handled.delete(handled.values().next().value!);
}

/**
 * An event as this process remembers it, and as PostgreSQL's notice names it (migration 0019
 * builds the same `provider:event id`).
 */
function eventKey(provider: string, eventId: string) {
  return `${provider}:${eventId}`;
}

/** Where PostgreSQL tells every server that an event was marked processed (migration 0019). */
export const PAYMENT_EVENTS_CHANNEL = "payment_events";

/**
 * Remembers an event another server (or another delivery) has handled to the end, from the notice
 * PostgreSQL sends every server when an event is marked processed (payload `provider:event id`):
 * the provider's repeats of it that reach this server are then answered without a query, and a
 * delivery waiting for it stops waiting.
 */
export function rememberProcessedPaymentEvent(db: Db, notice: string) {
  if (notice.includes(":")) remember(handledHere(db), notice);
}

async function handleVerified(
  db: Db,
  gateway: PaymentGateway,
  input: { eventId: string; type: string; payment: NonNullable<PaymentNotification["payment"]>; now: Date },
): Promise<NotificationResult> {
  const { eventId, type } = input;
  const key = { provider: gateway.provider, eventId };
  // A payment's order is read in the statement that claims its event (one round trip fewer).
  const { orderId } = input.payment;
  const orderToSettle = SETTLING_TYPES.has(type) && isOrderId(orderId) ? orderId : undefined;
  const claimed = await claimPaymentEvent(db, { ...key, type, now: input.now, orderToSettle });
  if (!claimed) return { kind: "duplicate", eventId };
  try {
    return await settleNotification(db, gateway, { ...input, found: claimed.order });
  } catch (error) {
    // Given up at once, so the provider's next attempt (or a delivery waiting on this one) handles it.
    await releasePaymentEvent(db, key).catch(() => undefined);
    throw error;
  }
}

/**
 * Claims an event for this delivery: false when an earlier delivery handled it to the end. When
 * another delivery is handling it (often on another server: the provider's repeats arrive
 * together), this one waits for that to end rather than doing the same work beside it, and
 * claims the event itself only if that delivery failed or its claim lapsed.
 */
async function claimPaymentEvent(
  db: Db,
  input: Parameters<typeof receivePaymentEvent>[1],
): Promise<{ order?: OrderToSettle } | null> {
  const started = performance.now();
  const handled = handledHere(db);
  const flight = eventKey(input.provider, input.eventId);
  // A claim is taken over at the latest once it lapses; three rounds cover a delivery that gave
  // its claim up and another that took it and died, and then this one handles the event anyway.
  for (let round = 0; round < 3; round++) {
    const now = new Date(input.now.getTime() + (performance.now() - started));
    const received = await receivePaymentEvent(db, { ...input, now });
    if (received.kind === "handle") return { order: received.order };
    if (received.kind === "duplicate") return null;
    const waited = await awaitPaymentEvent(db, {
      ...input,
      since: received.since,
      now,
      processedHere: () => handled.has(flight),
    });
    if (waited === "processed") return null;
  }
  return {};
}

/** The notifications that settle a payment (the others end or fail an order). */
const SETTLING_TYPES = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"]);

async function settleNotification(
  db: Db,
  gateway: PaymentGateway,
  input: {
    eventId: string;
    type: string;
    payment: NonNullable<PaymentNotification["payment"]>;
    now: Date;
    /** The order, when the claim read it. */
    found?: OrderToSettle;
  },
): Promise<NotificationResult> {
  const { eventId, type, payment } = input;
  const key = { provider: gateway.provider, eventId };
  // The session names its order (we set it when starting the payment); a session made by some other
  // integration on the same account may carry a reference of its own, which is not an order id.
  const orderId = isOrderId(payment.orderId)
    ? payment.orderId
    : await orderIdForSession(db, gateway.provider, payment.sessionId);
  let applied: AppliedPaymentState | null = null;
  if (orderId) {
    switch (type) {
      case "checkout.session.completed":
      case "checkout.session.async_payment_succeeded":
        // `completed` with an unpaid session is a bank payment still on its way: its own
        // notification (succeeded or failed) follows.
        applied = await applyPaymentState(db, {
          orderId,
          provider: gateway.provider,
          state: payment,
          now: input.now,
          gateway,
          found: input.found,
          // The event is marked processed in the commit that pays the order.
          alsoWhenPaid: paymentEventProcessedWhenPaid({ ...key, now: input.now }),
        });
        break;
      // A session that closed unpaid ends its order only if it is the order's own session: one
      // left over from a double-clicked Pay (closed at once by startOrderPayment) must not end
      // the order its buyer is still paying through the other.
      case "checkout.session.async_payment_failed":
        if (await isOrdersSession(db, orderId, payment.sessionId)) {
          applied = await failPayment(db, { orderId, now: input.now });
        } else applied = UNCHANGED;
        break;
      case "checkout.session.expired":
        if (await isOrdersSession(db, orderId, payment.sessionId)) {
          applied = await applyPaymentState(db, {
            orderId,
            provider: gateway.provider,
            state: { ...payment, status: "expired" },
            now: input.now,
          });
        } else applied = UNCHANGED;
        break;
    }
  }
  const markedWithPayment = applied?.outcome.kind === "settlement" && applied.outcome.settlement.kind === "settled";
  if (!markedWithPayment) await markPaymentEventProcessed(db, { ...key, now: input.now });
  // A session made outside this site (another integration on the same Stripe account).
  if (!applied) return { kind: "ignored", eventId, type };
  return { kind: "handled", eventId, type, outcome: applied.outcome, followUps: applied.followUps };
}
