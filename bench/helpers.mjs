// Shared by the benchmark scripts: paths, the built server on a free port with a fresh
// database, child-process clean-up on exit or interruption, and the results folder.
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildState } from "../scripts/build-freshness.mjs";

export const ROOT = path.resolve(import.meta.dirname, "..");
export const BUILD_DIR = path.join(ROOT, "build");
export const SERVER_BUILD = path.join(BUILD_DIR, "server/index.js");
export const RESULTS_DIR = path.join(ROOT, "bench/results");

/** True when the module at `moduleUrl` is the script node was started with. */
export function isMain(moduleUrl) {
  return Boolean(process.argv[1]) && pathToFileURL(path.resolve(process.argv[1])).href === moduleUrl;
}

// ---------------------------------------------------------------------------------------------
// Clean-up: every process and temporary directory a script creates is registered here, and
// released on normal exit, on an error, and on Ctrl-C / SIGTERM.

const cleanups = new Set();
const children = new Set();
const tempDirs = new Set();
let handlersInstalled = false;

function installHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ]) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping…`);
      cleanUp().finally(() => process.exit(code));
    });
  }
  // Last resort (an uncaught error, process.exit): nothing asynchronous runs here, so kill hard.
  process.on("exit", () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });
}

/** Registers an async clean-up step; returns a function that runs it once and unregisters it. */
export function onCleanup(step) {
  installHandlers();
  let done;
  const run = () => {
    cleanups.delete(run);
    done ??= Promise.resolve().then(step);
    return done;
  };
  cleanups.add(run);
  return run;
}

/** Runs every registered clean-up step, newest first. */
export async function cleanUp() {
  for (const run of [...cleanups].reverse()) {
    try {
      await run();
    } catch (error) {
      console.error("clean-up failed:", error instanceof Error ? error.message : error);
    }
  }
}

/** A fresh temporary directory, removed on clean-up. */
export function tempDir(prefix) {
  installHandlers();
  const dir = mkdtempSync(path.join(os.tmpdir(), `pitlane-bench-${prefix}-`));
  tempDirs.add(dir);
  onCleanup(() => {
    rmSync(dir, { recursive: true, force: true });
    tempDirs.delete(dir);
  });
  return dir;
}

/**
 * Spawns a tracked child process. Its output is kept (the last 8 kB) for error messages.
 * With `cpu`, the child is pinned to that CPU with taskset.
 */
export function spawnTracked(command, args, { cpu, ...options } = {}) {
  installHandlers();
  const [file, argv] = cpu === undefined ? [command, args] : ["taskset", ["-c", String(cpu), command, ...args]];
  const child = spawn(file, argv, { stdio: ["ignore", "pipe", "pipe"], ...options });
  let output = "";
  const keep = (chunk) => {
    output = (output + chunk).slice(-8192);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  child.output = () => output;
  child.exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** Stops a child with `signal`, then SIGKILL after `timeoutMs`. */
export async function stopChild(child, signal = "SIGTERM", timeoutMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  await child.exited;
  clearTimeout(timer);
}

/** The process and all its descendants (Linux /proc), for CPU accounting. */
function processTree(pid) {
  const parents = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

let clockTicks;

/**
 * CPU time (user + system, all threads) used so far by a process and its descendants, in
 * milliseconds; undefined where /proc is not available. Unlike requests per second, CPU time per
 * request hardly changes when other work shares the machine.
 */
export function cpuTimeMs(pid) {
  if (!existsSync(`/proc/${pid}/stat`)) return undefined;
  clockTicks ??= Number(spawnSync("getconf", ["CLK_TCK"]).stdout?.toString().trim()) || 100;
  let ticks = 0;
  for (const id of processTree(pid)) {
    try {
      const fields = readFileSync(`/proc/${id}/stat`, "utf8");
      const [utime, stime] = fields
        .slice(fields.lastIndexOf(")") + 2)
        .split(" ")
        .slice(11, 13)
        .map(Number);
      ticks += utime + stime;
    } catch {
      // exited meanwhile
    }
  }
  return (ticks * 1000) / clockTicks;
}

// ---------------------------------------------------------------------------------------------
// Build and server.

/** A TCP port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs `npm run build` when there is no build, when the sources are newer than it, or when forced. */
export function ensureBuild({ force = false } = {}) {
  const state = buildState();
  if (!force && state === "fresh") return false;
  console.log(state === "stale" ? "Sources changed since the last build: building…" : "Building…");
  const result = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
  return true;
}

/** Throws a helpful error when there is no build to measure. */
export function assertBuilt() {
  if (!existsSync(SERVER_BUILD)) throw new Error(`No build in ${BUILD_DIR}: run \`npm run build\` first.`);
}

async function waitForReady(origin, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the server exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${child.output()}`,
      );
    }
    try {
      const response = await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server was not ready after ${timeoutMs / 1000} s:\n${child.output()}`);
}

/**
 * Starts the built server (`node --import tsx server.ts`) on a free port of 127.0.0.1 with a
 * fresh DATA_DIR (so a fresh embedded database with the demo content), and waits until /readyz
 * answers 200. Returns its origin and a `stop()` that shuts it down and removes the directory.
 * `nodeArgs` go to node before the script (`--cpu-prof`, which NODE_OPTIONS may not carry);
 * `script` is another server to start the same way (it must answer /readyz).
 */
export async function startServer({ cpu, env = {}, nodeArgs = [], script = "server.ts", timeoutMs = 90_000 } = {}) {
  assertBuilt();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = tempDir("data");
  const started = Date.now();
  const child = spawnTracked(process.execPath, [...nodeArgs, "--import", "tsx", script], {
    cpu,
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      SITE_URL: origin,
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      ...env,
    },
  });
  const stop = onCleanup(() => stopChild(child));
  try {
    await waitForReady(origin, child, timeoutMs);
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, port, pid: child.pid, dataDir, startupMs: Date.now() - started, stop };
}

const CALIBRATION_DIR = path.join(ROOT, "bench/calibration");

function newestChange(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "build") continue;
    const file = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(file) : statSync(file).mtimeMs);
  }
  return newest;
}

/**
 * Starts the calibration page (bench/calibration: a bare React Router app built from the site's
 * own packages) like `startServer`, building it first when it has no build or its sources are
 * newer than the build. Its one page is `/`.
 */
export async function startCalibration() {
  const built = path.join(CALIBRATION_DIR, "build/server/index.js");
  if (!existsSync(built) || statSync(built).mtimeMs < newestChange(CALIBRATION_DIR)) {
    console.log("Building the calibration page…");
    const result = spawnSync("npx", ["react-router", "build", path.relative(ROOT, CALIBRATION_DIR)], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (result.status !== 0) throw new Error(`building bench/calibration failed (exit ${result.status})`);
  }
  return startServer({ script: "bench/calibration/server.mjs" });
}

/** Fetches a page and fails loudly unless it answers 200. */
export async function fetchPage(url, init) {
  const response = await fetch(url, { redirect: "manual", ...init });
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}, expected 200`);
  return response;
}

// ---------------------------------------------------------------------------------------------
// Results.

const LOAD_AT_START = os.loadavg().map((load) => Number(load.toFixed(2)));

/** Where and on what the figures were taken, and how busy the machine was (1, 5, 15 min). */
export function machineInfo() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model?.trim() ?? "unknown",
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    loadAverageAtStart: LOAD_AT_START,
    loadAverageAtEnd: os.loadavg().map((load) => Number(load.toFixed(2))),
  };
}

/**
 * How fast the machine is right now, on fixed work that does not depend on the build: the same
 * code gives figures two to four times apart on this kind of shared machine from one hour to the
 * next, and a bench's figures mean little without knowing which hour they come from.
 * - `cpuMs`: one core's time for a fixed mix of what a server does (JSON, hashing, sorting,
 *   string building), the best of five tries;
 * - `roundTripMs` (with `databaseUrl`): 1,000 prepared one-row selects, one after another, on one
 *   connection to PostgreSQL, the best of three tries: the wake-ups and socket writes that every
 *   statement pays, in and out of PostgreSQL.
 * Lower is faster. Compare figures only when these are close.
 */
export async function machineReference(databaseUrl) {
  const { createHash } = await import("node:crypto");
  const record = Array.from({ length: 2_000 }, (_, index) => ({
    id: `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
    name: `Ticket ${index}`,
    quantity: index % 7,
    at: new Date(1_800_000_000_000 + index * 1000).toISOString(),
  }));
  const bytes = Buffer.alloc(1 << 20, 7);
  const numbers = Array.from({ length: 50_000 }, (_, index) => (index * 7919) % 50_021);
  const work = () => {
    let check = 0;
    for (let round = 0; round < 5; round++) {
      check += JSON.parse(JSON.stringify(record)).length;
      check += createHash("sha256").update(bytes).digest()[0];
      check += [...numbers].sort((a, b) => a - b)[round];
      check += record.map((row) => `${row.name}:${row.quantity}`).join(",").length;
    }
    return check;
  };
  const best = (times) => Number(Math.min(...times).toFixed(1));
  const cpuTimes = [];
  for (let attempt = 0; attempt < 5; attempt++) {
    const started = performance.now();
    work();
    cpuTimes.push(performance.now() - started);
  }
  const reference = { cpuMs: best(cpuTimes) };
  if (!databaseUrl) return reference;
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const roundTrips = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const started = performance.now();
      for (let index = 0; index < 1_000; index++) {
        await client.query({ name: "machine-reference", text: "select $1::int as n", values: [index] });
      }
      roundTrips.push(performance.now() - started);
    }
    return { ...reference, roundTripMs: best(roundTrips) };
  } finally {
    await client.end();
  }
}

/** Warns when other work keeps the CPUs busy: timings taken now will be worse than the machine can do. */
export function warnIfBusy() {
  const [load] = os.loadavg();
  const cpus = os.cpus().length;
  if (load > cpus / 4) {
    console.warn(
      `warning: load average ${load.toFixed(2)} on ${cpus} CPUs: something else is running, so timings will be low and noisy`,
    );
  }
}

/** Writes `bench/results/<name>-<timestamp>.json` and returns its path. */
export function writeResult(name, data) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const file = path.join(RESULTS_DIR, `${name}-${stamp}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ name, at: new Date().toISOString(), machine: machineInfo(), ...data }, null, 2)}\n`,
  );
  return path.relative(process.cwd(), file) || file;
}

/** Formats a byte count as kB with one decimal (1 kB = 1024 bytes). */
export function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} kB`;
}

/** Prints rows as an aligned plain-text table; `align` is a string of "l"/"r" per column. */
export function printTable(header, rows, align = "") {
  const widths = header.map((cell, i) => Math.max(String(cell).length, ...rows.map((row) => String(row[i]).length)));
  const line = (row) =>
    row
      .map((cell, i) => (align[i] === "r" ? String(cell).padStart(widths[i]) : String(cell).padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const row of rows) console.log(line(row));
}

/** Runs a script's main function as a CLI: prints the error and exits non-zero on failure. */
export function runCli(main) {
  main()
    .then(async (code) => {
      await cleanUp();
      process.exit(typeof code === "number" ? code : 0);
    })
    .catch(async (error) => {
      console.error(error instanceof Error ? error.message : error);
      await cleanUp();
      process.exit(1);
    });
}
