// Where a signed-in page spends its CPU: a V8 CPU profile of the production build while it
// serves one page over and over, drawn as a flame graph, with the top functions and the number
// of SQL statements each request sent.
//
//   node bench/profile.mjs [--path /events/silverstone-festival-of-speed] [--path /cart]
//                          [--requests 300] [--warmup 50] [--connections 1] [--as member|visitor]
//                          [--label before] [--out bench/results] [--sql]
//                          [--database postgres://postgres@127.0.0.1:5432/postgres]
//
// For each --path, in turn: starts the built server (fresh embedded database with the demo
// content, as bench/throughput.mjs does; with --database, a scratch database of its own created
// on that PostgreSQL server, seeded by the app as it starts and dropped afterwards) under `node --cpu-prof` with bench/query-count.mjs
// loaded, signs in as the demo member (`--as visitor`: does not), puts one ticket of the demo
// event in the cart when the path is /cart, loads the page `--warmup` times, then `--requests`
// times more (measured), and stops the server with SIGINT so it writes its profile. Then:
//
// - CPU ms per request: the server's user + system time over the measured requests (all threads,
//   from /proc, so gzip in libuv's pool and the GC's helpers count) ÷ requests; and the main
//   thread's sampled CPU over the same window ÷ requests (the flame graph's total);
// - SQL statements per request (min / median / max over the measured requests);
// - the flame graph of the measured window: `<out>/profile-<label>-<page>.svg`, with the folded
//   stacks (`.folded`, for other flame graph tools), the page's HTML and, with --sql, the
//   statements of one request (`.sql.txt`) beside it;
// - the top functions by self and inclusive time, and the self time per package;
// - what gzip costs for this page's HTML at levels 1, 4, 6 (compression()'s default) and 9.
//
// Requests send `Accept-Encoding: gzip`, as browsers do. Figures are per request and taken with
// the profiler on (it costs a few per cent); compare runs on the same machine.

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { register } from "tsx/esm/api";
import { flameGraphSvg, foldedStacks, formatTop, readProfile, samplesOf, topFunctions } from "./flamegraph.mjs";
import {
  assertBuilt,
  cpuTimeMs,
  isMain,
  onCleanup,
  RESULTS_DIR,
  ROOT,
  runCli,
  startServer,
  tempDir,
  warnIfBusy,
  writeResult,
} from "./helpers.mjs";

const DEMO_MEMBER = { email: "member@pitlane.test", password: "pitlane-member-demo", name: "Jamie Cole" };
const DEMO_EVENT = "/events/silverstone-festival-of-speed";

/** One GET or POST over a keep-alive connection; the body is read but not decompressed. */
function send(origin, agent, { method = "GET", path: target, headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${target}`, { method, agent, headers }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

function cookiesOf(response) {
  const set = response.headers["set-cookie"] ?? [];
  return set.map((cookie) => cookie.split(";")[0]).filter((pair) => !pair.endsWith("="));
}

/** Signs the demo member in with the sign-in page's form, as a browser without JavaScript; returns the Cookie header. */
async function signIn(origin, agent) {
  const response = await send(origin, agent, {
    method: "POST",
    path: "/login",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
    body: new URLSearchParams({
      intent: "password",
      email: DEMO_MEMBER.email,
      password: DEMO_MEMBER.password,
    }).toString(),
  });
  const cookies = cookiesOf(response).filter((cookie) => cookie.includes("session_token"));
  if (response.status !== 302 || cookies.length === 0) {
    throw new Error(
      `signing in as ${DEMO_MEMBER.email} answered ${response.status}: ${response.body.toString().slice(0, 300)}`,
    );
  }
  return cookies.join("; ");
}

/** Puts one ticket of the demo event's first ticket type on sale into the cart. */
async function addTicket(origin, agent, cookie) {
  const page = await send(origin, agent, { path: DEMO_EVENT, headers: { Cookie: cookie } });
  const match = /name="ticketTypeId"[^>]*value="([0-9a-f-]{36})"|value="([0-9a-f-]{36})"[^>]*name="ticketTypeId"/.exec(
    page.body.toString(),
  );
  if (!match) throw new Error(`no Add to cart form on ${DEMO_EVENT}`);
  const response = await send(origin, agent, {
    method: "POST",
    path: DEMO_EVENT,
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin, Cookie: cookie },
    body: new URLSearchParams({ ticketTypeId: match[1] ?? match[2], quantity: "1" }).toString(),
  });
  if (response.status >= 400) throw new Error(`Add to cart answered ${response.status}`);
  // A visitor gets a cart cookie with the first ticket.
  return [cookie, ...cookiesOf(response).filter((pair) => pair.startsWith("pitlane.cart"))].filter(Boolean).join("; ");
}

/** Loads `target` `count` times over `connections` connections; fails on anything but 200. */
async function load(origin, agent, target, cookie, count, connections) {
  let next = 0;
  let bytes = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const response = await send(origin, agent, {
        path: target,
        headers: { "Accept-Encoding": "gzip", ...(cookie ? { Cookie: cookie } : {}) },
      });
      if (response.status !== 200) throw new Error(`GET ${target} answered ${response.status}`);
      bytes = response.body.length;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return bytes;
}

/** Microseconds on CLOCK_MONOTONIC, the clock of V8's profiles on Linux. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** The time and size of gzip for `html` at a few levels (best of a few rounds). */
function gzipLevels(html, levels = [1, 4, 6, 9]) {
  return levels.map((level) => {
    let best = Infinity;
    let size = 0;
    for (let round = 0; round < 5; round++) {
      const start = performance.now();
      for (let i = 0; i < 20; i++) size = gzipSync(html, { level }).length;
      best = Math.min(best, (performance.now() - start) / 20);
    }
    return { level, ms: best, bytes: size };
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
}

/**
 * A scratch database on the PostgreSQL server of `serverUrl`, made with the test suites' helpers,
 * and a drop() that removes it (also when the script is interrupted).
 */
async function scratchDatabase(serverUrl) {
  const { databaseUrl, maintenance, uniqueDatabaseName } = await import("../app/server/db/test-template.ts");
  const name = uniqueDatabaseName("pitlane_profile");
  await maintenance(serverUrl, `create database "${name}"`);
  const drop = onCleanup(() => maintenance(serverUrl, `drop database if exists "${name}" with (force)`));
  return { url: databaseUrl(serverUrl, name), drop };
}

async function profilePage(target, options) {
  const profileDir = tempDir("cpuprof");
  const queryLog = path.join(profileDir, "queries.jsonl");
  const counter = pathToFileURL(path.join(ROOT, "bench/query-count.mjs")).href;
  const database = options.database ? await scratchDatabase(options.database) : undefined;
  const server = await startServer({
    timeoutMs: 180_000,
    nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--import=${counter}`],
    env: {
      QUERY_LOG: queryLog,
      ...(options.sql ? { QUERY_LOG_SQL: "1" } : {}),
      // On a database server the app asks what it cannot pick for itself on one machine.
      ...(database
        ? { DATABASE_URL: database.url, PAYMENTS: "test", AUTH_SECRET: "profile-secret-".repeat(3), SEED_DEMO: "1" }
        : {}),
    },
  });
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  let cookie = options.as === "member" ? await signIn(server.origin, agent) : "";
  if (target === "/cart") cookie = await addTicket(server.origin, agent, cookie);

  const page = await send(server.origin, agent, { path: target, headers: cookie ? { Cookie: cookie } : {} });
  const html = page.body;
  if (page.status !== 200) throw new Error(`GET ${target} answered ${page.status}`);
  if (options.as === "member" && !html.includes(DEMO_MEMBER.name)) {
    throw new Error(`GET ${target} does not show ${DEMO_MEMBER.name}: not signed in?`);
  }
  await load(server.origin, agent, target, cookie, options.warmup, options.connections);

  const logged = () => readFileSync(queryLog, "utf8").trim().split("\n").filter(Boolean);
  const before = logged().length;
  const cpuBefore = cpuTimeMs(server.pid);
  const from = monotonicUs();
  const wireBytes = await load(server.origin, agent, target, cookie, options.requests, options.connections);
  const to = monotonicUs();
  const cpuAfter = cpuTimeMs(server.pid);
  const measured = logged()
    .slice(before)
    .map((line) => JSON.parse(line))
    .filter((line) => line.url === target);
  agent.destroy();

  // SIGINT: the server shuts down through process.exit, which is when V8 writes the profile.
  process.kill(server.pid, "SIGINT");
  const deadline = Date.now() + 60_000;
  let profileFile;
  while (!profileFile && Date.now() < deadline) {
    profileFile = readdirSync(profileDir).find((name) => name.endsWith(`.${server.pid}.0.001.cpuprofile`));
    if (!profileFile) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // The file appears once written in full (V8 writes it in one go at exit); give it a moment.
  await new Promise((resolve) => setTimeout(resolve, 500));
  await server.stop();
  await database?.drop();
  if (!profileFile) throw new Error(`no CPU profile written in ${profileDir}`);

  const profile = readProfile(path.join(profileDir, profileFile));
  let samples = samplesOf(profile, { from, to });
  let windowed = true;
  if (samples.length === 0) {
    // Another clock than expected: fall back to the whole profile (start-up included).
    samples = samplesOf(profile);
    windowed = false;
  }
  const top = topFunctions(samples, options.top);
  const requests = options.requests;
  const name = target.replace(/^\//, "").replace(/[^a-z0-9]+/gi, "-") || "home";
  const base = path.join(options.out, `profile-${options.label ? `${options.label}-` : ""}${name}`);
  mkdirSync(options.out, { recursive: true });
  const folded = foldedStacks(samples);
  writeFileSync(`${base}.folded`, `${folded.join("\n")}\n`);
  const queries = measured.map((line) => line.queries);
  const cpuMsPerRequest = (cpuAfter - cpuBefore) / requests;
  const sampledMsPerRequest = top.totalUs / 1000 / requests;
  writeFileSync(
    `${base}.svg`,
    flameGraphSvg(folded, {
      title: `${options.as === "member" ? "Signed-in member" : "Visitor"}: GET ${target}${options.label ? ` (${options.label})` : ""}`,
      subtitle: `${requests} requests: CPU ${cpuMsPerRequest.toFixed(1)} ms/req (process), ${median(queries)} SQL statements/req; main-thread samples ${sampledMsPerRequest.toFixed(1)} ms/req`,
    }),
  );
  writeFileSync(`${base}.html`, html);
  if (options.sql && measured[0]?.sql) writeFileSync(`${base}.sql.txt`, `${measured[0].sql.join("\n")}\n`);

  return {
    path: target,
    as: options.as,
    requests,
    seconds: (to - from) / 1e6,
    cpuMsPerRequest,
    sampledMsPerRequest,
    windowed,
    queries: { min: Math.min(...queries), median: median(queries), max: Math.max(...queries), logged: queries.length },
    htmlBytes: html.length,
    gzipBytes: wireBytes,
    gzip: gzipLevels(html),
    flameGraph: path.relative(process.cwd(), `${base}.svg`),
    top,
  };
}

export async function main(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      path: { type: "string", multiple: true },
      requests: { type: "string", default: "300" },
      warmup: { type: "string", default: "50" },
      connections: { type: "string", default: "1" },
      as: { type: "string", default: "member" },
      label: { type: "string", default: "" },
      out: { type: "string", default: RESULTS_DIR },
      top: { type: "string", default: "20" },
      sql: { type: "boolean", default: false },
      database: { type: "string" },
      "no-save": { type: "boolean", default: false },
    },
  });
  if (!["member", "visitor"].includes(values.as)) throw new Error("--as is member or visitor");
  // The scratch database's helpers are the test suites' TypeScript.
  if (values.database) register();
  assertBuilt();
  warnIfBusy();
  const options = {
    requests: Number(values.requests),
    warmup: Number(values.warmup),
    connections: Number(values.connections),
    as: values.as,
    label: values.label,
    out: path.resolve(values.out),
    top: Number(values.top),
    sql: values.sql,
    database: values.database,
  };
  const results = [];
  for (const target of values.path ?? [DEMO_EVENT, "/cart"]) {
    console.log(`\nProfiling GET ${target} as ${options.as === "member" ? "the demo member" : "a visitor"}…`);
    const result = await profilePage(target, options);
    results.push(result);
    console.log(
      `\nGET ${target}: ${result.requests} requests in ${result.seconds.toFixed(1)} s` +
        `\n  CPU per request:  ${result.cpuMsPerRequest.toFixed(2)} ms (process, all threads)` +
        `, ${result.sampledMsPerRequest.toFixed(2)} ms (main thread, sampled${result.windowed ? "" : ", WHOLE PROFILE"})` +
        `\n  SQL statements per request: ${result.queries.median} (min ${result.queries.min}, max ${result.queries.max}, ${result.queries.logged} requests logged)` +
        `\n  HTML ${(result.htmlBytes / 1024).toFixed(1)} kB, ${(result.gzipBytes / 1024).toFixed(1)} kB gzipped on the wire` +
        `\n  gzip of this HTML: ${result.gzip.map((g) => `level ${g.level} ${g.ms.toFixed(2)} ms → ${(g.bytes / 1024).toFixed(1)} kB`).join(", ")}` +
        `\n  flame graph: ${result.flameGraph}\n`,
    );
    console.log(formatTop(result.top, { perRequest: result.requests }));
  }
  if (!values["no-save"]) {
    console.log(
      `Results: ${writeResult("profile", { results: results.map(({ top, ...rest }) => ({ ...rest, top: { ...top } })) })}`,
    );
  }
}

if (isMain(import.meta.url)) runCli(main);
