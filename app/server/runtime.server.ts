import type { MiddlewareFunction } from "react-router";
import type { Auth } from "./auth/auth.server";
import type { SessionCache } from "./auth/session-cache.server";
import type { DatabaseHandle, Db } from "./db/client.server";
import type { Env } from "./env.server";
import type { JobQueue } from "./jobs/queue.server";
import type { MailTransport } from "./mail/mail.server";
import type { Outbox } from "./messages.server";
import type { PaymentGateway } from "./payments/payments.server";
import type { SmsTransport } from "./sms/sms.server";
import type { Storage } from "./storage/storage.server";

/** A route-change step: React Router middleware, registered by name in the composition root. */
export type RouteStep = MiddlewareFunction<Response>;

/**
 * Everything a request needs from the process, made once by the composition root
 * (app/app.server.ts) and handed to every loader and action through the router context.
 */
export type Runtime = {
  env: Env;
  db: Db;
  database: DatabaseHandle;
  jobs: JobQueue;
  auth: Auth;
  /** Sign-ins this server looked up lately, dropped when the database announces a change. */
  sessions: SessionCache;
  mail: MailTransport;
  sms: SmsTransport;
  /** Where pages and rules post the emails and texts they send (delivered by a job). */
  outbox: Outbox;
  payments: PaymentGateway;
  storage: Storage;
  /** The route-change steps by name (`steps("cart")` in a route module). */
  steps: Record<string, RouteStep>;
  startedAt: Date;
  stop(): Promise<void>;
};
