import type { RequestListener, Server } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import type { ServerBuild } from "react-router";
import type { RequestInfo } from "./app/server/context.server";
import { EnvError, getEnv, isLocalSite } from "./app/server/env.server";
import { gracefulServer, shutDown } from "./app/server/graceful-shutdown.server";
import { answerAfterBody } from "./app/server/http/answer-after-body.server";
import { bodyLimit, DRAIN_LIMIT, parseSize, UPLOAD_LIMIT } from "./app/server/http/body-limits.server";
import { coalesceFlushes } from "./app/server/http/coalesce-flushes.server";
import { answerErrors } from "./app/server/http/error-answer.server";
import { healthz, readyz } from "./app/server/http/health.server";
import { cacheMetrics, metricsPage, requestMetrics } from "./app/server/http/metrics.server";
import { metricsAccess } from "./app/server/http/metrics-access.server";
import { refuseNulInAddress } from "./app/server/http/nul-in-address.server";
import { originCheck } from "./app/server/http/origin-check.server";
import {
  type AnswerNotification,
  notificationRoute,
  notificationsFirst,
  PAYMENT_NOTIFICATIONS_PATH,
} from "./app/server/http/payment-notifications.server";
import { requestLog } from "./app/server/http/request-log.server";
import { mediaOrigin, securityHeaders } from "./app/server/http/security-headers.server";
import { builtAssets, builtPublicFiles } from "./app/server/http/static-files.server";
import { getLog } from "./app/server/log.server";
import { createPageCache } from "./app/server/page-cache.server";
import type { Runtime } from "./app/server/runtime.server";

// Starts the site: reads the environment, puts the HTTP pipeline together from the steps in
// app/server/http/ (each says why it is there), starts the app through the build's entry module
// and listens. The order of the steps below is the order a request meets them.

/** What app/entry.server.tsx exports besides the renderer. */
type AppEntry = {
  startApp(options?: { work?: boolean }): Promise<Runtime>;
  createLoadContext(runtime: Runtime, info: RequestInfo): unknown;
  demoSignIns(db: Runtime["db"]): Promise<{ role: string; email: string; password: string }[]>;
  pagesShowing(table: string | null): readonly string[];
  registerAppMetrics(runtime: Runtime): void;
  answerPaymentNotification(
    runtime: Runtime,
    request: { rawBody: Uint8Array; signature: string | null },
  ): Promise<{ status: number; body: object }>;
};

const dev = process.argv.includes("--dev");
const log = getLog();

function loadEnv() {
  try {
    return getEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

export async function createServer() {
  const env = loadEnv();
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY ? 1 : false);
  const siteOrigin = new URL(env.SITE_URL).origin;
  const bodyLimitBytes = parseSize(env.BODY_LIMIT);

  // Metrics first, so every later step is measured.
  const metrics = requestMetrics();
  app.use(metrics.timing);
  const cacheMeter = cacheMetrics(log);
  const pageCache =
    env.PAGE_CACHE_MB > 0
      ? createPageCache({
          maxBytes: env.PAGE_CACHE_MB * 1024 * 1024,
          onEvent: cacheMeter.onEvent,
          onError: cacheMeter.onError,
        })
      : null;
  if (pageCache) cacheMeter.watch(pageCache);

  app.use(requestLog(log));

  // Answered before the page pipeline below; its routes are added once the app has started.
  const beforePages = express.Router();
  app.use(beforePages);

  app.use(securityHeaders(env.SITE_URL.startsWith("https://"), Boolean(env.GOOGLE_MAPS_API_KEY), mediaOrigin(env)));
  app.use(compression());
  app.use(coalesceFlushes);
  // After compression, so that the answer it holds back is the whole (compressed) answer.
  app.use(answerAfterBody(DRAIN_LIMIT));

  let runtime: Runtime | undefined;
  app.get("/healthz", healthz);
  app.get(
    "/readyz",
    readyz(() => runtime?.database, log),
  );
  app.get("/metrics", metricsAccess(env.METRICS_TOKEN), metricsPage);

  app.use(refuseNulInAddress);
  app.use(originCheck(siteOrigin));
  app.use(bodyLimit(env.BODY_LIMIT, UPLOAD_LIMIT));

  let entry: AppEntry;
  let build: ServerBuild | (() => Promise<ServerBuild>);
  if (dev) {
    const vite = await import("vite").then((vite) => vite.createServer({ server: { middlewareMode: true } }));
    app.use(vite.middlewares);
    build = () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
    entry = (await build()).entry.module as unknown as AppEntry;
  } else {
    const buildDir = path.resolve("build");
    const serverBuild = (await import(path.join(buildDir, "server/index.js"))) as ServerBuild;
    build = serverBuild;
    entry = serverBuild.entry.module as unknown as AppEntry;
    metrics.labelRoutes(serverBuild.routes);
    app.use("/assets", builtAssets(buildDir));
    app.use(builtPublicFiles(buildDir));
  }

  runtime = await entry.startApp();
  const started = runtime;
  entry.registerAppMetrics(started);
  const answerNotification: AnswerNotification = (request) => entry.answerPaymentNotification(started, request);
  // Payment notifications with a plain body are answered before Express (notificationsFirst,
  // below); this route answers the rest at that address, before the Origin check.
  beforePages.all(PAYMENT_NOTIFICATIONS_PATH, notificationRoute({ limit: bodyLimitBytes, answer: answerNotification }));
  let stopListening = async () => {};
  if (pageCache) {
    // Every server drops the pages that show what changed, whichever server (or job) changed it.
    stopListening = await started.database.listen("page_changes", (table) =>
      pageCache.purge(entry.pagesShowing(table)),
    );
  }

  app.use(
    createRequestHandler({
      build,
      mode: dev ? "development" : "production",
      getLoadContext: (req, res) =>
        entry.createLoadContext(started, {
          nonce: res.locals.nonce as string,
          requestId: String(res.locals.requestId),
          ip: req.ip ?? req.socket.remoteAddress ?? "",
        }) as never,
    }),
  );

  app.use(answerErrors(log));

  /** The whole site: payment notifications first, then the page cache answers what it can, Express the rest. */
  const pages: RequestListener = pageCache ? (req, res) => pageCache.handle(req, res, app) : app;
  const handler = notificationsFirst({
    path: PAYMENT_NOTIFICATIONS_PATH,
    limit: bodyLimitBytes,
    answer: answerNotification,
    logger: log,
    timeRequest: (req, res) => metrics.timeRequest(req, res, () => PAYMENT_NOTIFICATIONS_PATH),
    next: pages,
  });
  return { app, handler, pageCache, runtime: started, env, entry, stopListening };
}

async function main() {
  const { handler, runtime, env, entry, stopListening } = await createServer();
  // Demo accounts have public passwords: say so wherever they exist (start-up refuses them on a
  // site that is not local unless SEED_DEMO=1 asked for them).
  const demo = await entry.demoSignIns(runtime.db);
  const publicDemo = demo.length > 0 && !isLocalSite(env.SITE_URL);
  // Drains on SIGTERM instead of dropping connections: rolling restarts lose no request (docs/deploy.md).
  const graceful = gracefulServer(handler, { timeoutMs: env.SHUTDOWN_TIMEOUT * 1000, log });
  const server: Server = graceful.server.listen(env.PORT, env.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    const local = `http://localhost:${port}`;
    log.info({ port, engine: runtime.database.engine }, "listening");
    console.log(`\n  ${env.SITE_NAME} is running at ${local}`);
    if (!isLocalSite(env.SITE_URL)) console.log(`  Public address: ${env.SITE_URL}`);
    if (runtime.mail.name === "mailbox" && runtime.sms.name === "mailbox") {
      console.log(`  Mailbox (emails and texts sent by the site): ${local}/dev/mailbox`);
    }
    console.log(
      `  Database: ${runtime.database.engine === "pglite" ? `embedded, in ${env.DATA_DIR}` : "PostgreSQL"}\n`,
    );
    if (publicDemo) {
      console.log(
        `  WARNING: ${env.SITE_URL} is not a local address and serves the demo accounts below (SEED_DEMO=1).`,
      );
      console.log("  Anyone who reads these passwords can sign in as admin. Never run a real club's site like this.\n");
    }
    if (demo.length === 0 && !isLocalSite(env.SITE_URL)) {
      console.log("  No demo accounts or content: this is not a local address (SEED_DEMO=1 would add them).\n");
    }
    if (demo.length > 0) {
      console.log("  Demo sign-ins (public passwords, for trying the site out):");
      for (const { role, email, password } of demo)
        console.log(`    ${role.padEnd(10)} ${email.padEnd(24)} ${password}`);
      console.log("");
    }
  });
  server.keepAliveTimeout = 65_000;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    process.exit(
      await shutDown({
        drain: () => graceful.drain({ closeIdle: signal === "SIGINT" }),
        stopRuntime: async () => {
          await stopListening();
          await runtime.stop();
        },
        log,
      }),
    );
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

// Started as a program (`node server.ts`), not when a test imports its parts.
if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  main().catch((error) => {
    log.fatal({ err: error }, "could not start");
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
