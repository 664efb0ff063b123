import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import client from "prom-client";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import type { CacheEvent, PageCache } from "../page-cache.server";

// What /metrics reports about the HTTP side: how long requests take, per route, and what the page
// cache did with them. The app's own figures (jobs, payments) are registered by the app
// (app/app-metrics.server.ts); who may read them is metrics-access.server.ts.

/**
 * Starts the process's default metrics and the request-duration histogram. Installed first, so
 * every later step is measured. Pages and their data are labelled by route id once the build's
 * routes are known (`labelRoutes`); until then, and in development, they are labelled "page".
 */
export function requestMetrics() {
  client.collectDefaultMetrics();
  const httpDuration = new client.Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration by method, route (the route id, or asset, data file, api), kind and status; pages answered from the page cache are counted in page_cache_requests_total instead",
    labelNames: ["method", "route", "kind", "status"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });
  let routeOf: (pathname: string) => string = () => "page";
  /** Times one request, labelled when its answer is finished (`pathname` is read then). */
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
  return {
    timeRequest,
    /** Express middleware timing every request that reaches Express. */
    timing(req: Request, res: Response, next: NextFunction) {
      timeRequest(req, res, () => req.path);
      next();
    },
    labelRoutes(routes: ServerBuild["routes"]) {
      routeOf = routeLabeller(routes);
    },
  };
}

/** The /metrics page itself, in Prometheus' text format. */
export async function metricsPage(_req: Request, res: Response) {
  res.set("Content-Type", client.register.contentType).send(await client.register.metrics());
}

function requestKind(pathname: string) {
  if (pathname.startsWith("/assets/")) return "asset";
  if (pathname.endsWith(".data")) return "data";
  if (pathname.startsWith("/api/")) return "api";
  return "page";
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

/** Counts what the page cache did with each request, and reports its size and hit ratio. */
export function cacheMetrics(logger: Logger) {
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
      logger.error({ err: error }, "page cache failed to answer");
    },
    watch(value: PageCache) {
      cache = value;
    },
  };
}
