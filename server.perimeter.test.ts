import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express, { type Express } from "express";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { loggedUrl, metricsAccess, notificationsFirst, refuseNulInAddress, requestLog } from "./server";

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function listen(app: Express) {
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function metricsApp(token: string | undefined) {
  const app = express();
  app.get("/metrics", metricsAccess(token), (_req, res) => void res.send("metrics"));
  return listen(app);
}

/** A stream the log writes to, and the lines written to it. */
function logSink() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, sink };
}

describe("/metrics", () => {
  it("does not exist without a token, even for this machine", async () => {
    const base = await metricsApp(undefined);
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: "Bearer " } })).status).toBe(404);
  });

  it("answers only with its token, even to this machine", async () => {
    const base = await metricsApp("s3cret-token");
    expect((await fetch(`${base}/metrics`)).status).toBe(403);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: "Bearer wrong" } })).status).toBe(403);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: "Bearer s3cret-token!" } })).status).toBe(403);
    const allowed = await fetch(`${base}/metrics`, { headers: { authorization: "Bearer s3cret-token" } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toBe("metrics");
  });
});

describe("request log", () => {
  it("keeps the path and the query's keys, not the values of secret ones", () => {
    expect(loggedUrl("/reset-password?token=abc123")).toBe("/reset-password?token=[redacted]");
    expect(loggedUrl("/api/auth/magic-link/verify?token=t0k&callbackURL=%2Fsettings")).toBe(
      "/api/auth/magic-link/verify?token=[redacted]&callbackURL=[redacted]",
    );
    expect(loggedUrl("/events?q=track+day&page=2")).toBe("/events?q=track+day&page=2");
    expect(loggedUrl("/events")).toBe("/events");
  });

  it("writes no secret query value, referer, cookie or authorization", async () => {
    const { lines, sink } = logSink();
    const app = express();
    app.use(requestLog(pino({ base: undefined }, sink)));
    app.get("/verify-email", (_req, res) => {
      res.setHeader("Set-Cookie", "session=set-cookie-secret");
      res.send("ok");
    });
    const base = await listen(app);
    const response = await fetch(`${base}/verify-email?token=query-secret&q=kept`, {
      headers: {
        cookie: "session=cookie-secret",
        authorization: "Bearer authorization-secret",
        referer: "https://club.example/reset-password?token=referer-secret",
      },
    });
    expect(response.status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));

    const output = lines.join("");
    expect(output).toContain("/verify-email?token=[redacted]&q=kept");
    for (const secret of [
      "query-secret",
      "cookie-secret",
      "authorization-secret",
      "referer-secret",
      "set-cookie-secret",
    ]) {
      expect(output).not.toContain(secret);
    }
  });
});

describe("the request log", () => {
  it("writes one line per request, with its id, status and time, and an error line for a 5xx", async () => {
    const { lines, sink } = logSink();
    const app = express();
    app.use(requestLog(pino({ base: undefined, level: "info" }, sink)));
    app.get("/fine", (_req, res) => void res.send("ok"));
    app.get("/broken", (_req, res) => void res.status(500).send("no"));
    app.get("/healthz", (_req, res) => void res.send("up"));
    const base = await listen(app);
    const fine = await fetch(`${base}/fine`, { headers: { "x-request-id": "trace-123" } });
    expect(fine.headers.get("x-request-id")).toBe("trace-123");
    const broken = await fetch(`${base}/broken`);
    expect(broken.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));

    const logged = lines.map((line) => JSON.parse(line));
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({
      level: 30,
      msg: "request completed",
      req: { id: "trace-123", method: "GET", url: "/fine" },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(logged[1]).toMatchObject({
      level: 50,
      msg: "request errored",
      req: { method: "GET", url: "/broken" },
      res: { statusCode: 500 },
      err: { message: "failed with status code 500" },
    });
  });
});

describe("addresses with a NUL character", () => {
  it("are answered 400 before any route sees them, in the path or the query", async () => {
    const app = express();
    app.use(refuseNulInAddress);
    app.get("/{*rest}", (_req, res) => void res.send("page"));
    const base = await listen(app);
    for (const address of ["/giveaways/x%00", "/blog?q=%00", "/events?q=a%00b"]) {
      const response = await fetch(`${base}${address}`);
      expect(response.status).toBe(400);
      expect(await response.text()).toBe("This address contains a character that is not allowed.");
    }
    const ordinary = await fetch(`${base}/blog?q=100%25%20original`);
    expect(ordinary.status).toBe(200);
  });
});

describe("payment notifications before Express", () => {
  type Answer = (request: { rawBody: Uint8Array; signature: string | null }) => Promise<{
    status: number;
    body: object;
  }>;

  async function front(answer: Answer, limit = 1024) {
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
    const server = createHttpServer(handler).listen(0, "127.0.0.1");
    servers.push(server);
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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
