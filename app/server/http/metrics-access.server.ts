import { createHash, timingSafeEqual } from "node:crypto";
import type { NextFunction, Request, Response } from "express";

/**
 * /metrics answers only with its token, whoever asks: behind a proxy on the same host every visitor
 * comes from loopback. Without a token it does not exist. Both sides are hashed first, so the
 * comparison takes the same time whatever was sent, its length included.
 */
export function metricsAccess(token: string | undefined) {
  const expected = token ? digest(`Bearer ${token}`) : undefined;
  return (req: Request, res: Response, next: NextFunction) => {
    if (!expected) return void res.status(404).type("text/plain").send("Not found");
    if (!timingSafeEqual(digest(req.headers.authorization ?? ""), expected)) {
      return void res.status(403).type("text/plain").send("Forbidden");
    }
    next();
  };
}

function digest(text: string) {
  return createHash("sha256").update(text).digest();
}
