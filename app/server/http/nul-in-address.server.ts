import type { NextFunction, Request, Response } from "express";

/**
 * No page's address holds a NUL character, and PostgreSQL refuses one in any text it is given: a
 * path or query with `%00` is answered 400 here, once for every route, instead of reaching a
 * query as a slug or a search and failing there.
 */
export function refuseNulInAddress(req: Request, res: Response, next: NextFunction) {
  if (/%00/i.test(req.originalUrl)) {
    res.status(400).type("text/plain").send("This address contains a character that is not allowed.");
    return;
  }
  next();
}
