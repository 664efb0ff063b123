import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";

// The request log: one line per request, and the request id that ties it to the app's own log
// lines. It writes nothing that would let a reader of the logs act as a visitor (docs/security.md).

/**
 * Query values kept in the request log: searches, pages and switches. Every other value is
 * replaced, because links sent by email and text carry their secret in the query (`token` of a
 * password reset, an email check or a sign-in link) and the Stripe return carries its session.
 */
const LOGGED_QUERY_VALUES = new Set(["q", "page", "order", "error", "edit", "cancelled", "quantity", "redirectTo"]);
/** Headers that carry the session, a credential, or the page the visitor came from (with its query). */
const UNLOGGED_HEADERS = new Set(["cookie", "authorization", "referer", "proxy-authorization"]);

/** The path and query as logged: the query's keys are kept, the values of secret ones are not. */
export function loggedUrl(url: string) {
  const mark = url.indexOf("?");
  if (mark === -1) return url;
  const query = url
    .slice(mark + 1)
    .split("&")
    .filter(Boolean)
    .map((pair) => {
      const [key = ""] = pair.split("=", 1);
      let name = key;
      try {
        name = decodeURIComponent(key.replaceAll("+", " "));
      } catch {}
      return LOGGED_QUERY_VALUES.has(name) ? pair : `${key}=[redacted]`;
    });
  return `${url.slice(0, mark)}?${query.join("&")}`;
}

/**
 * One line per request, without what would let a reader of the logs act as a visitor: "request
 * completed" (info, or warn for a 4xx) or "request errored" (error, for a 5xx or a failed
 * response), with the request, the response and the time it took in milliseconds. Every answer
 * carries an `X-Request-Id` (the caller's, if it sent one). The request and response are read
 * only when a line is written, so a request costs next to nothing at a quieter log level (a child
 * logger per request, as pino-http makes, serialises its request up front, logged or not).
 */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    res.locals.requestId = logRequest(logger, req, res);
    next();
  };
}

/**
 * Gives the request its id (the one a proxy sent, or a new one), answers it in `X-Request-Id`, and
 * writes one line when the answer is finished, or cut off. Answers the id.
 */
export function logRequest(logger: Logger, req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) {
  const id = (req.headers["x-request-id"] as string | undefined)?.slice(0, 64) || randomUUID();
  res.setHeader("X-Request-Id", id);
  if (req.url === "/healthz" || req.url === "/metrics") return id;
  const started = Date.now();
  const finished = (error?: Error) => {
    res.off("finish", finished);
    res.off("close", finished);
    res.off("error", finished);
    const failed = error !== undefined || res.statusCode >= 500;
    const level = failed ? "error" : res.statusCode >= 400 ? "warn" : "info";
    if (!logger.isLevelEnabled(level)) return;
    const line = { req: loggedRequest(req, id), res: loggedResponse(res), responseTime: Date.now() - started };
    if (!failed) return logger[level](line, "request completed");
    const err = error ?? new Error(`failed with status code ${res.statusCode}`);
    logger[level]({ ...line, err }, "request errored");
  };
  res.on("finish", finished);
  res.on("close", finished);
  res.on("error", finished);
  return id;
}

function loggedRequest(req: IncomingMessage & { originalUrl?: string }, id: string) {
  return {
    id,
    method: req.method,
    url: loggedUrl(req.originalUrl ?? req.url ?? ""),
    headers: Object.fromEntries(
      Object.entries(req.headers).filter(([name]) => !UNLOGGED_HEADERS.has(name.toLowerCase())),
    ),
    remoteAddress: req.socket?.remoteAddress,
    remotePort: req.socket?.remotePort,
  };
}

function loggedResponse(res: ServerResponse) {
  const { "set-cookie": _cookie, ...headers } = res.getHeaders();
  return { statusCode: res.statusCode, headers };
}
