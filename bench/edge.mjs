// The edge: how close the site comes to a static file server, page by page, and what rendering
// costs where no cache can help.
//
//   node bench/edge.mjs [--duration 5] [--warmup 2] [--connections 32] [--page /events …]
//                       [--gzip] [--tool wrk|autocannon] [--no-pin] [--no-save]
//
// For each page, the same load (a warm-up, then the measured run) against six servers:
//
//   nginx      the page's HTML, saved from the app, served from disk (with --gzip, its gzip form
//              made once beside it, as the page cache keeps its own);
//   node       bench/static-server.mjs: the same bytes from memory, by a bare Node `http` server;
//   hit        the app (`node --import tsx server.ts`, production build) with its page cache,
//              anonymous: answered from memory, re-rendered about once a second;
//   miss       the same app, each request with a query string of its own (`?m=<run>-<n>`), so
//              every request renders the page and stores it;
//   signed-in  the same app with the demo member's session cookie: never cached;
//   bare       bench/bare-server.mjs: the same build served by React Router on a bare Express app
//              (no compression, logging, security headers or cache), anonymous.
//
// It prints requests per second of each, the ratios hit/nginx (target ≥ 0.20), hit/node
// (≥ 0.9), miss/bare and signed-in/bare (≥ 0.5) with PASS or FAIL, the 99th percentile latency of
// each with hit p99 against three times nginx's, and the CPU time per request of each server.
// Requests send no Accept-Encoding unless --gzip (then gzip, to all six). Servers are started
// once for all pages, pinned to the last CPU, the load generator to the first (as
// bench/throughput.mjs does; --no-pin leaves it to the scheduler).
import { parseArgs } from "node:util";
import {
  assertBuilt,
  cpuTimeMs,
  fetchPage,
  isMain,
  kb,
  printTable,
  runCli,
  startServer,
  warnIfBusy,
  writeResult,
} from "./helpers.mjs";
import { available, chooseTool, loadGenerator, NGINX, pinCpus, probe, startNginx, startStaticNode } from "./load.mjs";
import { PUBLIC_PAGES } from "./pages.mjs";

/** The pages measured by default, in this order (each is in pages.mjs). */
export const EDGE_PAGES = [
  "/events/silverstone-festival-of-speed",
  "/",
  "/events",
  "/giveaways",
  "/giveaways/win-a-mk2-golf-gti",
  "/community",
  "/community/cars/94b25da9-6704-5b1e-baa5-e3cabeffa6ca",
  "/shop",
  "/shop/club-tee",
  "/blog",
  "/blog/night-meet-at-the-old-airfield",
];

export const MODES = ["nginx", "node", "hit", "miss", "signedIn", "bare"];
const MODE_LABELS = { nginx: "nginx", node: "node", hit: "hit", miss: "miss", signedIn: "signed-in", bare: "bare" };

/** Each ratio of requests per second, and the least it should be. */
export const TARGETS = [
  { name: "hit/nginx", over: "hit", under: "nginx", min: 0.2 },
  { name: "hit/node", over: "hit", under: "node", min: 0.9 },
  { name: "miss/bare", over: "miss", under: "bare", min: 0.5 },
  { name: "signed-in/bare", over: "signedIn", under: "bare", min: 0.5 },
];

/** A hit's 99th percentile latency may be at most this many times nginx's, in the same run. */
export const TAIL_MAX = 3;

const DEMO_MEMBER = { email: "member@pitlane.test", password: "pitlane-member-demo" };

/** Signs the demo member in with the sign-in form, as a browser without JavaScript; returns the Cookie header. */
async function signIn(origin) {
  const response = await fetch(`${origin}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
    body: new URLSearchParams({ intent: "password", ...DEMO_MEMBER }),
  });
  const cookies = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .filter((pair) => pair.includes("session_token") && !pair.endsWith("="));
  if (response.status !== 302 || cookies.length === 0) {
    throw new Error(
      `signing in as ${DEMO_MEMBER.email} answered ${response.status}: ${(await response.text()).slice(0, 300)}`,
    );
  }
  return cookies.join("; ");
}

/** What a page answers anonymously once its first render is stored: the bytes nginx will serve. */
async function cachedHtml(url) {
  await (await fetchPage(url)).arrayBuffer();
  const response = await fetchPage(url);
  return { html: await response.text(), cache: response.headers.get("x-cache") };
}

const SEPARATOR = (url) => (url.includes("?") ? "&" : "?");

export async function main(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: "string", default: "5" },
      warmup: { type: "string", default: "2" },
      connections: { type: "string", default: "32" },
      page: { type: "string", multiple: true, default: [] },
      gzip: { type: "boolean", default: false },
      tool: { type: "string" },
      "no-pin": { type: "boolean", default: false },
      "no-save": { type: "boolean", default: false },
    },
  });
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  const warmup = Number(values.warmup);
  if (!(duration > 0) || !(connections > 0) || !(warmup >= 0)) {
    throw new Error("--duration and --connections must be positive numbers, --warmup zero or more");
  }
  const pages = values.page.length > 0 ? values.page : EDGE_PAGES;
  for (const page of pages) {
    if (!page.startsWith("/")) throw new Error(`--page ${page}: a path is expected, such as /events`);
    if (!PUBLIC_PAGES.some((known) => known.path === page)) {
      console.warn(`note: ${page} is not in bench/pages.mjs; measuring it anyway`);
    }
  }
  const tool = chooseTool(values.tool);
  if (!available(NGINX, ["-v"])) throw new Error(`nginx not found at ${NGINX} (set NGINX_PATH)`);
  assertBuilt();

  warnIfBusy();
  const { pin, serverCpu, loadCpu, restore: restoreAffinity } = pinCpus({ pin: !values["no-pin"], tool });
  const headers = values.gzip ? { "Accept-Encoding": "gzip" } : {};

  console.log("Starting the app and the bare server…");
  const [app, bare] = await Promise.all([
    // Both start on the servers' one CPU, which other work may share: allow them time.
    startServer({ cpu: serverCpu, timeoutMs: 600_000 }),
    startServer({ cpu: serverCpu, script: "bench/bare-server.mjs", timeoutMs: 600_000 }),
  ]);
  const cookie = await signIn(app.origin);
  const saved = [];
  for (const page of pages) {
    const { html, cache } = await cachedHtml(new URL(page, app.origin).href);
    // A render that takes longer than the cache keeps a page fresh (a busy machine) misses again:
    // only no X-Cache at all means the cache is off.
    if (!cache) throw new Error(`GET ${page} answered without X-Cache: is PAGE_CACHE_MB 0?`);
    saved.push({ url: page, html });
  }
  const nginx = await startNginx(saved, { cpu: serverCpu, precompressed: values.gzip });
  const node = await startStaticNode(saved, { cpu: serverCpu, precompressed: values.gzip });
  const load = loadGenerator({ tool, connections, headers, cpu: loadCpu });

  console.log(
    `${pages.length} page(s); ${tool}, ${connections} connections, ${warmup} s warm-up + ${duration} s per server and page, ` +
      `${values.gzip ? "Accept-Encoding: gzip" : "no compression"}` +
      `${pin ? `; servers on CPU ${serverCpu}, load on CPU ${loadCpu}` : ""}\n`,
  );

  const targetsOf = (page) => ({
    nginx: { url: new URL(page, nginx.origin).href, pid: nginx.pid, headers },
    node: { url: new URL(page, node.origin).href, pid: node.pid, headers },
    hit: { url: new URL(page, app.origin).href, pid: app.pid, headers },
    miss: { url: new URL(page, app.origin).href, pid: app.pid, headers, uniqueQuery: true },
    signedIn: { url: new URL(page, app.origin).href, pid: app.pid, headers: { ...headers, Cookie: cookie } },
    bare: { url: new URL(page, bare.origin).href, pid: bare.pid, headers },
  });

  const results = [];
  for (const [index, page] of pages.entries()) {
    const modes = {};
    for (const [mode, target] of Object.entries(targetsOf(page))) {
      const probeUrl = target.uniqueQuery ? `${target.url}${SEPARATOR(target.url)}m=probe-${index}` : target.url;
      const response = await probe(probeUrl, target.headers);
      if (warmup > 0) await load(target.url, warmup, target);
      const cpuBefore = cpuTimeMs(target.pid);
      const result = await load(target.url, duration, target);
      const cpuMs = cpuBefore === undefined ? undefined : cpuTimeMs(target.pid) - cpuBefore;
      // What the page cache answered just after the run: a hit keeps hitting, a miss keeps missing.
      const after = await probe(probeUrl.replace("m=probe-", "m=after-"), target.headers);
      modes[mode] = {
        url: target.url,
        response: { ...response, cacheAfterRun: after.cache },
        ...result,
        cpuMsPerRequest: cpuMs === undefined || result.requests === 0 ? undefined : cpuMs / result.requests,
      };
    }
    const ratios = Object.fromEntries(
      TARGETS.map(({ name, over, under, min }) => {
        // A run that completed no request (every render slower than the run) measures nothing.
        const measured = modes[over].requests > 0 && modes[under].requests > 0;
        const value = measured ? modes[over].requestsPerSecond / modes[under].requestsPerSecond : null;
        return [name, { value, min, pass: measured ? value >= min : null }];
      }),
    );
    const hitP99 = modes.hit.latencyMs?.p99;
    const nginxP99 = modes.nginx.latencyMs?.p99;
    const tail =
      hitP99 === undefined || !nginxP99
        ? { value: null, max: TAIL_MAX, pass: null }
        : { value: hitP99 / nginxP99, max: TAIL_MAX, pass: hitP99 <= TAIL_MAX * nginxP99 };
    results.push({ path: page, htmlBytes: Buffer.byteLength(saved[index].html), modes, ratios, tail });
    const rps = MODES.map((mode) => `${MODE_LABELS[mode]} ${Math.round(modes[mode].requestsPerSecond)}`).join(", ");
    console.log(`${page}: ${rps} req/s`);
  }
  await restoreAffinity();
  await Promise.all([nginx.stop(), node.stop(), app.stop(), bare.stop()]);

  const file = values["no-save"]
    ? undefined
    : writeResult("edge", {
        tool,
        connections,
        durationSeconds: duration,
        warmupSeconds: warmup,
        acceptEncoding: headers["Accept-Encoding"] ?? "identity",
        pinned: pin ? { server: serverCpu, load: loadCpu } : false,
        targets: TARGETS,
        tailMax: TAIL_MAX,
        appStartupMs: app.startupMs,
        bareStartupMs: bare.startupMs,
        results,
      });
  console.log("\nRequests per second, and the ratios against their targets:\n");
  printTable(
    [
      "page",
      ...MODES.map((mode) => MODE_LABELS[mode]),
      ...TARGETS.flatMap(({ name, min }) => [`${name} ≥ ${min}`, ""]),
    ],
    results.map(({ path, modes, ratios }) => [
      path,
      ...MODES.map((mode) => Math.round(modes[mode].requestsPerSecond)),
      ...TARGETS.flatMap(({ name }) => {
        const { value, pass } = ratios[name];
        return value === null ? ["n/a", "none"] : [value.toFixed(2), pass ? "PASS" : "FAIL"];
      }),
    ]),
    `l${"r".repeat(MODES.length)}${"rl".repeat(TARGETS.length)}`,
  );
  console.log(`\n99th percentile latency (ms), and hit's against ${TAIL_MAX}× nginx's:\n`);
  printTable(
    ["page", ...MODES.map((mode) => MODE_LABELS[mode]), "hit/nginx p99", ""],
    results.map(({ path, modes, tail }) => [
      path,
      ...MODES.map((mode) => modes[mode].latencyMs?.p99?.toFixed(1) ?? "n/a"),
      tail.value === null ? "n/a" : tail.value.toFixed(1),
      tail.pass === null ? "none" : tail.pass ? "PASS" : "FAIL",
    ]),
    `l${"r".repeat(MODES.length + 1)}l`,
  );
  console.log("\nCPU time per request (ms, the server's processes, all threads) and one response on the wire:\n");
  printTable(
    ["page", ...MODES.map((mode) => MODE_LABELS[mode]), "HTML", "hit on the wire"],
    results.map(({ path, modes, htmlBytes }) => [
      path,
      ...MODES.map((mode) => modes[mode].cpuMsPerRequest?.toFixed(2) ?? "n/a"),
      kb(htmlBytes),
      `${kb(modes.hit.response.bytes)} ${modes.hit.response.contentEncoding}`,
    ]),
    `l${"r".repeat(MODES.length + 2)}`,
  );
  const passed = TARGETS.map(({ name }) => [name, results.filter(({ ratios }) => ratios[name].pass).length]);
  passed.push([`hit p99 ≤ ${TAIL_MAX}× nginx`, results.filter(({ tail }) => tail.pass).length]);
  console.log(`\n${passed.map(([name, count]) => `${name}: ${count} of ${results.length} pages pass`).join("; ")}`);
  for (const { path, modes } of results) {
    for (const mode of MODES) {
      const r = modes[mode];
      if (r.requests === 0) console.warn(`warning: ${path}, ${MODE_LABELS[mode]}: no request completed in the run`);
      if (r.errors || r.non2xx) {
        console.warn(`warning: ${path}, ${MODE_LABELS[mode]}: ${r.errors} errors and ${r.non2xx} non-2xx answers`);
      }
    }
    if (modes.hit.response.cacheAfterRun !== "HIT" && modes.hit.response.cacheAfterRun !== "STALE") {
      console.warn(`warning: ${path}: X-Cache ${modes.hit.response.cacheAfterRun ?? "(none)"} after the hit run`);
    }
    if (modes.miss.response.cache !== "MISS") {
      console.warn(`warning: ${path}: X-Cache ${modes.miss.response.cache ?? "(none)"} for a new query string`);
    }
    if (modes.signedIn.response.cache !== undefined) {
      console.warn(`warning: ${path}: X-Cache ${modes.signedIn.response.cache} for the signed-in member`);
    }
  }

  if (file) console.log(`result: ${file}`);
  return { results, file };
}

if (isMain(import.meta.url)) runCli(() => main().then(() => 0));
