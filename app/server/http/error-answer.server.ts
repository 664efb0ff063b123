import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";

/**
 * The last step of the pipeline: an error that reached Express (a body parser's 413, a failed
 * render) is answered in plain text with its status: "Payload too large" for a 413, the error's
 * message for another 4xx, "Error" for a 5xx, which is logged and never shows its details. An
 * answer already under way is left to end as it can.
 */
export function answerErrors(logger: Logger) {
  return (error: Error & { status?: number; type?: string }, _req: Request, res: Response, _next: NextFunction) => {
    const status = error.status && error.status >= 400 && error.status < 600 ? error.status : 500;
    if (status >= 500) logger.error({ err: error }, "request failed");
    if (res.headersSent) return;
    res
      .status(status)
      .type("text/plain")
      .send(status === 413 ? "Payload too large" : status >= 500 ? "Error" : error.message);
  };
}
