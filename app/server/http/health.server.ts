import type { Request, Response } from "express";
import type { Logger } from "pino";
import type { DatabaseHandle } from "../db/client.server";

// What a load balancer or a monitor asks before sending visitors (docs/deploy.md): /healthz, is
// the process alive; /readyz, can it answer pages, its database included. Neither is ever cached.
// While the server stops, /readyz is answered "stopping" before Express (graceful-shutdown.server.ts).

/** The process is alive and answering. */
export function healthz(_req: Request, res: Response) {
  res.set("Cache-Control", "no-store").json({ status: "ok" });
}

/**
 * Ready once the app has started and its database answers: 503 "starting" before that, 503
 * "unavailable" while the database does not answer.
 */
export function readyz(database: () => Pick<DatabaseHandle, "ping" | "engine"> | undefined, logger: Logger) {
  return async (_req: Request, res: Response) => {
    res.set("Cache-Control", "no-store");
    const db = database();
    if (!db) return void res.status(503).json({ status: "starting" });
    try {
      await db.ping();
      res.json({ status: "ready", database: db.engine });
    } catch (error) {
      logger.warn({ err: error }, "readiness check failed");
      res.status(503).json({ status: "unavailable", database: db.engine });
    }
  };
}
