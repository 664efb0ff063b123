// Where PostgreSQL's CPU went in a `perf record -a -g` of the machine: every sample of a
// `postgres` process, put in the first of these phases found on its stack.
import { execFileSync, spawn } from "node:child_process";

const PHASES = [
  ["planning the foreign-key checks and triggers", (names) => names.has("GetCachedPlan") && isInTrigger(names)],
  ["planning the app's statements", (names) => names.has("GetCachedPlan") || names.has("pg_plan_queries")],
  [
    "after each statement (triggers, key checks, data-changing WITH parts)",
    (names) => names.has("standard_ExecutorFinish"),
  ],
  ["commit (WAL flush, notices, locks released)", (names) => names.has("CommitTransactionCommand")],
  ["executing", (names) => names.has("standard_ExecutorRun") || names.has("standard_ExecutorStart")],
  [
    "reading and writing the connection",
    (names) => ["pq_getbyte", "secure_read", "secure_write", "pq_flush"].some((name) => names.has(name)),
  ],
  ["parsing", (names) => names.has("pg_parse_query") || names.has("raw_parser")],
];

function isInTrigger(names) {
  return names.has("SPI_execute_snapshot") || names.has("plpgsql_exec_trigger") || names.has("AfterTriggerEndQuery");
}

/** Throws, saying what to install, unless Linux's `perf` can be run here. */
export function checkPerf() {
  try {
    execFileSync("perf", ["--version"], { stdio: "ignore" });
  } catch {
    throw new Error("--perf needs Linux's perf on the PATH (Debian: apt-get install linux-perf)");
  }
}

/**
 * Starts recording every CPU of the machine, with call stacks, to `file`. Returns a function that
 * stops the recording and resolves once `perf` has written the file.
 */
export function startPerf(file) {
  const perf = spawn("perf", ["record", "--all-cpus", "--call-graph", "fp", "--freq", "1999", "--output", file], {
    stdio: "ignore",
  });
  const exited = new Promise((resolve) => {
    perf.once("exit", resolve);
    perf.once("error", resolve);
  });
  return async () => {
    perf.kill("SIGINT");
    await exited;
  };
}

/** PostgreSQL's samples in a recording, by phase: `{ samples, phases: [[name, count]] }`. */
export function postgresPhases(file) {
  const script = execFileSync("perf", ["script", "--input", file, "--comm", "postgres", "--fields", "ip,sym"], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const counts = new Map([...PHASES.map(([name]) => [name, 0]), ["other", 0]]);
  let samples = 0;
  for (const stack of script.split(/\n\s*\n/)) {
    const names = new Set(
      stack
        .split("\n")
        .map((line) =>
          line
            .trim()
            .split(/\s+/)[1]
            ?.replace(/\+0x[0-9a-f]+$/, ""),
        )
        .filter(Boolean),
    );
    if (names.size === 0) continue;
    samples++;
    const phase = PHASES.find(([, found]) => found(names))?.[0] ?? "other";
    counts.set(phase, counts.get(phase) + 1);
  }
  return { samples, phases: [...counts] };
}
