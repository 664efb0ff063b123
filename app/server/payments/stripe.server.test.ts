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

/**
 * Stripe Billing's notifications as Stripe sends them (API 2026-10-28), signed with the endpoint's
 * secret the way Stripe signs them, and the requests the adapter makes for a membership's renewals.
 */
describe("the Stripe adapter's subscriptions", () => {
  const SECRET = "whsec_x";
  const signed = (event: object) => {
    const payload = JSON.stringify(event);
    return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }) };
  };
  const invoice = (fields: Record<string, unknown>) => ({
    id: "in_1Q2w3E4r5T6y7U8i",
    object: "invoice",
    amount_due: 3500,
    amount_paid: 3500,
    attempt_count: 1,
    billing_reason: "subscription_cycle",
    currency: "gbp",
    customer: "cus_RnWq1x2y3z",
    next_payment_attempt: null,
    parent: {
      type: "subscription_details",
      quote_details: null,
      subscription_details: {
        metadata: { membershipId: "9b1d0c55-3f0e-4a43-9d0c-1f6f4c1a7e21" },
        subscription: "sub_1Q2w3E",
      },
    },
    period_end: 1_830_592_800,
    period_start: 1_799_056_800,
    status: "paid",
    ...fields,
  });
  const event = (type: string, object: object) => ({
    id: `evt_${type.replace(/\W/g, "_")}`,
    object: "event",
    api_version: "2026-10-28.endive",
    created: 1_830_592_900,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });

  it("reads a renewal paid, a renewal's failed try, and a subscription that ended", () => {
    const { gateway } = stripeAnswering(() => ({ body: {} }));
    const paid = signed(event("invoice.paid", invoice({})));
    expect(gateway.parseWebhook(paid.payload, paid.header)).toEqual({
      id: "evt_invoice_paid",
      type: "invoice.paid",
      payment: null,
      billing: {
        kind: "renewal_paid",
        subscriptionId: "sub_1Q2w3E",
        invoiceId: "in_1Q2w3E4r5T6y7U8i",
        paymentReference: null,
        amount: 3500,
        currency: "GBP",
      },
    });
    const failed = signed(
      event(
        "invoice.payment_failed",
        invoice({ status: "open", amount_paid: 0, attempt_count: 1, next_payment_attempt: 1_830_852_000 }),
      ),
    );
    expect(gateway.parseWebhook(failed.payload, failed.header).billing).toEqual({
      kind: "renewal_failed",
      subscriptionId: "sub_1Q2w3E",
      invoiceId: "in_1Q2w3E4r5T6y7U8i",
      nextAttemptAt: new Date(1_830_852_000 * 1000),
    });
    const ended = signed(
      event("customer.subscription.deleted", { id: "sub_1Q2w3E", object: "subscription", status: "canceled" }),
    );
    expect(gateway.parseWebhook(ended.payload, ended.header).billing).toEqual({
      kind: "subscription_ended",
      subscriptionId: "sub_1Q2w3E",
    });
  });

  it("does not count the subscription's first invoice, the £0 one for the year already paid", () => {
    const { gateway } = stripeAnswering(() => ({ body: {} }));
    const first = signed(
      event("invoice.paid", invoice({ billing_reason: "subscription_create", amount_due: 0, amount_paid: 0 })),
    );
    expect(gateway.parseWebhook(first.payload, first.header).billing).toBeNull();
  });

  it("refuses a subscription notification whose body was changed after Stripe signed it", () => {
    const { gateway } = stripeAnswering(() => ({ body: {} }));
    const paid = signed(event("invoice.paid", invoice({})));
    const forged = paid.payload.replace('"amount_paid":3500', '"amount_paid":1');
    expect(() => gateway.parseWebhook(forged, paid.header)).toThrow(WebhookSignatureError);
  });

  it("subscribes the card the joining payment saved, at a shared price, first charging at the paid period's end", async () => {
    const { gateway, sent } = stripeAnswering((request) => {
      if (request.path === "/v1/payment_intents/pi_join") {
        return { body: { id: "pi_join", object: "payment_intent", customer: "cus_1", payment_method: "pm_1" } };
      }
      if (request.method === "GET" && request.path === "/v1/prices") {
        return { body: { object: "list", data: [], has_more: false, url: "/v1/prices" } };
      }
      if (request.path === "/v1/prices") return { body: { id: "price_annual", object: "price" } };
      return { body: { id: "sub_new", object: "subscription" } };
    });
    const firstChargeAt = new Date("2028-01-01T00:00:00Z");
    const made = await gateway.billing!.subscribe({
      membershipId: "m-1",
      paymentReference: "pi_join",
      price: { description: "Annual membership", amount: 3500, currency: "GBP", months: 12 },
      firstChargeAt,
    });
    expect(made).toEqual({ subscriptionId: "sub_new" });
    expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual([
      "GET /v1/payment_intents/pi_join",
      "GET /v1/prices",
      "POST /v1/prices",
      "POST /v1/subscriptions",
    ]);
    const price = sent[2]!.params;
    expect(Object.fromEntries(price)).toMatchObject({
      currency: "gbp",
      unit_amount: "3500",
      "recurring[interval]": "year",
      "recurring[interval_count]": "1",
      "product_data[name]": "Annual membership",
    });
    const subscription = sent[3]!;
    expect(Object.fromEntries(subscription.params)).toMatchObject({
      customer: "cus_1",
      default_payment_method: "pm_1",
      "items[0][price]": "price_annual",
      billing_cycle_anchor: String(firstChargeAt.getTime() / 1000),
      proration_behavior: "none",
      off_session: "true",
      "metadata[membershipId]": "m-1",
    });
    expect(subscription.idempotencyKey).toBe(`membership-subscription:m-1:pi_join:${firstChargeAt.getTime() / 1000}`);
  });

  it("keeps the paying card only for an order that joins a renewing membership", async () => {
    const { gateway, sent } = stripeAnswering(() => ({ body: session() }));
    const input = {
      order: ORDER,
      lines: [{ description: "Annual membership", unitAmount: 3750, quantity: 1 }],
      successUrl: "http://localhost:3000/return",
      cancelUrl: "http://localhost:3000/cart",
      expiresAt: new Date(Date.now() + 15 * 60_000),
      idempotencyKey: "checkout:1",
    };
    await gateway.startPayment({ ...input, saveCard: true });
    await gateway.startPayment(input);
    expect(sent[0]!.params.get("payment_intent_data[setup_future_usage]")).toBe("off_session");
    expect(sent[0]!.params.get("customer_creation")).toBe("always");
    expect(sent[1]!.params.get("payment_intent_data[setup_future_usage]")).toBeNull();
  });

  it("stops renewals at the period's end when turned off, and cancels outright", async () => {
    const { gateway, sent } = stripeAnswering(() => ({ body: { id: "sub_1", object: "subscription" } }));
    await gateway.billing!.setRenewing("sub_1", false);
    await gateway.billing!.cancel("sub_1");
    expect(sent.map((request) => `${request.method} ${request.path} ${request.params.toString()}`)).toEqual([
      "POST /v1/subscriptions/sub_1 cancel_at_period_end=true",
      "DELETE /v1/subscriptions/sub_1 ",
    ]);
  });
});
