import Stripe from "stripe";
import {
  type PaymentGateway,
  type PaymentNotification,
  type PaymentState,
  PermanentPaymentError,
  WebhookSignatureError,
} from "./payments.server";

/**
 * Stripe refuses a Checkout Session that closes sooner than 30 minutes after it is made. A hold
 * shorter than that (the default is 15 minutes) gets a session of 31 minutes, a minute of margin
 * for clock drift, and the expire-holds job closes the session explicitly when the hold ends.
 */
const MIN_SESSION_SECONDS = 31 * 60;
const MAX_SESSION_SECONDS = 24 * 60 * 60 - 60;

export function stripeGateway(options: {
  secretKey: string;
  webhookSecret: string | null;
  /** Stripe's API at another address (STRIPE_API_URL); null for Stripe itself. */
  apiUrl?: string | null;
  /** Tests pass a client that never reaches the network. */
  client?: Stripe;
}): PaymentGateway {
  const stripe =
    options.client ??
    new Stripe(options.secretKey, { maxNetworkRetries: 2, timeout: 20_000, ...apiAddress(options.apiUrl) });

  return {
    provider: "stripe",

    async startPayment({ order, lines, successUrl, cancelUrl, expiresAt, idempotencyKey }) {
      const now = Math.floor(Date.now() / 1000);
      const holdEnds = Math.floor(expiresAt.getTime() / 1000);
      const expiresAtSeconds = Math.min(Math.max(holdEnds, now + MIN_SESSION_SECONDS), now + MAX_SESSION_SECONDS);
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: lines.map((line) => ({
            quantity: line.quantity,
            price_data: {
              currency: order.currency.toLowerCase(),
              unit_amount: line.unitAmount,
              product_data: { name: line.description },
            },
          })),
          client_reference_id: order.id,
          metadata: { orderId: order.id, orderNumber: String(order.number) },
          payment_intent_data: { metadata: { orderId: order.id, orderNumber: String(order.number) } },
          customer_email: order.email,
          expires_at: expiresAtSeconds,
          success_url: successUrl,
          cancel_url: cancelUrl,
        },
        // Stripe answers a repeated key with the first session only when the parameters match,
        // and the session's end depends on when a short hold's session is made: the end is
        // part of the key, so a retry either finds the same session or makes a fresh one.
        { idempotencyKey: `${idempotencyKey}:${expiresAtSeconds}` },
      );
      if (!session.url) throw new Error(`Stripe returned Checkout Session ${session.id} without a URL`);
      return { redirectUrl: session.url, sessionId: session.id };
    },

    async expirePayment(sessionId) {
      try {
        return paymentStateOf(await stripe.checkout.sessions.expire(sessionId));
      } catch (error) {
        // Only an open session can be expired: one already paid or closed answers with its state.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) {
          return paymentStateOf(await stripe.checkout.sessions.retrieve(sessionId));
        }
        throw error;
      }
    },

    async retrievePayment(sessionId) {
      return paymentStateOf(await stripe.checkout.sessions.retrieve(sessionId));
    },

    async refund({ order, paymentReference, amount, idempotencyKey }) {
      try {
        const refund = await stripe.refunds.create(
          {
            payment_intent: paymentReference,
            amount,
            metadata: { orderId: order.id, orderNumber: String(order.number) },
          },
          { idempotencyKey: `refund:${idempotencyKey}` },
        );
        return { reference: refund.id };
      } catch (error) {
        // Already refunded, more than was paid, an unknown payment: asking again will not help.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) {
          throw new PermanentPaymentError(error.message);
        }
        throw error;
      }
    },

    async cardFunding(paymentReference) {
      // A free order's reference is its session: no card paid.
      if (!paymentReference.startsWith("pi_")) return null;
      const intent = await stripe.paymentIntents.retrieve(paymentReference, { expand: ["latest_charge"] });
      const charge = typeof intent.latest_charge === "object" ? intent.latest_charge : null;
      return charge?.payment_method_details?.card?.funding ?? null;
    },

    parseWebhook(rawBody, signature) {
      if (!options.webhookSecret) throw new WebhookSignatureError("STRIPE_WEBHOOK_SECRET is not set");
      if (!signature) throw new WebhookSignatureError("The Stripe-Signature header is missing");
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
          throw new WebhookSignatureError(error.message);
        }
        throw error;
      }
      return notificationOf(event);
    },
  };
}

function apiAddress(apiUrl: string | null | undefined) {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? ("http" as const) : ("https" as const);
  return { host: url.hostname, port: url.port || (protocol === "http" ? 80 : 443), protocol };
}

function notificationOf(event: Stripe.Event): PaymentNotification {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
    case "checkout.session.async_payment_failed":
    case "checkout.session.expired":
      return { id: event.id, type: event.type, payment: paymentStateOf(event.data.object) };
    default:
      return { id: event.id, type: event.type, payment: null };
  }
}

export function paymentStateOf(session: Stripe.Checkout.Session): PaymentState {
  const settled = session.payment_status === "paid" || session.payment_status === "no_payment_required";
  const status: PaymentState["status"] =
    session.status === "expired" ? "expired" : session.status === "complete" ? (settled ? "paid" : "unpaid") : "open";
  const intent = typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
  return {
    sessionId: session.id,
    status,
    orderId: session.client_reference_id ?? session.metadata?.orderId ?? null,
    // A free order has no PaymentIntent: its session is the reference.
    paymentReference: intent ?? (status === "paid" ? session.id : null),
    amount: session.amount_total,
    currency: session.currency ? session.currency.toUpperCase() : null,
    redirectUrl: status === "open" ? session.url : null,
  };
}
