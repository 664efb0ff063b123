import type { PaymentProvider } from "../../../db/schema";

/** One line of what the buyer pays for, from the order's price snapshot. */
type PaymentLine = { description: string; unitAmount: number; quantity: number };

export type StartPaymentInput = {
  order: { id: string; number: number; email: string; currency: string; total: number };
  lines: PaymentLine[];
  /** Where the provider sends the buyer after paying (our /return). */
  successUrl: string;
  /** Where the provider sends a buyer who gives up. */
  cancelUrl: string;
  /** When the order's hold runs out: the provider's page should stop taking money then. */
  expiresAt: Date;
  /** The same key for a repeated request about the same order attempt, so it makes one session. */
  idempotencyKey: string;
  /**
   * Keep the paying card for later charges the buyer agreed to: the order joins a membership that
   * renews by itself.
   */
  saveCard?: boolean;
};

type PaymentSession = { redirectUrl: string; sessionId: string };

/**
 * Where a provider's payment session stands:
 * - `open`: the buyer can still pay;
 * - `paid`: the money is taken (`paymentReference` and `amount` say which and how much);
 * - `unpaid`: the buyer finished but the money has not arrived yet (bank debits); a later
 *   notification says whether it did;
 * - `expired`: closed without payment; it can never be paid.
 */
export type PaymentState = {
  sessionId: string;
  status: "open" | "paid" | "unpaid" | "expired";
  orderId: string | null;
  paymentReference: string | null;
  amount: number | null;
  currency: string | null;
  /** The provider's page, while the session is open. */
  redirectUrl: string | null;
};

/** A verified provider notification, reduced to what the order flow needs. */
export type PaymentNotification = {
  id: string;
  type: string;
  /** For the checkout-session notifications this site acts on; null for any other type. */
  payment: PaymentState | null;
  /** For the subscription notifications memberships act on (Stripe Billing); absent otherwise. */
  billing?: BillingEvent | null;
};

/**
 * What the provider's subscriptions tell memberships: a renewal was paid, a renewal's payment
 * failed (the provider tries again at `nextAttemptAt`, or has given up when null), or the
 * subscription ended (the member stopped it, or the provider gave up on its payments).
 */
export type BillingEvent =
  | {
      kind: "renewal_paid";
      subscriptionId: string;
      invoiceId: string;
      /** The payment to refund it by, when the notification names it. */
      paymentReference: string | null;
      amount: number;
      currency: string;
    }
  | { kind: "renewal_failed"; subscriptionId: string; invoiceId: string; nextAttemptAt: Date | null }
  | { kind: "subscription_ended"; subscriptionId: string };

/** A recurring price: `amount` every `months` months. */
type RecurringPrice = { description: string; amount: number; currency: string; months: number };

/**
 * Memberships' renewals through the provider's subscriptions (Stripe Billing). The site keeps
 * the rules (reminders, grace, lapse, cooling-off) and its own records; the provider keeps the
 * card and charges it on the renewal dates, trying failed payments again by its own schedule.
 */
export type MembershipBilling = {
  /**
   * Starts renewals for a membership just paid for, charging the card that paid
   * (`paymentReference`) `price` from `firstChargeAt` (the membership's paid-until) on.
   */
  subscribe(input: {
    membershipId: string;
    paymentReference: string;
    price: RecurringPrice;
    firstChargeAt: Date;
  }): Promise<{ subscriptionId: string }>;
  /** Whether the subscription charges again at the end of its period (renewal on or off). */
  setRenewing(subscriptionId: string, renewing: boolean): Promise<void>;
  /** The price of the renewals from the next one on. */
  setPrice(subscriptionId: string, price: RecurringPrice): Promise<void>;
  /** Ends the subscription now: nothing more is charged. */
  cancel(subscriptionId: string): Promise<void>;
  /** The payment that paid an invoice, to refund a renewal by. */
  invoicePayment(invoiceId: string): Promise<string | null>;
};

type RefundInput = {
  order: { id: string; number: number };
  /** The provider's reference of the payment being refunded. */
  paymentReference: string;
  amount: number;
  idempotencyKey: string;
};

/**
 * A payment provider behind the one interface the order flow uses: Stripe Checkout when
 * STRIPE_SECRET_KEY is set, otherwise the built-in test checkout (docs/payments.md).
 */
export type PaymentGateway = {
  provider: PaymentProvider;
  startPayment(input: StartPaymentInput): Promise<PaymentSession>;
  /** Closes a session so it can no longer be paid; answers its state afterwards (it may have been paid). */
  expirePayment(sessionId: string): Promise<PaymentState>;
  refund(input: RefundInput): Promise<{ reference: string }>;
  retrievePayment(sessionId: string): Promise<PaymentState>;
  /**
   * The funding type (credit, debit, prepaid) of the card that made a payment, null when it was
   * not a card. Only providers that can tell implement it (credit cards and prize draws,
   * docs/responsible-play.md).
   */
  cardFunding?(paymentReference: string): Promise<string | null>;
  /** Renewals by the provider's subscriptions; absent for a provider without them (the test checkout). */
  billing?: MembershipBilling;
  /** Verifies and reads a notification; throws WebhookSignatureError when it cannot be trusted. */
  parseWebhook(rawBody: string | Uint8Array, signature: string | null): PaymentNotification;
};

/** A notification whose signature does not check out (or that this provider never sends). */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

/** A refusal by the provider that trying again will not change (the payment was already refunded in full). */
export class PermanentPaymentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentPaymentError";
  }
}
