import express from "express";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { closeServers, listen, logSink } from "./listen.test-support";
import { loggedUrl, requestLog } from "./request-log.server";

afterEach(closeServers);

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
