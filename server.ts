import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { readdirSync } from "node:fs";
import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import type { Logger } from "pino";
import client from "prom-client";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import type { RequestInfo } from "./app/server/context.server";
import { EnvError, getEnv, isLocalSite } from "./app/server/env.server";
import { gracefulServer, shutDown } from "./app/server/graceful-shutdown.server";
import { getLog } from "./app/server/log.server";
import { type CacheEvent, createPageCache, type PageCache } from "./app/server/page-cache.server";
import type { Runtime } from "./app/server/runtime.server";
import { s3SettingsOf } from "./app/server/storage/s3.server";

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

  // Metrics first, so every later step is measured.
  client.collectDefaultMetrics();
  const httpDuration = new client.Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration by method, route (the route id, or asset, data file, api), kind and status; pages answered from the page cache are counted in page_cache_requests_total instead",
    labelNames: ["method", "route", "kind", "status"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });
  let routeOf: (pathname: string) => string = () => "page";
  const timeRequest = (req: IncomingMessage, res: ServerResponse, pathname: () => string) => {
    const end = httpDuration.startTimer({ method: req.method });
    res.on("finish", () => {
      const kind = requestKind(pathname());
      end({
        status: String(res.statusCode),
        kind,
        route: kind === "page" || kind === "data" ? routeOf(pathname()) : kind,
      });
    });
  };
  app.use((req, res, next) => {
    timeRequest(req, res, () => req.path);
    next();
  });
  const cacheMeter = cacheMetrics();
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
  app.get("/healthz", (_req, res) => {
    res.set("Cache-Control", "no-store").json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    res.set("Cache-Control", "no-store");
    if (!runtime) return void res.status(503).json({ status: "starting" });
    try {
      await runtime.database.ping();
      res.json({ status: "ready", database: runtime.database.engine });
    } catch (error) {
      log.warn({ err: error }, "readiness check failed");
      res.status(503).json({ status: "unavailable", database: runtime.database.engine });
    }
  });
  app.get("/metrics", metricsAccess(env.METRICS_TOKEN), async (_req, res) => {
    res.set("Content-Type", client.register.contentType).send(await client.register.metrics());
  });

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
    routeOf = routeLabeller(serverBuild.routes);
    // Hashed assets never change: cache them for a year. Everything else revalidates.
    app.use(
      "/assets",
      express.static(path.join(buildDir, "client/assets"), { immutable: true, maxAge: "1y", index: false }),
    );
    // The other public files (service worker, icons, splash screens) are known once built, so a
    // page or an API call goes on to the router without a look at the disk.
    const publicFiles = filesUnder(path.join(buildDir, "client"), ["assets"]);
    const servePublic = express.static(path.join(buildDir, "client"), {
      maxAge: "1h",
      index: false,
      setHeaders(res, file) {
        // Browsers compare the service worker byte for byte on every check: always revalidate it.
        if (path.basename(file) === "sw.js") res.setHeader("Cache-Control", "no-cache");
      },
    });
    app.use((req, res, next) => (publicFiles.has(req.path) ? servePublic(req, res, next) : next()));
  }

  runtime = await entry.startApp();
  const started = runtime;
  entry.registerAppMetrics(started);
  // Payment notifications with a plain body are answered before Express (notificationsFirst,
  // below). This route answers the rest at that address, past the page headers, compression and
  // the router: other methods (405) and a body sent compressed. The signature stands in for the
  // Origin check.
  const answerNotification = entry.answerPaymentNotification;
  beforePages.all(
    "/api/webhooks/stripe",
    express.raw({ type: () => true, limit: parseSize(env.BODY_LIMIT) }),
    async (req, res, next) => {
      res.set("Cache-Control", "no-store");
      if (req.method !== "POST") return void res.status(405).set("Allow", "POST").json({ error: "Method not allowed" });
      try {
        const answer = await answerNotification(started, {
          rawBody: Buffer.isBuffer(req.body) ? req.body : new Uint8Array(),
          signature: req.get("stripe-signature") ?? null,
        });
        res.status(answer.status).json(answer.body);
      } catch (error) {
        next(error);
      }
    },
  );
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

  app.use((error: Error & { status?: number; type?: string }, _req: Request, res: Response, _next: NextFunction) => {
    const status = error.status && error.status >= 400 && error.status < 600 ? error.status : 500;
    if (status >= 500) log.error({ err: error }, "request failed");
    if (res.headersSent) return;
    res
      .status(status)
      .type("text/plain")
      .send(status === 413 ? "Payload too large" : status >= 500 ? "Error" : error.message);
  });

  /** The whole site: payment notifications first, then the page cache answers what it can, Express the rest. */
  const pages: RequestListener = pageCache ? (req, res) => pageCache.handle(req, res, app) : app;
  const handler = notificationsFirst({
    path: "/api/webhooks/stripe",
    limit: parseSize(env.BODY_LIMIT),
    answer: (request) => answerNotification(started, request),
    logger: log,
    timeRequest: (req, res) => timeRequest(req, res, () => "/api/webhooks/stripe"),
    next: pages,
  });
  return { app, handler, pageCache, runtime: started, env, entry, stopListening };
}

/** The URL paths (`/icons/icon-64.png`) of the files under `dir`, leaving out the top-level folders `skip`. */
function filesUnder(dir: string, skip: string[]) {
  const found = new Set<string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const relative = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep);
    if (skip.includes(relative[0]!)) continue;
    found.add(`/${relative.join("/")}`);
  }
  return found;
}

/** Counts what the page cache did with each request, and reports its size and hit ratio. */
function cacheMetrics() {
  const requests = new client.Counter({
    name: "page_cache_requests_total",
    help: "Requests by what the page cache did: hit, stale (served while one render refreshes it), not-modified (304), miss (rendered and kept), wait (waited for another request's render), pass (HEAD not kept), bypass (not a page it keeps, or a visitor with a session, cart or flash cookie)",
    labelNames: ["result"],
  });
  const results: CacheEvent[] = ["hit", "stale", "not-modified", "miss", "wait", "pass", "bypass"];
  const counters = Object.fromEntries(results.map((result) => [result, requests.labels({ result })]));
  const counts = Object.fromEntries(results.map((result) => [result, 0])) as Record<CacheEvent, number>;
  let cache: PageCache | undefined;
  new client.Gauge({
    name: "page_cache_hit_ratio",
    help: "Share of the requests the page cache looked up (all but bypass) that it answered from memory, since the server started",
    collect() {
      const answered = counts.hit + counts.stale + counts["not-modified"];
      const looked = answered + counts.miss + counts.wait + counts.pass;
      this.set(looked === 0 ? 0 : answered / looked);
    },
  });
  new client.Gauge({
    name: "page_cache_bytes",
    help: "Memory held by the pages in the page cache, with their compressed forms",
    collect() {
      this.set(cache?.stats().bytes ?? 0);
    },
  });
  new client.Gauge({
    name: "page_cache_pages",
    help: "Pages (and page data) in the page cache",
    collect() {
      this.set(cache?.stats().pages ?? 0);
    },
  });
  return {
    onEvent(event: CacheEvent) {
      counts[event]++;
      counters[event]?.inc();
    },
    onError(error: unknown) {
      log.error({ err: error }, "page cache failed to answer");
    },
    watch(value: PageCache) {
      cache = value;
    },
  };
}

/**
 * The id of the route that answers a path, for the latency histogram (`routes/events/detail`):
 * one series per route, not per address. Remembered per path, up to a bound.
 */
function routeLabeller(routes: ServerBuild["routes"]) {
  const children = new Map<string | undefined, RouteObject[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const siblings = children.get(route.parentId) ?? [];
    siblings.push({
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
    } as RouteObject);
    children.set(route.parentId, siblings);
  }
  const attach = (list: RouteObject[]): RouteObject[] =>
    list.map((route) => (route.index ? route : { ...route, children: attach(children.get(route.id) ?? []) }));
  const tree = attach(children.get(undefined) ?? []);
  const known = new Map<string, string>();
  return (pathname: string) => {
    const page = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
    let label = known.get(page);
    if (label === undefined) {
      const matches = matchRoutes(tree, page);
      label = matches?.at(-1)?.route.id ?? "unmatched";
      if (known.size >= 5000) known.clear();
      known.set(page, label);
    }
    return label;
  };
}

/**
 * React Router's adapter flushes after every chunk it writes, and each flush ends a deflate
 * block, which made compressed pages half as large again. Flushes asked for in one turn of the
 * event loop become one, so streaming still reaches the browser at once.
 */
function coalesceFlushes(_req: Request, res: Response, next: NextFunction) {
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

function requestKind(pathname: string) {
  if (pathname.startsWith("/assets/")) return "asset";
  if (pathname.endsWith(".data")) return "data";
  if (pathname.startsWith("/api/")) return "api";
  return "page";
}

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

/**
 * Query values kept in the request log: searches, pages and switches. Every other value is
 * replaced, because links sent by email and text carry their secret in the query (`token` of a
 * password reset, an email check or a sign-in link) and the Stripe return carries its session.
 */
const LOGGED_QUERY_VALUES = new Set(["q", "page", "order", "error", "edit", "cancelled", "quantity", "redirectTo"]);
/** Headers that carry the session, a credential, or the page the visitor came from (with its query). */
const UNLOGGED_HEADERS = new Set(["cookie", "authorization", "referer", "proxy-authorization"]);

/** The path and query as logged: the query's keys are kept, the values of secret ones are not. */
export function loggedUrl(url: string) {
  const mark = url.indexOf("?");
  if (mark === -1) return url;
  const query = url
    .slice(mark + 1)
    .split("&")
    .filter(Boolean)
    .map((pair) => {
      const [key = ""] = pair.split("=", 1);
      let name = key;
      try {
        name = decodeURIComponent(key.replaceAll("+", " "));
      } catch {}
      return LOGGED_QUERY_VALUES.has(name) ? pair : `${key}=[redacted]`;
    });
  return `${url.slice(0, mark)}?${query.join("&")}`;
}

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
  answer(request: { rawBody: Uint8Array; signature: string | null }): Promise<{ status: number; body: object }>;
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
 * One line per request, without what would let a reader of the logs act as a visitor: "request
 * completed" (info, or warn for a 4xx) or "request errored" (error, for a 5xx or a failed
 * response), with the request, the response and the time it took in milliseconds. Every answer
 * carries an `X-Request-Id` (the caller's, if it sent one). The request and response are read
 * only when a line is written, so a request costs next to nothing at a quieter log level (a child
 * logger per request, as pino-http makes, serialises its request up front, logged or not).
 */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    res.locals.requestId = logRequest(logger, req, res);
    next();
  };
}

/**
 * Gives the request its id (the one a proxy sent, or a new one), answers it in `X-Request-Id`, and
 * writes one line when the answer is finished, or cut off. Answers the id.
 */
export function logRequest(logger: Logger, req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) {
  const id = (req.headers["x-request-id"] as string | undefined)?.slice(0, 64) || randomUUID();
  res.setHeader("X-Request-Id", id);
  if (req.url === "/healthz" || req.url === "/metrics") return id;
  const started = Date.now();
  const finished = (error?: Error) => {
    res.off("finish", finished);
    res.off("close", finished);
    res.off("error", finished);
    const failed = error !== undefined || res.statusCode >= 500;
    const level = failed ? "error" : res.statusCode >= 400 ? "warn" : "info";
    if (!logger.isLevelEnabled(level)) return;
    const line = { req: loggedRequest(req, id), res: loggedResponse(res), responseTime: Date.now() - started };
    if (!failed) return logger[level](line, "request completed");
    const err = error ?? new Error(`failed with status code ${res.statusCode}`);
    logger[level]({ ...line, err }, "request errored");
  };
  res.on("finish", finished);
  res.on("close", finished);
  res.on("error", finished);
  return id;
}

function loggedRequest(req: IncomingMessage & { originalUrl?: string }, id: string) {
  return {
    id,
    method: req.method,
    url: loggedUrl(req.originalUrl ?? req.url ?? ""),
    headers: Object.fromEntries(
      Object.entries(req.headers).filter(([name]) => !UNLOGGED_HEADERS.has(name.toLowerCase())),
    ),
    remoteAddress: req.socket?.remoteAddress,
    remotePort: req.socket?.remotePort,
  };
}

function loggedResponse(res: ServerResponse) {
  const { "set-cookie": _cookie, ...headers } = res.getHeaders();
  return { statusCode: res.statusCode, headers };
}

/** With media in an S3 bucket, pages load images from its public address (docs/media.md). */
function mediaOrigin(env: Parameters<typeof s3SettingsOf>[0]) {
  const s3 = s3SettingsOf(env);
  return s3 ? new URL(s3.publicUrl).origin : null;
}

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

/**
 * CSP with a fresh nonce per response (React Router's inline scripts carry it), framing
 * forbidden, HSTS when served over HTTPS, and the usual hardening headers. Google's map hosts
 * are allowed only when a Maps key is configured (Places autocomplete on the event forms, maps
 * on event pages); the API's own scripts load through 'strict-dynamic' from the nonced bundle.
 */
export function securityHeaders(https: boolean, maps: boolean, media: string | null) {
  const mapsHosts = (...hosts: string[]) => (maps ? ` ${hosts.join(" ")}` : "");
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.nonce = nonce;
    const csp = [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${mapsHosts("https://maps.googleapis.com")}`,
      `style-src 'self' 'nonce-${nonce}'${mapsHosts("https://fonts.googleapis.com")}`,
      "style-src-attr 'unsafe-inline'",
      `img-src 'self' data: blob:${media ? ` ${media}` : ""}${mapsHosts("https://*.googleapis.com", "https://*.gstatic.com", "https://*.google.com", "https://*.googleusercontent.com")}`,
      `font-src 'self'${mapsHosts("https://fonts.gstatic.com")}`,
      `connect-src 'self'${mapsHosts("https://*.googleapis.com", "https://*.google.com", "https://*.gstatic.com")}`,
      // Event pages embed Google's map only when a Maps key is configured.
      `frame-src 'self'${mapsHosts("https://www.google.com")} https://checkout.stripe.com`,
      "worker-src 'self'",
      "manifest-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self' https://checkout.stripe.com",
      "frame-ancestors 'none'",
      ...(https ? ["upgrade-insecure-requests"] : []),
    ].join("; ");
    res.setHeader("Content-Security-Policy", csp);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader(
      "Permissions-Policy",
      "camera=(self), geolocation=(self), microphone=(), payment=(self), usb=(), interest-cohort=()",
    );
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
    if (https) res.setHeader("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
    next();
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cross-site request forgery guard: a state-changing request must come from this site's own
 * pages, which browsers prove with the Origin header.
 */
function originCheck(siteOrigin: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.headers.origin;
    const ownOrigin = `${req.protocol}://${req.headers.host}`;
    if (origin && (origin === siteOrigin || origin === ownOrigin)) return next();
    res.status(403).type("text/plain").send("Forbidden: this request did not come from this site");
  };
}

function parseSize(size: string) {
  const match = /^(\d+)(b|kb|mb)?$/i.exec(size.trim());
  if (!match) return 1024 * 1024;
  const unit = (match[2] ?? "b").toLowerCase();
  return Number(match[1]) * (unit === "mb" ? 1024 * 1024 : unit === "kb" ? 1024 : 1);
}

/**
 * Forms that send files, and the larger limit they get: an avatar (5 MB) and an event cover
 * (15 MB), each checked again by its page.
 */
const UPLOAD_PATHS = new Set(["/settings", "/newProfile"]);
const UPLOAD_PATTERNS = [
  /^\/admin\/events\/[^/]+\/cover$/,
  /^\/admin\/articles\/[^/]+$/,
  /^\/admin\/draws\/[^/]+\/images$/,
  /^\/admin\/shop\/[^/]+\/images$/,
  /^\/members\/garage\/[^/]+\/photos$/,
];
const UPLOAD_LIMIT = 16 * 1024 * 1024;
/**
 * A refused body up to this size is read to its end before the refusal goes out, so the visitor
 * sees the 413 page; a larger one is cut off, so nobody can make the server read gigabytes.
 */
const DRAIN_LIMIT = 2 * UPLOAD_LIMIT;

function isUploadPath(path: string) {
  return UPLOAD_PATHS.has(path) || UPLOAD_PATTERNS.some((pattern) => pattern.test(path));
}

/** Refuses bodies over the limit before the app reads them. Upload routes set their own, larger limit. */
function bodyLimit(limit: string, uploadLimit: number) {
  const defaultMax = parseSize(limit);
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    // A page's form posts to the page, or to its `.data` twin when sent by the router.
    const max = isUploadPath(req.path.replace(/\.data$/, "")) ? Math.max(uploadLimit, defaultMax) : defaultMax;
    const declared = req.headers["content-length"];
    if (declared === undefined) {
      if (req.headers["transfer-encoding"]) return void res.status(411).type("text/plain").send("Length required");
      return next();
    }
    if (Number(declared) > max) {
      // Sent once the body has been read (answerAfterBody): the connection can then close cleanly.
      res.setHeader("Connection", "close");
      return void res.status(413).type("text/plain").send("Payload too large");
    }
    next();
  };
}

/**
 * An answer given before the request's body has been read (sign in first, too large, not from
 * this site) goes out once the rest of the body has been read and thrown away. Sent at once, and
 * with the connection closed after it, it reaches a browser that is still sending its upload as a
 * reset connection instead of the page: the browser's write fails (EPIPE, ECONNRESET) and the
 * answer is lost. A body declared larger than `limit`, or one that runs past it, is not read on:
 * the answer goes at once and the connection is closed under it. A client that sends its body too
 * slowly is cut off by the server's request timeout, as any other is.
 */
function answerAfterBody(limit: number) {
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
