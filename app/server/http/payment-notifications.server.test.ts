import { gzipSync } from "node:zlib";
import express from "express";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { closeServers, listen, logSink } from "./listen.test-support";
import { type AnswerNotification, notificationRoute, notificationsFirst } from "./payment-notifications.server";

afterEach(closeServers);

describe("payment notifications before Express", () => {
  async function front(answer: AnswerNotification, limit = 1024) {
    const { lines, sink } = logSink();
    const timed: string[] = [];
    const handler = notificationsFirst({
      path: "/api/webhooks/stripe",
      limit,
      answer,
      logger: pino({ level: "info" }, sink),
      timeRequest: (req) => void timed.push(String(req.method)),
      next: (req, res) => {
        res.writeHead(299, { "Content-Type": "text/plain" });
        res.end(`express: ${req.method} ${req.url}`);
      },
    });
    const base = await listen(handler);
    return { base, lines, timed };
  }

  it("hands the exact bytes and signature to the handler and answers its JSON, uncached, with a request id", async () => {
    const seen: { body: string; signature: string | null }[] = [];
    const { base, lines, timed } = await front(async (request) => {
      seen.push({ body: Buffer.from(request.rawBody).toString(), signature: request.signature });
      return { status: 200, body: { received: true, result: "handled" } };
    });
    const payload = JSON.stringify({ id: "evt_1", type: "checkout.session.completed", note: "é ✓" });
    const response = await fetch(`${base}/api/webhooks/stripe`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=abc", "X-Request-Id": "req-42" },
      body: payload,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-request-id")).toBe("req-42");
    expect(await response.json()).toEqual({ received: true, result: "handled" });
    expect(seen).toEqual([{ body: payload, signature: "t=1,v1=abc" }]);
    expect(timed).toEqual(["POST"]);
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { msg: "request completed", req: { id: "req-42", method: "POST", url: "/api/webhooks/stripe" } },
    ]);
  });

  it("answers a refused signature with the handler's 400, and no signature as null", async () => {
    const { base } = await front(async (request) =>
      request.signature === null ? { status: 400, body: { error: "Invalid signature" } } : { status: 200, body: {} },
    );
    const response = await fetch(`${base}/api/webhooks/stripe`, { method: "POST", body: "{}" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Invalid signature" });
  });

  it("answers a body over the limit 413 once it has been sent, without calling the handler", async () => {
    let called = false;
    const { base } = await front(async () => {
      called = true;
      return { status: 200, body: {} };
    }, 100);
    const response = await fetch(`${base}/api/webhooks/stripe`, { method: "POST", body: "x".repeat(5000) });
    expect(response.status).toBe(413);
    expect(await response.text()).toBe("Payload too large");
    expect(called).toBe(false);
  });

  it("answers 500 and logs the error when the handler fails, so the provider sends the event again", async () => {
    const { base, lines } = await front(async () => {
      throw new Error("database went away");
    });
    const response = await fetch(`${base}/api/webhooks/stripe`, { method: "POST", body: "{}" });
    expect(response.status).toBe(500);
    expect(await response.text()).toBe("Error");
    const logged = lines.map((line) => JSON.parse(line));
    expect(logged).toContainEqual(expect.objectContaining({ msg: "request failed", err: expect.anything() }));
    expect(logged).toContainEqual(
      expect.objectContaining({ msg: "request errored", res: expect.objectContaining({ statusCode: 500 }) }),
    );
  });

  it("leaves everything else to Express: other methods, other addresses and compressed bodies", async () => {
    const { base, timed } = await front(async () => ({ status: 200, body: {} }));
    const answers = await Promise.all([
      fetch(`${base}/api/webhooks/stripe`),
      fetch(`${base}/api/webhooks/stripe?x=1`, { method: "POST", body: "{}" }),
      fetch(`${base}/events`, { method: "POST", body: "{}" }),
      fetch(`${base}/api/webhooks/stripe`, { method: "POST", body: "{}", headers: { "Content-Encoding": "gzip" } }),
    ]);
    expect(await Promise.all(answers.map((answer) => answer.text()))).toEqual([
      "express: GET /api/webhooks/stripe",
      "express: POST /api/webhooks/stripe?x=1",
      "express: POST /events",
      "express: POST /api/webhooks/stripe",
    ]);
    expect(timed).toEqual([]);
  });
});

describe("the rest at the payment notifications' address, in Express", () => {
  async function route(answer: AnswerNotification) {
    const app = express();
    app.all("/api/webhooks/stripe", notificationRoute({ limit: 1024, answer }));
    return listen(app);
  }

  it("answers other methods 405 with Allow, uncached, without asking the app", async () => {
    let called = false;
    const base = await route(async () => {
      called = true;
      return { status: 200, body: {} };
    });
    const response = await fetch(`${base}/api/webhooks/stripe`);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ error: "Method not allowed" });
    expect(called).toBe(false);
  });

  it("hands a compressed body to the app inflated, with its signature", async () => {
    const seen: { body: string; signature: string | null }[] = [];
    const base = await route(async (request) => {
      seen.push({ body: Buffer.from(request.rawBody).toString(), signature: request.signature });
      return { status: 200, body: { received: true } };
    });
    const response = await fetch(`${base}/api/webhooks/stripe`, {
      method: "POST",
      headers: { "Content-Encoding": "gzip", "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=abc" },
      body: gzipSync('{"id":"evt_1"}'),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    expect(seen).toEqual([{ body: '{"id":"evt_1"}', signature: "t=1,v1=abc" }]);
  });
});
