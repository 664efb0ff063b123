import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import type { Logger } from "pino";
import { logRequest } from "./request-log.server";

// Stripe's payment notifications (ADR 0018, ADR 0019): answered before the page pipeline, with
// the signature over the raw body standing in for the Origin check. Two halves: the HTTP server
// answers a plain POST before Express does any work (`notificationsFirst`); an Express route
// answers whatever else arrives at the address (`notificationRoute`).

/** Where the provider sends its notifications. */
export const PAYMENT_NOTIFICATIONS_PATH = "/api/webhooks/stripe";

/** The app's answer to one notification: its raw body and signature in, a status and JSON out. */
export type AnswerNotification = (request: {
  rawBody: Uint8Array;
  signature: string | null;
}) => Promise<{ status: number; body: object }>;

/**
 * Payment notifications, answered by the HTTP server before Express (and before the page cache)
 * does any work: signed JSON from the provider, answered with a few bytes of JSON, five deliveries
 * of each at an on-sale (ADR 0018). A POST with a plain body is read here up to `limit` (413
 * beyond, once the body has been read, as everywhere else) and handed to `answer`; anything else
 * at the address (another method, a compressed body) goes on to Express, which answers it as
 * before. The request gets its id and log line and is timed like any other. The signature stands
 * in for the Origin check.
 */
export function notificationsFirst(options: {
  path: string;
  limit: number;
  answer: AnswerNotification;
  logger: Logger;
  timeRequest(req: IncomingMessage, res: ServerResponse): void;
  next: RequestListener;
}): RequestListener {
  const { path: address, limit, logger } = options;
  return (req, res) => {
    if (req.method !== "POST" || req.url !== address || req.headers["content-encoding"]) return options.next(req, res);
    options.timeRequest(req, res);
    logRequest(logger, req, res);
    const reply = (status: number, type: string, body: string) => {
      if (res.headersSent) return;
      res.writeHead(status, {
        "Content-Type": type,
        "Content-Length": Buffer.byteLength(body),
        "Cache-Control": "no-store",
      });
      res.end(body);
    };
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so the client is answered, not reset.
      if (size <= limit) chunks.push(chunk);
    });
    req.on("error", () => res.destroy());
    req.on("end", () => {
      if (size > limit) return reply(413, "text/plain; charset=utf-8", "Payload too large");
      const signature = req.headers["stripe-signature"];
      options
        .answer({ rawBody: Buffer.concat(chunks, size), signature: typeof signature === "string" ? signature : null })
        .then((answer) => reply(answer.status, "application/json; charset=utf-8", JSON.stringify(answer.body)))
        .catch((error: unknown) => {
          logger.error({ err: error }, "request failed");
          reply(500, "text/plain; charset=utf-8", "Error");
        });
    });
  };
}

/**
 * The rest at the notifications' address, past the page headers, compression and the router:
 * other methods (405) and a body sent compressed, which Express inflates. The signature stands
 * in for the Origin check, so this is mounted before it.
 */
export function notificationRoute(options: { limit: number; answer: AnswerNotification }): RequestHandler[] {
  return [
    express.raw({ type: () => true, limit: options.limit }),
    async (req: Request, res: Response, next: NextFunction) => {
      res.set("Cache-Control", "no-store");
      if (req.method !== "POST") return void res.status(405).set("Allow", "POST").json({ error: "Method not allowed" });
      try {
        const answer = await options.answer({
          rawBody: Buffer.isBuffer(req.body) ? req.body : new Uint8Array(),
          signature: req.get("stripe-signature") ?? null,
        });
        res.status(answer.status).json(answer.body);
      } catch (error) {
        next(error);
      }
    },
  ];
}
