import { readdirSync, readFileSync } from "node:fs";

/** Who used the machine's CPU: the app servers, PostgreSQL, this process (the load) and the rest. */
export type CpuShares = { appServers: number; postgres: number; load: number; other: number; total: number };

const GROUPS = ["appServers", "postgres", "load", "other"] as const;

/**
 * The CPU time (seconds, on every core together) each group of processes used between `start()`
 * and `stop()`, read from Linux's run time of each of their threads
 * (/proc/<pid>/task/<tid>/schedstat, in nanoseconds). A process or thread that started in between
 * is counted whole; one that ended in between is left out. Null where there is no /proc.
 */
export function cpuMeter() {
  /** Every thread's run time so far (ns), by thread id, with the group of its process. */
  const readAll = () => {
    const found = new Map<number, { group: (typeof GROUPS)[number]; ns: number }>();
    let pids: string[];
    try {
      pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
    } catch {
      return null;
    }
    for (const pid of pids) {
      try {
        const command = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        const name = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
        const group =
          Number(pid) === process.pid
            ? "load"
            : name === "postgres"
              ? "postgres"
              : command.includes("server.ts")
                ? "appServers"
                : "other";
        for (const task of readdirSync(`/proc/${pid}/task`)) {
          const ns = Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
          found.set(Number(task), { group, ns });
        }
      } catch {
        // Gone while we looked.
      }
    }
    return found;
  };
  let before: ReturnType<typeof readAll> = null;
  return {
    start() {
      before = readAll();
    },
    stop(): CpuShares | null {
      const after = readAll();
      if (!before || !after) return null;
      const shares = { appServers: 0, postgres: 0, load: 0, other: 0, total: 0 };
      for (const [task, { group, ns }] of after) {
        const used = (ns - (before.get(task)?.ns ?? 0)) / 1e9;
        if (used <= 0) continue;
        shares[group] += used;
        shares.total += used;
      }
      for (const key of Object.keys(shares) as (keyof CpuShares)[]) shares[key] = Math.round(shares[key] * 100) / 100;
      return shares;
    },
  };
}
