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
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  assertBuilt,
  cpuTimeMs,
  fetchPage,
  freePort,
  isMain,
  kb,
  onCleanup,
  printTable,
  runCli,
  spawnTracked,
  startServer,
  stopChild,
  tempDir,
  warnIfBusy,
  writeResult,
} from "./helpers.mjs";

const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
const WRK = process.env.WRK_PATH ?? "wrk";

function available(command, args) {
  return spawnSync(command, args, { stdio: "ignore" }).error === undefined;
}

function nginxConfig(dir, port) {
  const temp = (name) => path.join(dir, "temp", name);
  return `# Serves page.html for every URL, compressed like the app (compression(): gzip level 6, from 1 kB).
worker_processes 1;
daemon off;
pid ${path.join(dir, "nginx.pid")};
error_log ${path.join(dir, "error.log")} warn;
${process.getuid?.() === 0 ? "user root;" : ""}
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${temp("client_body")};
  proxy_temp_path ${temp("proxy")};
  fastcgi_temp_path ${temp("fastcgi")};
  uwsgi_temp_path ${temp("uwsgi")};
  scgi_temp_path ${temp("scgi")};
  types { text/html html; }
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65s;
  keepalive_requests 1000000;
  gzip on;
  gzip_comp_level 6;
  gzip_min_length 1024;
  gzip_vary on;
  server {
    listen 127.0.0.1:${port};
    root ${path.join(dir, "html")};
    location / { try_files /page.html =404; }
  }
}
`;
}

/** Starts nginx serving `html` on a free port; returns its origin and a stop(). */
async function startNginx(html, { cpu }) {
  const dir = tempDir("nginx");
  chmodSync(dir, 0o755);
  mkdirSync(path.join(dir, "html"));
  mkdirSync(path.join(dir, "temp"));
  writeFileSync(path.join(dir, "html/page.html"), html);
  const port = await freePort();
  const config = path.join(dir, "nginx.conf");
  writeFileSync(config, nginxConfig(dir, port));
  const child = spawnTracked(NGINX, ["-p", dir, "-c", config, "-e", path.join(dir, "error.log")], { cpu });
  // SIGQUIT: graceful shutdown, so the worker exits with the master.
  const stop = onCleanup(() => stopChild(child, "SIGQUIT"));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${child.output()}`);
    try {
      if ((await fetch(origin)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`nginx did not answer on ${origin}:\n${child.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { origin, pid: child.pid, stop };
}

// Prints one JSON line at the end of a wrk run.
const WRK_SCRIPT = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests":%d,"durationUs":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latencyUs":{"mean":%.1f,"p50":%d,"p90":%d,"p99":%d,"max":%d}}\\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
`;

async function runWrk(url, { connections, duration, headers, cpu, scriptFile }) {
  const args = ["-t1", `-c${connections}`, `-d${duration}s`, "--timeout", "10s", "-s", scriptFile];
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}: ${value}`);
  const child = spawnTracked(WRK, [...args, url], { cpu });
  const { code } = await child.exited;
  const line = child
    .output()
    .split("\n")
    .find((text) => text.startsWith("RESULT "));
  if (code !== 0 || !line) throw new Error(`wrk failed (${code}):\n${child.output()}`);
  const result = JSON.parse(line.slice("RESULT ".length));
  const seconds = result.durationUs / 1e6;
  const ms = (us) => us / 1000;
  return {
    requests: result.requests,
    seconds,
    requestsPerSecond: result.requests / seconds,
    bytesPerSecond: result.bytes / seconds,
    latencyMs: {
      mean: ms(result.latencyUs.mean),
      p50: ms(result.latencyUs.p50),
      p90: ms(result.latencyUs.p90),
      p99: ms(result.latencyUs.p99),
      max: ms(result.latencyUs.max),
    },
    errors: result.errors.connect + result.errors.read + result.errors.write + result.errors.timeout,
    non2xx: result.errors.status,
  };
}

async function runAutocannon(url, { connections, duration, headers }) {
  const { default: autocannon } = await import("autocannon");
  const result = await autocannon({ url, connections, duration, headers, timeout: 10 });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    requestsPerSecond: result.requests.total / result.duration,
    bytesPerSecond: result.throughput.total / result.duration,
    latencyMs: {
      mean: result.latency.mean,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** One GET as the load generator sends it: status, content type and encoding, bytes on the wire. */
function probe(url, headers) {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      let bytes = 0;
      response.on("data", (chunk) => {
        bytes += chunk.length;
      });
      response.on("end", () => {
        if (response.statusCode !== 200) return reject(new Error(`GET ${url} answered ${response.statusCode}`));
        resolve({
          contentType: response.headers["content-type"],
          contentEncoding: response.headers["content-encoding"] ?? "identity",
          bytes,
        });
      });
    }).on("error", reject);
  });
}

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
  const tool = values.tool ?? (available(WRK, ["-v"]) ? "wrk" : "autocannon");
  if (!["wrk", "autocannon"].includes(tool)) throw new Error("--tool is wrk or autocannon");
  if (!available(NGINX, ["-v"])) throw new Error(`nginx not found at ${NGINX} (set NGINX_PATH)`);
  assertBuilt();

  warnIfBusy();
  const cpus = os.availableParallelism();
  const pin = !values["no-pin"] && cpus >= 2 && available("taskset", ["-V"]);
  const serverCpu = pin ? cpus - 1 : undefined;
  const loadCpu = pin ? 0 : undefined;
  let restoreAffinity = async () => {};
  if (pin && tool === "autocannon") {
    // autocannon runs in this process: pin it for the run, then give back the CPUs it had.
    const affinity = /:\s*(\S+)\s*$/.exec(
      spawnSync("taskset", ["-p", "-c", String(process.pid)]).stdout.toString(),
    )?.[1];
    spawnSync("taskset", ["-a", "-p", "-c", String(loadCpu), String(process.pid)]);
    if (affinity)
      restoreAffinity = onCleanup(() => spawnSync("taskset", ["-a", "-p", "-c", affinity, String(process.pid)]));
  }
  const headers = values["no-gzip"] ? {} : { "Accept-Encoding": "gzip" };

  console.log("Starting the app…");
  const app = await startServer({ cpu: serverCpu });
  const pageUrl = new URL(values.path, app.origin).href;
  const html = await (await fetchPage(pageUrl)).text();
  const nginx = await startNginx(html, { cpu: serverCpu });
  const targets = [
    { name: "app", url: pageUrl, pid: app.pid },
    { name: "nginx", url: new URL(values.path, nginx.origin).href, pid: nginx.pid },
  ];

  let scriptFile;
  if (tool === "wrk") {
    scriptFile = path.join(tempDir("wrk"), "report.lua");
    writeFileSync(scriptFile, WRK_SCRIPT);
  }
  const load = (url, seconds) =>
    tool === "wrk"
      ? runWrk(url, { connections, duration: seconds, headers, cpu: loadCpu, scriptFile })
      : runAutocannon(url, { connections, duration: seconds, headers });

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
