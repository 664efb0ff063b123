import { randomBytes } from "node:crypto";
import { Agent, createServer, type IncomingMessage, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { type PreparedRequest, preparePost } from "./raw-sender";

/**
 * A stand-in for the part of Stripe's API the site uses (Checkout Sessions, the card behind a
 * PaymentIntent, and refunds), served
 * over HTTP so real app servers can be pointed at it with STRIPE_API_URL, and a sender of signed
 * webhook notifications. The test plays the buyer (`pay`) and Stripe's delivery (`deliver`).
 * Requests with a repeated Idempotency-Key get the first answer, as Stripe's do.
 */

type Session = {
  id: string;
  object: "checkout.session";
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid";
  payment_intent: string | null;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  customer_email: string | null;
  expires_at: number;
  url: string | null;
  success_url: string;
  cancel_url: string;
};

type WebhookDelivery = {
  eventId: string;
  target: string;
  status: number | "unreachable";
  /**
   * Why an unreachable delivery got no answer, as the connection reported it: `ECONNREFUSED` when
   * nobody was listening, `ECONNRESET` ("socket hang up") when the server took the notification
   * and its connection went away before it answered.
   */
  failure?: string;
};

/** Connections open at once from the sender of notifications to each server. */
export const SENDER_CONNECTIONS = 32;

export async function startFakeStripe(options: { webhookSecret: string }) {
  const sessions = new Map<string, Session>();
  const answered = new Map<string, { status: number; body: unknown }>();
  const refunds: { id: string; payment_intent: string; amount: number }[] = [];
  /** The funding type of the card behind each PaymentIntent made by `pay`. */
  const cardFundings = new Map<string, "credit" | "debit" | "prepaid">();
  const deliveries: WebhookDelivery[] = [];
  const signer = new Stripe("sk_test_fake_signer");
  // Notifications go out over kept-alive connections, at most SENDER_CONNECTIONS to each server
  // at a time, as from Stripe's senders: a rush of payments does not open a connection apiece.
  const sender = new Agent({ keepAlive: true, maxSockets: SENDER_CONNECTIONS });
  function post(url: URL, payload: string, signature: string) {
    return new Promise<number>((resolve, reject) => {
      const body = Buffer.from(payload);
      const outgoing = request(
        url,
        {
          method: "POST",
          agent: sender,
          headers: { "content-type": "application/json", "content-length": body.length, "stripe-signature": signature },
        },
        (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode!));
          response.on("error", reject);
        },
      );
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  }
  const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

  const server: Server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    try {
      const form = new URLSearchParams(await bodyOf(req));
      const key = req.headers["idempotency-key"];
      const replay = typeof key === "string" ? answered.get(`${req.method} ${req.url} ${key}`) : undefined;
      if (replay) return send(replay.status, replay.body);
      const answer = route(req.method ?? "GET", new URL(req.url ?? "/", "http://stripe.local").pathname, form);
      if (typeof key === "string") answered.set(`${req.method} ${req.url} ${key}`, answer);
      send(answer.status, answer.body);
    } catch (error) {
      send(500, { error: { type: "api_error", message: String(error) } });
    }
  });

  function route(method: string, path: string, form: URLSearchParams): { status: number; body: unknown } {
    if (method === "POST" && path === "/v1/checkout/sessions") return { status: 200, body: createSession(form) };
    const sessionPath = path.match(/^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/);
    if (sessionPath) {
      const session = sessions.get(sessionPath[1]!);
      if (!session) return invalid(`No such checkout.session: '${sessionPath[1]}'`, 404);
      if (method === "GET") return { status: 200, body: session };
      if (method === "POST" && sessionPath[2]) {
        if (session.status !== "open")
          return invalid(`Only open sessions can be expired (this one is ${session.status})`);
        session.status = "expired";
        session.url = null;
        return { status: 200, body: session };
      }
    }
    const intentPath = path.match(/^\/v1\/payment_intents\/([^/]+)$/);
    if (method === "GET" && intentPath) {
      const intentId = intentPath[1]!;
      const funding = cardFundings.get(intentId);
      if (!funding) return invalid(`No such payment_intent: '${intentId}'`, 404);
      // Answered as with `expand[]=latest_charge`, the only way the site asks.
      return {
        status: 200,
        body: {
          id: intentId,
          object: "payment_intent",
          status: "succeeded",
          latest_charge: {
            id: id("ch"),
            object: "charge",
            payment_intent: intentId,
            payment_method_details: { type: "card", card: { brand: "visa", funding, last4: "4242" } },
          },
        },
      };
    }
    if (method === "POST" && path === "/v1/refunds") {
      const refund = {
        id: id("re"),
        object: "refund",
        payment_intent: form.get("payment_intent") ?? "",
        amount: Number(form.get("amount")),
        status: "succeeded",
      };
      refunds.push(refund);
      return { status: 200, body: refund };
    }
    return invalid(`Unrecognized request URL (${method}: ${path})`, 404);
  }

  function createSession(form: URLSearchParams): Session {
    let amount = 0;
    for (let line = 0; form.has(`line_items[${line}][quantity]`); line++) {
      amount +=
        Number(form.get(`line_items[${line}][quantity]`)) *
        Number(form.get(`line_items[${line}][price_data][unit_amount]`));
    }
    const metadata: Record<string, string> = {};
    for (const [name, value] of form) {
      const field = name.match(/^metadata\[(.+)\]$/);
      if (field) metadata[field[1]!] = value;
    }
    const session: Session = {
      id: id("cs_test"),
      object: "checkout.session",
      status: "open",
      payment_status: "unpaid",
      payment_intent: null,
      amount_total: amount,
      currency: form.get("line_items[0][price_data][currency]") ?? "gbp",
      client_reference_id: form.get("client_reference_id"),
      metadata,
      customer_email: form.get("customer_email"),
      expires_at: Number(form.get("expires_at")),
      url: null,
      success_url: form.get("success_url") ?? "",
      cancel_url: form.get("cancel_url") ?? "",
    };
    session.url = `${baseUrl}/pay/${session.id}`;
    sessions.set(session.id, session);
    return session;
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** A signed notification about a session, as Stripe would post it. */
  function notification(type: string, session: Session) {
    const payload = JSON.stringify({
      id: id("evt"),
      object: "event",
      api_version: "2026-10-28.endive",
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      type,
      data: { object: session },
    });
    return { eventId: (JSON.parse(payload) as { id: string }).id, payload };
  }

  /** The Stripe-Signature header Stripe would send with a notification, signed now. */
  function signatureOf(event: { payload: string }) {
    return signer.webhooks.generateTestHeaderString({ payload: event.payload, secret: options.webhookSecret });
  }

  return {
    url: baseUrl,
    sessions,
    refunds,
    deliveries,
    /** The session a redirect to the fake's payment page names. */
    sessionOfRedirect(location: string) {
      const sessionId = location.match(/\/pay\/(cs_test_[0-9a-f]+)$/)?.[1];
      return sessionId ? (sessions.get(sessionId) ?? null) : null;
    },
    /**
     * The buyer pays, by a debit card unless `funding` says otherwise: the session completes,
     * paid. Returns the `checkout.session.completed` notification.
     */
    pay(sessionId: string, options: { funding?: "credit" | "debit" | "prepaid" } = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`No session ${sessionId}`);
      if (session.status !== "open") throw new Error(`Session ${sessionId} is ${session.status}`);
      session.status = "complete";
      session.payment_status = "paid";
      session.payment_intent = id("pi");
      cardFundings.set(session.payment_intent, options.funding ?? "debit");
      session.url = null;
      return notification("checkout.session.completed", structuredClone(session));
    },
    signatureOf,
    /**
     * A notification to a server's webhook, signed now with the shared secret, as the bytes of its
     * POST: for a raw sender (raw-sender.ts) that sends it later with no work of its own.
     */
    prepareDelivery(target: string, event: { payload: string }): PreparedRequest {
      return preparePost(new URL("/api/webhooks/stripe", target), event.payload, {
        "Content-Type": "application/json",
        "Stripe-Signature": signatureOf(event),
      });
    },
    /** Posts a notification to a server's webhook, signed with the shared secret. */
    async deliver(target: string, event: { eventId: string; payload: string }, init: { signature?: string } = {}) {
      const signature = init.signature ?? signatureOf(event);
      let status: number | "unreachable";
      let failure: string | undefined;
      try {
        status = await post(new URL("/api/webhooks/stripe", target), event.payload, signature);
      } catch (error) {
        status = "unreachable";
        failure = (error as { code?: string }).code ?? String(error);
      }
      deliveries.push({ eventId: event.eventId, target, status, ...(failure ? { failure } : {}) });
      return status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        sender.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

function invalid(message: string, status = 400) {
  return { status, body: { error: { type: "invalid_request_error", message } } };
}

async function bodyOf(req: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
