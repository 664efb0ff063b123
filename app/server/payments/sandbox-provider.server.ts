import type { PaymentGateway, PaymentState } from "~/server/payments/payments.server";
import { WebhookSignatureError } from "~/server/payments/payments.server";

/** The test checkout's page for an order (app/routes/checkout/sandbox-checkout.tsx). */
function testCheckoutPath(orderId: string) {
  return `/checkout/test/${orderId}`;
}

/** The test checkout's payment reference: one per order, so a double-clicked Pay is one payment. */
export function sandboxPaymentReference(orderId: string) {
  return `test_pay_${orderId}`;
}

/**
 * The built-in test checkout (docs/payments.md): no money moves and nothing
 * leaves the site. Starting a payment leads to a page on this site whose Pay, Decline and Cancel
 * buttons call the same settlement code as the Stripe webhook, synchronously, so there is never a
 * notification to wait for or a session to reconcile: a session stays "open" until the order's
 * own status says otherwise. The path is relative so it works on whatever address the site is
 * reached at.
 */
export function sandboxGateway(_options: { siteUrl: string }): PaymentGateway {
  const open = (sessionId: string): PaymentState => ({
    sessionId,
    status: "open",
    orderId: sessionId.replace(/^test_cs_/, ""),
    paymentReference: null,
    amount: null,
    currency: null,
    redirectUrl: testCheckoutPath(sessionId.replace(/^test_cs_/, "")),
  });
  return {
    provider: "test",
    async startPayment({ order }) {
      return { redirectUrl: testCheckoutPath(order.id), sessionId: `test_cs_${order.id}` };
    },
    async expirePayment(sessionId) {
      return { ...open(sessionId), status: "expired", redirectUrl: null };
    },
    async retrievePayment(sessionId) {
      return open(sessionId);
    },
    async refund({ idempotencyKey }) {
      return { reference: `test_refund_${idempotencyKey}` };
    },
    parseWebhook() {
      throw new WebhookSignatureError("The test checkout sends no notifications");
    },
  };
}
