// Throughput of a server-rendered page against nginx serving a saved copy of the same HTML.
//
//   node bench/throughput.mjs [--path /] [--duration 10] [--connections 50] [--warmup 3]
//                             [--tool wrk|autocannon] [--no-gzip] [--no-pin] [--no-save]
//
// Starts the built server on a free port with a fresh database, fetches the page, saves its HTML
// and starts nginx (one worker, gzip at the app's level) serving that file. Then drives each in
// turn with the same load (a warm-up, then the measured run) and prints requests per second,
// latency and CPU time per request for both, and the app/nginx ratios. nginx shows what the machine can do for this page
// when nothing is rendered: the ratio is the cost of rendering it on each request.
//
// Requests carry `Accept-Encoding: gzip`, as browsers' do, so both servers compress (--no-gzip:
// neither does). With two or more CPUs and taskset available, each server is pinned to the last
// CPU and the load generator to the first, so the load generator never takes the server's CPU
// (--no-pin: let the OS schedule).
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
import { available, chooseTool, loadGenerator, NGINX, pinCpus, probe, startNginx } from "./load.mjs";

export async function main(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      path: { type: "string", default: "/" },
      duration: { type: "string", default: "10" },
      connections: { type: "string", default: "50" },
      warmup: { type: "string", default: "3" },
      tool: { type: "string" },
      "no-gzip": { type: "boolean", default: false },
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
  const tool = chooseTool(values.tool);
  if (!available(NGINX, ["-v"])) throw new Error(`nginx not found at ${NGINX} (set NGINX_PATH)`);
  assertBuilt();

  warnIfBusy();
  const { pin, serverCpu, loadCpu, restore: restoreAffinity } = pinCpus({ pin: !values["no-pin"], tool });
  const headers = values["no-gzip"] ? {} : { "Accept-Encoding": "gzip" };

  console.log("Starting the app…");
  // The cost of rendering the page: the page cache is off (bench/edge.mjs measures it).
  const app = await startServer({ cpu: serverCpu, env: { PAGE_CACHE_MB: "0" } });
  const pageUrl = new URL(values.path, app.origin).href;
  const html = await (await fetchPage(pageUrl)).text();
  const nginx = await startNginx([{ url: values.path, html }], { cpu: serverCpu });
  const targets = [
    { name: "app", url: pageUrl, pid: app.pid },
    { name: "nginx", url: new URL(values.path, nginx.origin).href, pid: nginx.pid },
  ];

  const load = loadGenerator({ tool, connections, headers, cpu: loadCpu });

  console.log(
    `GET ${values.path}: ${kb(Buffer.byteLength(html))} of HTML; ${tool}, ${connections} connections, ` +
      `${warmup} s warm-up + ${duration} s each${pin ? `; servers on CPU ${serverCpu}, load on CPU ${loadCpu}` : ""}\n`,
  );
  const results = {};
  for (const target of targets) {
    const response = await probe(target.url, headers);
    if (warmup > 0) await load(target.url, warmup);
    const cpuBefore = cpuTimeMs(target.pid);
    const result = await load(target.url, duration);
    const cpuMs = cpuBefore === undefined ? undefined : cpuTimeMs(target.pid) - cpuBefore;
    results[target.name] = {
      url: target.url,
      response,
      ...result,
      cpuMsPerRequest: cpuMs === undefined ? undefined : cpuMs / result.requests,
    };
  }
  await restoreAffinity();
  await nginx.stop();
  await app.stop();

  const ms = (value) => `${value.toFixed(2)} ms`;
  printTable(
    ["server", "req/s", "p50", "p99", "CPU/request", "transfer/s", "response", "errors", "non-2xx"],
    Object.entries(results).map(([name, r]) => [
      name,
      Math.round(r.requestsPerSecond),
      ms(r.latencyMs.p50),
      ms(r.latencyMs.p99),
      r.cpuMsPerRequest === undefined ? "n/a" : ms(r.cpuMsPerRequest),
      kb(r.bytesPerSecond),
      `${kb(r.response.bytes)} ${r.response.contentEncoding}`,
      r.errors,
      r.non2xx,
    ]),
    "lrrrrrrrr",
  );
  const ratio = {
    requestsPerSecond: results.app.requestsPerSecond / results.nginx.requestsPerSecond,
    p99: results.app.latencyMs.p99 / results.nginx.latencyMs.p99,
    cpuPerRequest: results.app.cpuMsPerRequest / results.nginx.cpuMsPerRequest,
  };
  console.log(
    `\napp/nginx: ${(ratio.requestsPerSecond * 100).toFixed(1)}% of nginx's requests per second, ` +
      `p99 latency ×${ratio.p99.toFixed(1)}` +
      (Number.isFinite(ratio.cpuPerRequest) ? `, CPU per request ×${ratio.cpuPerRequest.toFixed(1)}` : ""),
  );
  for (const [name, r] of Object.entries(results)) {
    if (r.errors || r.non2xx) console.warn(`warning: ${name} had ${r.errors} errors and ${r.non2xx} non-2xx answers`);
  }

  if (values["no-save"]) return { results, ratio };
  const file = writeResult("throughput", {
    path: values.path,
    tool,
    connections,
    durationSeconds: duration,
    warmupSeconds: warmup,
    acceptEncoding: headers["Accept-Encoding"] ?? "identity",
    pinned: pin ? { server: serverCpu, load: loadCpu } : false,
    htmlBytes: Buffer.byteLength(html),
    appStartupMs: app.startupMs,
    results,
    ratio,
  });
  console.log(`result: ${file}`);
  return { results, ratio, file };
}

if (isMain(import.meta.url)) runCli(() => main().then(() => 0));
