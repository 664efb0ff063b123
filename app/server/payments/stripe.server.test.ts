import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { paymentGatewayFor } from "./configured-gateway.server";
import { PermanentPaymentError, WebhookSignatureError } from "./payments.server";
import { paymentStateOf, stripeGateway } from "./stripe.server";

type Sent = { method: string; path: string; params: URLSearchParams; idempotencyKey: string | null };

/**
 * A Stripe client whose HTTP goes to `answer` instead of the network, so the requests the adapter
 * makes can be read and Stripe's answers (including its errors) played back.
 */
function stripeAnswering(answer: (request: Sent) => { status?: number; body: object }) {
  const sent: Sent[] = [];
  const fetchFn = (async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    const request: Sent = {
      method: init?.method ?? "GET",
      path: url.pathname,
      params: new URLSearchParams(typeof init?.body === "string" ? init.body : url.search),
      idempotencyKey: headers.get("idempotency-key"),
    };
    sent.push(request);
    const { status = 200, body } = answer(request);
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  }) as typeof fetch;
  const client = new Stripe("sk_test_offline", {
    httpClient: Stripe.createFetchHttpClient(fetchFn),
    maxNetworkRetries: 0,
  });
  return { gateway: stripeGateway({ secretKey: "sk_test_offline", webhookSecret: "whsec_x", client }), sent };
}

function session(fields: Partial<Stripe.Checkout.Session> = {}) {
  return {
    id: "cs_test_1",
    object: "checkout.session",
    url: "https://checkout.stripe.com/c/pay/cs_test_1",
    status: "open",
    payment_status: "unpaid",
    payment_intent: null,
    amount_total: 2500,
    currency: "gbp",
    client_reference_id: "8d6b0c55-3f0e-4a43-9d0c-1f6f4c1a7e21",
    metadata: {},
    ...fields,
  } as Stripe.Checkout.Session;
}

const ORDER = {
  id: "8d6b0c55-3f0e-4a43-9d0c-1f6f4c1a7e21",
  number: 42,
  email: "sam@example.test",
  currency: "GBP",
  total: 3750,
};

const invalid = (message: string) => ({
  status: 400,
  body: { error: { type: "invalid_request_error", message, code: "resource_missing" } },
});

describe("the Stripe adapter", () => {
  it("makes a Checkout Session from the order's lines, held for 31 minutes when the hold is shorter", async () => {
    const { gateway, sent } = stripeAnswering(() => ({ body: session() }));
    const now = Date.now();
    const result = await gateway.startPayment({
      order: ORDER,
      lines: [
        { description: "Summer Meet — Adult", unitAmount: 1250, quantity: 2 },
        { description: "Summer Meet — Child", unitAmount: 1250, quantity: 1 },
      ],
      successUrl: "https://club.test/return?order=1&session_id={CHECKOUT_SESSION_ID}",
      cancelUrl: "https://club.test/return?order=1&cancelled=1",
      expiresAt: new Date(now + 15 * 60_000),
      idempotencyKey: `checkout:${ORDER.id}`,
    });
    expect(result).toEqual({ sessionId: "cs_test_1", redirectUrl: "https://checkout.stripe.com/c/pay/cs_test_1" });

    const [request] = sent;
    expect(request).toMatchObject({ method: "POST", path: "/v1/checkout/sessions" });
    const params = request!.params;
    expect(Object.fromEntries(params)).toMatchObject({
      mode: "payment",
      client_reference_id: ORDER.id,
      "metadata[orderId]": ORDER.id,
      "metadata[orderNumber]": "42",
      customer_email: "sam@example.test",
      "line_items[0][price_data][currency]": "gbp",
      "line_items[0][price_data][unit_amount]": "1250",
      "line_items[0][price_data][product_data][name]": "Summer Meet — Adult",
      "line_items[0][quantity]": "2",
      "line_items[1][quantity]": "1",
      success_url: "https://club.test/return?order=1&session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "https://club.test/return?order=1&cancelled=1",
    });
    const expiresAt = Number(params.get("expires_at"));
    expect(expiresAt * 1000 - now).toBeGreaterThanOrEqual(31 * 60_000 - 2_000);
    expect(expiresAt * 1000 - now).toBeLessThanOrEqual(31 * 60_000 + 2_000);
    expect(request!.idempotencyKey).toBe(`checkout:${ORDER.id}:${expiresAt}`);
  });

  it("ends the session with a hold longer than 30 minutes", async () => {
    const { gateway, sent } = stripeAnswering(() => ({ body: session() }));
    const holdEnds = new Date(Date.now() + 45 * 60_000);
    await gateway.startPayment({
      order: ORDER,
      lines: [{ description: "Pass", unitAmount: 3750, quantity: 1 }],
      successUrl: "https://club.test/return",
      cancelUrl: "https://club.test/return",
      expiresAt: holdEnds,
      idempotencyKey: "k",
    });
    expect(Number(sent[0]!.params.get("expires_at"))).toBe(Math.floor(holdEnds.getTime() / 1000));
  });

  it("expires an open session, and answers a session paid meanwhile with its payment", async () => {
    const open = stripeAnswering(() => ({ body: session({ status: "expired", url: null }) }));
    expect(await open.gateway.expirePayment("cs_test_1")).toMatchObject({ status: "expired", redirectUrl: null });
    expect(open.sent[0]).toMatchObject({ method: "POST", path: "/v1/checkout/sessions/cs_test_1/expire" });

    const paid = stripeAnswering((request) =>
      request.method === "POST"
        ? invalid("Only Checkout Sessions with a status in [open] can be expired.")
        : { body: session({ status: "complete", payment_status: "paid", payment_intent: "pi_123" }) },
    );
    expect(await paid.gateway.expirePayment("cs_test_1")).toMatchObject({
      status: "paid",
      paymentReference: "pi_123",
      amount: 2500,
      currency: "GBP",
      orderId: ORDER.id,
    });
  });

  it("refunds a payment with the refund's key, and tells a refusal from an outage", async () => {
    const ok = stripeAnswering(() => ({ body: { id: "re_1", object: "refund" } }));
    const refund = { order: ORDER, paymentReference: "pi_123", amount: 2500, idempotencyKey: "tx-1" };
    expect(await ok.gateway.refund(refund)).toEqual({ reference: "re_1" });
    expect(ok.sent[0]).toMatchObject({ path: "/v1/refunds", idempotencyKey: "refund:tx-1" });
    expect(Object.fromEntries(ok.sent[0]!.params)).toMatchObject({ payment_intent: "pi_123", amount: "2500" });

    const refused = stripeAnswering(() => invalid("Charge ch_1 has already been refunded."));
    await expect(refused.gateway.refund(refund)).rejects.toBeInstanceOf(PermanentPaymentError);

    const down = stripeAnswering(() => ({ status: 500, body: { error: { type: "api_error", message: "down" } } }));
    const error = await down.gateway.refund(refund).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(error).not.toBeInstanceOf(PermanentPaymentError);
  });

  it("reads where a session stands", () => {
    expect(paymentStateOf(session())).toMatchObject({ status: "open", redirectUrl: session().url });
    expect(paymentStateOf(session({ status: "complete", payment_status: "unpaid" }))).toMatchObject({
      status: "unpaid",
      paymentReference: null,
    });
    expect(paymentStateOf(session({ status: "complete", payment_status: "no_payment_required" }))).toMatchObject({
      status: "paid",
      paymentReference: "cs_test_1",
    });
    expect(paymentStateOf(session({ status: "expired" }))).toMatchObject({ status: "expired", redirectUrl: null });
  });

  it("refuses a notification without the webhook secret or a signature", () => {
    const { gateway } = stripeAnswering(() => ({ body: {} }));
    expect(() => gateway.parseWebhook("{}", null)).toThrow(WebhookSignatureError);
    const unset = stripeGateway({ secretKey: "sk_test_offline", webhookSecret: null });
    expect(() => unset.parseWebhook("{}", "t=1,v1=abc")).toThrow(WebhookSignatureError);
  });

  it("is chosen when PAYMENTS is stripe; the test checkout when it is test", () => {
    const site = { SITE_URL: "http://localhost:3000", STRIPE_WEBHOOK_SECRET: "whsec_x" };
    expect(paymentGatewayFor({ ...site, PAYMENTS: "stripe", STRIPE_SECRET_KEY: "sk_test_123" }).provider).toBe(
      "stripe",
    );
    expect(paymentGatewayFor({ ...site, PAYMENTS: "test", STRIPE_SECRET_KEY: undefined }).provider).toBe("test");
    expect(() => paymentGatewayFor({ ...site, PAYMENTS: "stripe", STRIPE_SECRET_KEY: undefined })).toThrow(/PAYMENTS/);
  });
});
