import { readdirSync, readFileSync } from "node:fs";

/** Who used the machine's CPU: the app servers, PostgreSQL, this process (the load) and the rest. */
export type CpuShares = { appServers: number; postgres: number; load: number; other: number; total: number };

const GROUPS = ["appServers", "postgres", "load", "other"] as const;

/**
 * The CPU time (seconds, on every core together) each group of processes used between `start()`
 * and `stop()`, read from Linux's per-process run time (/proc/<pid>/schedstat, in nanoseconds, of
 * every thread counted in the process). A process that started or ended in between is counted for
 * the part it was seen. Null where there is no /proc.
 */
export function cpuMeter() {
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
        const ns = Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]);
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
        found.set(Number(pid), { group, ns });
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
      for (const [pid, { group, ns }] of after) {
        const used = (ns - (before.get(pid)?.ns ?? 0)) / 1e9;
        if (used <= 0) continue;
        shares[group] += used;
        shares.total += used;
      }
      for (const key of Object.keys(shares) as (keyof CpuShares)[]) shares[key] = Math.round(shares[key] * 100) / 100;
      return shares;
    },
  };
}
