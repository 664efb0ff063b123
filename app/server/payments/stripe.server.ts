import { createHash } from "node:crypto";
import Stripe from "stripe";
import {
  type BillingEvent,
  type MembershipBilling,
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

    async startPayment({ order, lines, successUrl, cancelUrl, expiresAt, idempotencyKey, saveCard }) {
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
          payment_intent_data: {
            metadata: { orderId: order.id, orderNumber: String(order.number) },
            // A membership that renews by itself keeps the card, for Stripe Billing to charge.
            ...(saveCard ? { setup_future_usage: "off_session" as const } : {}),
          },
          ...(saveCard ? { customer_creation: "always" as const } : {}),
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

    billing: stripeBilling(stripe),

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
    case "invoice.paid":
    case "invoice.payment_failed":
    case "customer.subscription.deleted":
      return { id: event.id, type: event.type, payment: null, billing: billingEventOf(event) };
    default:
      return { id: event.id, type: event.type, payment: null };
  }
}

/**
 * A subscription notification as memberships read it. Only renewals count as paid: the
 * subscription's first invoice (`subscription_create`) is the £0 one for the period already
 * paid at joining.
 */
function billingEventOf(event: Stripe.Event): BillingEvent | null {
  if (event.type === "customer.subscription.deleted") {
    return { kind: "subscription_ended", subscriptionId: event.data.object.id };
  }
  if (event.type !== "invoice.paid" && event.type !== "invoice.payment_failed") return null;
  const invoice = event.data.object;
  const subscription = invoice.parent?.subscription_details?.subscription;
  const subscriptionId = typeof subscription === "string" ? subscription : subscription?.id;
  if (!subscriptionId || !invoice.id) return null;
  if (event.type === "invoice.payment_failed") {
    const next = invoice.next_payment_attempt;
    return {
      kind: "renewal_failed",
      subscriptionId,
      invoiceId: invoice.id,
      nextAttemptAt: next ? new Date(next * 1000) : null,
    };
  }
  if (invoice.billing_reason !== "subscription_cycle" || invoice.amount_paid <= 0) return null;
  const paid = invoice.payments?.data.find((entry) => entry.status === "paid")?.payment.payment_intent;
  return {
    kind: "renewal_paid",
    subscriptionId,
    invoiceId: invoice.id,
    paymentReference: (typeof paid === "string" ? paid : paid?.id) ?? null,
    amount: invoice.amount_paid,
    currency: invoice.currency.toUpperCase(),
  };
}

/**
 * Memberships' renewals on Stripe Billing: a subscription per membership, on the card the
 * joining payment saved, first charged on the day the paid period ends (`billing_cycle_anchor`,
 * with the time until then not charged). Prices are found again by a lookup key made of what
 * they charge, so every membership of a tier at one price shares one Stripe price.
 */
function stripeBilling(stripe: Stripe): MembershipBilling {
  async function priceFor(price: { description: string; amount: number; currency: string; months: number }) {
    const yearly = price.months % 12 === 0;
    const interval = yearly ? ("year" as const) : ("month" as const);
    const count = yearly ? price.months / 12 : price.months;
    const name = createHash("sha256").update(price.description).digest("hex").slice(0, 12);
    const lookupKey = `pitlane-membership:${name}:${price.currency.toLowerCase()}:${price.amount}:${count}${interval}`;
    const found = await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
    if (found.data[0]) return found.data[0].id;
    const created = await stripe.prices.create(
      {
        currency: price.currency.toLowerCase(),
        unit_amount: price.amount,
        recurring: { interval, interval_count: count },
        product_data: { name: price.description },
        lookup_key: lookupKey,
      },
      { idempotencyKey: `price:${lookupKey}` },
    );
    return created.id;
  }
  const idOf = (value: string | { id: string } | null | undefined) => (typeof value === "string" ? value : value?.id);

  return {
    async subscribe({ membershipId, paymentReference, price, firstChargeAt }) {
      const intent = await stripe.paymentIntents.retrieve(paymentReference);
      const customer = idOf(intent.customer);
      const paymentMethod = idOf(intent.payment_method);
      if (!customer || !paymentMethod)
        throw new PermanentPaymentError("The joining payment saved no card for renewals");
      const anchor = Math.floor(firstChargeAt.getTime() / 1000);
      const subscription = await stripe.subscriptions.create(
        {
          customer,
          default_payment_method: paymentMethod,
          items: [{ price: await priceFor(price) }],
          billing_cycle_anchor: anchor,
          proration_behavior: "none",
          off_session: true,
          metadata: { membershipId },
        },
        // The first charge's date is part of the key: a membership whose date staff moved gets a
        // new subscription, not the stopped one back.
        { idempotencyKey: `membership-subscription:${membershipId}:${paymentReference}:${anchor}` },
      );
      return { subscriptionId: subscription.id };
    },
    async setRenewing(subscriptionId, renewing) {
      await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: !renewing });
    },
    async setPrice(subscriptionId, price) {
      const subscription = await stripe.subscriptions.retrieve(subscriptionId);
      const item = subscription.items.data[0];
      const priceId = await priceFor(price);
      if (!item || item.price.id === priceId) return;
      await stripe.subscriptions.update(subscriptionId, {
        items: [{ id: item.id, price: priceId }],
        proration_behavior: "none",
      });
    },
    async cancel(subscriptionId) {
      try {
        await stripe.subscriptions.cancel(subscriptionId);
      } catch (error) {
        // Already ended: there is nothing more to stop.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) return;
        throw error;
      }
    },
    async invoicePayment(invoiceId) {
      const invoice = await stripe.invoices.retrieve(invoiceId, { expand: ["payments"] });
      const paid = invoice.payments?.data.find((entry) => entry.status === "paid")?.payment.payment_intent;
      return idOf(paid) ?? null;
    },
  };
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
