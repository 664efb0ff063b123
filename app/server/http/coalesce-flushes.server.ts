import type { NextFunction, Request, Response } from "express";

/**
 * React Router's adapter flushes after every chunk it writes, and each flush ends a deflate
 * block, which made compressed pages half as large again. Flushes asked for in one turn of the
 * event loop become one, so streaming still reaches the browser at once. Installed after
 * compression, whose `flush` it wraps.
 */
export function coalesceFlushes(_req: Request, res: Response, next: NextFunction) {
  const target = res as Response & { flush?: () => void };
  const flush = target.flush;
  if (typeof flush === "function") {
    let pending = false;
    target.flush = () => {
      if (pending) return;
      pending = true;
      setImmediate(() => {
        pending = false;
        if (!res.writableEnded) flush.call(res);
      });
    };
  }
  next();
}
