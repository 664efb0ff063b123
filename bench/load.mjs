// Load generation shared by the throughput benchmarks: nginx serving saved pages, the load
// generator (wrk when installed, else autocannon in this process), one probe request, and the
// pinning of servers and load generator to separate CPUs.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { freePort, onCleanup, spawnTracked, stopChild, tempDir } from "./helpers.mjs";

export const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
export const WRK = process.env.WRK_PATH ?? "wrk";

/** True when `command` can be run. */
export function available(command, args) {
  return spawnSync(command, args, { stdio: "ignore" }).error === undefined;
}

/** The load generator to use: `tool` when given, else wrk when installed, else autocannon. */
export function chooseTool(tool) {
  const chosen = tool ?? (available(WRK, ["-v"]) ? "wrk" : "autocannon");
  if (!["wrk", "autocannon"].includes(chosen)) throw new Error("--tool is wrk or autocannon");
  return chosen;
}

/** The file under nginx's root that holds the page at `url`: `/` is index.html, `/events` events.html. */
function fileOf(url) {
  const { pathname } = new URL(url, "http://localhost");
  return pathname === "/" ? "index.html" : `${decodeURIComponent(pathname).replace(/^\/+|\/+$/g, "")}.html`;
}

function nginxConfig(dir, port, { precompressed }) {
  const temp = (name) => path.join(dir, "temp", name);
  return `# Serves each saved page under its own path, compressed like the app (compression(): gzip level 6, from 1 kB).
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
  ${precompressed ? "# Each page's .gz beside it, made once, as a cache keeps its compressed form.\n  gzip_static on;" : ""}
  server {
    listen 127.0.0.1:${port};
    root ${path.join(dir, "html")};
    location = / { try_files /index.html =404; }
    location / { try_files $uri.html =404; }
  }
}
`;
}

/**
 * Starts nginx (one worker, its own configuration, pid, logs and temporary paths in a temporary
 * directory) serving each `{ url, html }` page under its path; returns its origin and a stop().
 * With `precompressed`, each page's gzip form (level 6) is written beside it and served as is.
 */
export async function startNginx(pages, { cpu, precompressed = false } = {}) {
  const dir = tempDir("nginx");
  chmodSync(dir, 0o755);
  mkdirSync(path.join(dir, "temp"));
  writePages(path.join(dir, "html"), pages, { precompressed });
  const port = await freePort();
  const config = path.join(dir, "nginx.conf");
  writeFileSync(config, nginxConfig(dir, port, { precompressed }));
  const child = spawnTracked(NGINX, ["-p", dir, "-c", config, "-e", path.join(dir, "error.log")], { cpu });
  // SIGQUIT: graceful shutdown, so the worker exits with the master.
  const stop = onCleanup(() => stopChild(child, "SIGQUIT"));
  return answering("nginx", child, port, pages, stop);
}

/**
 * Starts bench/static-server.mjs, a bare Node `http` server answering each `{ url, html }` page
 * from memory (with `precompressed`, its gzip form made once, to requests that accept it);
 * returns its origin and a stop().
 */
export async function startStaticNode(pages, { cpu, precompressed = false } = {}) {
  const dir = tempDir("static-node");
  const list = path.join(dir, "pages.json");
  writeFileSync(list, JSON.stringify(writePages(dir, pages, { precompressed })));
  const port = await freePort();
  const script = path.join(import.meta.dirname, "static-server.mjs");
  const child = spawnTracked(process.execPath, [script, list, String(port)], { cpu });
  const stop = onCleanup(() => stopChild(child));
  return answering("the static Node server", child, port, pages, stop);
}

/**
 * Each page's HTML written under `root` at its file (and its gzip beside it with `precompressed`);
 * returns each page's path with its file.
 */
function writePages(root, pages, { precompressed }) {
  return pages.map(({ url, html }) => {
    const file = path.join(root, fileOf(url));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, html);
    if (precompressed) writeFileSync(`${file}.gz`, gzipSync(html, { level: 6 }));
    return { path: new URL(url, "http://localhost").pathname, file, gzip: precompressed ? `${file}.gz` : null };
  });
}

/** Waits until `child` answers the first page on `port`; its origin, pid and stop(). */
async function answering(name, child, port, pages, stop) {
  const origin = `http://127.0.0.1:${port}`;
  const first = new URL(pages[0]?.url ?? "/", origin).href;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${child.output()}`);
    try {
      if ((await fetch(first)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} did not answer ${first}:\n${child.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { origin, pid: child.pid, stop };
}

/**
 * Which CPUs the servers and the load generator use. With 2 CPUs or more and taskset, servers go
 * on the last CPU and the load generator on the first, so it never takes the servers' CPU; when
 * the load generator is autocannon (in this process), this process is pinned until `restore()`.
 */
export function pinCpus({ pin: wanted = true, tool }) {
  const cpus = os.availableParallelism();
  const pin = wanted && cpus >= 2 && available("taskset", ["-V"]);
  const serverCpu = pin ? cpus - 1 : undefined;
  const loadCpu = pin ? 0 : undefined;
  let restore = async () => {};
  if (pin && tool === "autocannon") {
    const affinity = /:\s*(\S+)\s*$/.exec(
      spawnSync("taskset", ["-p", "-c", String(process.pid)]).stdout.toString(),
    )?.[1];
    spawnSync("taskset", ["-a", "-p", "-c", String(loadCpu), String(process.pid)]);
    if (affinity) restore = onCleanup(() => spawnSync("taskset", ["-a", "-p", "-c", affinity, String(process.pid)]));
  }
  return { pin, serverCpu, loadCpu, restore };
}

// Prints one JSON line at the end of a wrk run.
const WRK_REPORT = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests":%d,"durationUs":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latencyUs":{"mean":%.1f,"p50":%d,"p90":%d,"p99":%d,"max":%d}}\\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
`;

// Sends every request to a new URL: the path with `m=<run>-<n>` added to its query string. The
// run's prefix comes after \`--\` on wrk's command line, so two runs never share a URL.
const WRK_UNIQUE = `local prefix, sep, n = "", "?", 0
init = function(args)
  prefix = args[1] or ""
  if string.find(wrk.path, "?", 1, true) then sep = "&" end
end
request = function()
  n = n + 1
  return wrk.format(nil, wrk.path .. sep .. "m=" .. prefix .. "-" .. n)
end
`;

let runs = 0;
/** A prefix no other run of this process (or a run of another one) uses. */
function runPrefix() {
  runs += 1;
  return `${process.pid.toString(36)}${Date.now().toString(36)}${runs}`;
}

async function runWrk(url, { connections, duration, headers, cpu, scripts, uniqueQuery }) {
  const args = ["-t1", `-c${connections}`, `-d${duration}s`, "--timeout", "10s"];
  args.push("-s", uniqueQuery ? scripts.unique : scripts.report);
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}: ${value}`);
  args.push(url);
  if (uniqueQuery) args.push("--", runPrefix());
  const child = spawnTracked(WRK, args, { cpu });
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

async function runAutocannon(url, { connections, duration, headers, uniqueQuery }) {
  const { default: autocannon } = await import("autocannon");
  const options = { url, connections, duration, headers, timeout: 10 };
  if (uniqueQuery) {
    const { pathname, search } = new URL(url);
    const prefix = runPrefix();
    let n = 0;
    options.requests = [
      {
        setupRequest(request) {
          n += 1;
          return { ...request, path: `${pathname}${search ? `${search}&` : "?"}m=${prefix}-${n}` };
        },
      },
    ];
  }
  const result = await autocannon(options);
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

/**
 * A load generator: `load(url, seconds, { headers, uniqueQuery })` keeps `connections`
 * connections busy for `seconds` and resolves with requests per second, latency, bytes per second,
 * errors and non-2xx answers. `uniqueQuery` sends each request to a URL of its own (`?m=…`).
 */
export function loadGenerator({ tool, connections, headers: defaultHeaders = {}, cpu }) {
  let scripts;
  if (tool === "wrk") {
    const dir = tempDir("wrk");
    scripts = { report: path.join(dir, "report.lua"), unique: path.join(dir, "unique.lua") };
    writeFileSync(scripts.report, WRK_REPORT);
    writeFileSync(scripts.unique, `${WRK_UNIQUE}\n${WRK_REPORT}`);
  }
  return (url, duration, { headers = defaultHeaders, uniqueQuery = false } = {}) =>
    tool === "wrk"
      ? runWrk(url, { connections, duration, headers, cpu, scripts, uniqueQuery })
      : runAutocannon(url, { connections, duration, headers, uniqueQuery });
}

/**
 * One GET as the load generator sends it: status, content type and encoding, the X-Cache answer,
 * and the bytes on the wire. Fails unless it answers 200.
 */
export function probe(url, headers) {
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
          cache: response.headers["x-cache"],
          bytes,
        });
      });
    }).on("error", reject);
  });
}
