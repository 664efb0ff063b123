import type { NextFunction, Request, Response } from "express";
import { SAFE_METHODS } from "./safe-methods.server";

/**
 * Cross-site request forgery guard (ADR 0004): a state-changing request must come from this
 * site's own pages, which browsers prove with the Origin header. The payment provider's
 * notifications are answered before this check, their signature standing in for it (ADR 0018).
 */
export function originCheck(siteOrigin: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.headers.origin;
    const ownOrigin = `${req.protocol}://${req.headers.host}`;
    if (origin && (origin === siteOrigin || origin === ownOrigin)) return next();
    res.status(403).type("text/plain").send("Forbidden: this request did not come from this site");
  };
}
