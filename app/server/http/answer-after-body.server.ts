import type { NextFunction, Request, Response } from "express";
import { SAFE_METHODS } from "./safe-methods.server";

/**
 * An answer given before the request's body has been read (sign in first, too large, not from
 * this site) goes out once the rest of the body has been read and thrown away. Sent at once, and
 * with the connection closed after it, it reaches a browser that is still sending its upload as a
 * reset connection instead of the page: the browser's write fails (EPIPE, ECONNRESET) and the
 * answer is lost. A body declared larger than `limit`, or one that runs past it, is not read on:
 * the answer goes at once and the connection is closed under it. A client that sends its body too
 * slowly is cut off by the server's request timeout, as any other is.
 */
export function answerAfterBody(limit: number) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method) || !hasBody(req)) return next();
    const end = res.end;
    let held = false;
    res.end = function (this: Response, ...args: Parameters<Response["end"]>) {
      if (held) return this;
      if (req.complete || req.destroyed) return end.apply(this, args);
      held = true;
      void discardBody(req, limit).then((whole) => {
        if (!whole) closeAfterAnswer(req, res);
        end.apply(this, args);
      });
      return this;
    } as Response["end"];
    next();
  };
}

function hasBody(req: Request) {
  const declared = req.headers["content-length"];
  return declared === undefined ? Boolean(req.headers["transfer-encoding"]) : Number(declared) > 0;
}

/** Reads what is left of the body and throws it away; false when it is over `limit` or the client went away. */
function discardBody(req: Request, limit: number) {
  return new Promise<boolean>((resolve) => {
    if (Number(req.headers["content-length"]) > limit) return resolve(false);
    let received = 0;
    let settled = false;
    const settle = (whole: boolean) => {
      if (settled) return;
      settled = true;
      resolve(whole);
    };
    // Whatever was reading the body (the app's request stream) has answered without it.
    req.removeAllListeners("data");
    req.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        req.pause();
        settle(false);
      }
    });
    req.once("end", () => settle(true));
    req.once("close", () => settle(req.complete));
    req.once("error", () => settle(false));
    req.resume();
  });
}

/** The connection ends with this answer, unread body and all. */
function closeAfterAnswer(req: Request, res: Response) {
  if (!res.headersSent) res.setHeader("Connection", "close");
  const socket = req.socket;
  res.once("finish", () => socket.destroySoon());
}
