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
