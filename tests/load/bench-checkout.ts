import { randomBytes } from "node:crypto";
import pg from "pg";
import { openPostgres, runMigrations } from "~/server/db/client.server";
import { raceForLastPlaces } from "./checkout-race";
import { LOAD_WEBHOOK_SECRET, startCluster } from "./cluster";
import { cpuMeter } from "./cpu-meter";
import { startFakeStripe } from "./fake-stripe";

/**
 * The checkout race of checkout-race.test.ts as a measurement (`node bench/checkout.mjs`): a
 * database of its own on the PostgreSQL server at `serverUrl`, dropped afterwards.
 */
export async function benchCheckout(options: {
  serverUrl: string;
  buyers: number;
  places: number;
  instances: number;
  replays: number;
  poolSize: number;
  /** Also samples what the servers' connections are doing while orders settle (`--sample`). */
  sample?: boolean;
  /** Runs the servers under `node --cpu-prof`, writing their profiles here (`--profile`). */
  profileDir?: string;
  /**
   * Called when the first payment is sent and again when the last order has settled (`--perf`
   * records the machine in between); the second call may return a promise to wait for.
   */
  onSettlement?: (phase: "start" | "end") => unknown;
  /** Delivers every notification once more at the end and times it (`--redeliver`). */
  redeliver?: boolean;
  /** Milliseconds between the last Pay press and the payments of the measured race (`--pause`). */
  pauseMs?: number;
  /**
   * First races this many buyers for a fifth as many places of another event on the same servers
   * (`--rehearsal`), so the measured race runs on servers that have settled orders before.
   */
  rehearsal?: number;
}) {
  const name = `pitlane_bench_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const maintenance = async (statement: string) => {
    const client = new pg.Client({ connectionString: options.serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const url = new URL(options.serverUrl);
  url.pathname = `/${name}`;
  await maintenance(`create database "${name}"`);
  const handle = await openPostgres(url.toString(), 5);
  const stripe = await startFakeStripe({ webhookSecret: LOAD_WEBHOOK_SECRET });
  let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
  try {
    await runMigrations(handle);
    cluster = await startCluster({
      databaseUrl: url.toString(),
      instances: options.instances,
      stripe,
      poolSize: options.poolSize,
      nodeFlags: options.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${options.profileDir}`] : [],
    });
    const rehearsal = options.rehearsal
      ? await raceForLastPlaces({
          database: handle,
          servers: cluster.servers,
          stripe,
          buyers: options.rehearsal,
          places: Math.max(1, Math.floor(options.rehearsal / 5)),
          replays: options.replays,
        })
      : undefined;
    const sampler = options.sample ? connectionSampler(options.serverUrl, name) : null;
    // When orders settled, and when every notification came again (--redeliver), on the clock of
    // the servers' CPU profiles (CLOCK_MONOTONIC, in µs).
    const settlementWindow = { fromUs: 0, toUs: 0 };
    const duplicatesWindow = { fromUs: 0, toUs: 0 };
    const meter = cpuMeter();
    let settlementCpu: ReturnType<typeof meter.stop> = null;
    const clock = () => Number(process.hrtime.bigint() / 1000n);
    let settled: unknown;
    const report = await raceForLastPlaces({
      database: handle,
      servers: cluster.servers,
      stripe,
      buyers: options.buyers,
      places: options.places,
      replays: options.replays,
      redeliver: options.redeliver,
      pauseMs: options.pauseMs,
      onPhase: (phase) => {
        sampler?.sampling(phase === "settlement");
        if (phase === "settlement") {
          options.onSettlement?.("start");
          settlementWindow.fromUs = clock();
          meter.start();
        }
        if (phase === "emails") {
          settlementWindow.toUs = clock();
          settlementCpu = meter.stop();
          settled = options.onSettlement?.("end");
        }
        if (phase === "duplicates") duplicatesWindow.fromUs = clock();
        if (phase === "counting") duplicatesWindow.toUs = clock();
      },
    });
    await settled;
    // A server error is a bug to find: what the servers logged last says which.
    if (report.serverErrors > 0) {
      for (const server of cluster.servers) console.error(`\n${server.url} logged:\n${server.output().slice(-6000)}`);
    }
    return {
      ...report,
      rehearsal,
      settlementConnections: await sampler?.stop(),
      settlementWindow,
      duplicatesWindow,
      settlementCpu,
    };
  } finally {
    await cluster?.stop();
    await stripe.close();
    await handle.close();
    await maintenance(`drop database if exists "${name}" with (force)`);
  }
}

/**
 * Every 10 ms while `sampling(true)`, what each connection of the app servers to `database` is
 * doing (pg_stat_activity: state, what it waits on, the statement's start); `stop()` answers the
 * commonest, as the average number of connections found in each.
 */
function connectionSampler(serverUrl: string, database: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  const connected = client.connect();
  const counts = new Map<string, number>();
  let samples = 0;
  let on = false;
  let running = true;
  const loop = (async () => {
    await connected;
    while (running) {
      if (on) {
        const { rows } = await client.query<{ what: string }>(
          `select state || ' | ' || coalesce(wait_event_type || ':' || wait_event, 'running') || ' | ' ||
             left(regexp_replace(query, '\\s+', ' ', 'g'), 70) as what
           from pg_stat_activity
           where datname = $1 and application_name like 'pitlane-load-%' and state <> 'idle'`,
          [database],
        );
        samples++;
        for (const row of rows) counts.set(row.what, (counts.get(row.what) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    sampling(value: boolean) {
      on = value;
    },
    async stop() {
      running = false;
      await loop;
      await client.end();
      return [...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([what, count]) => ({ what, connections: Math.round((count / Math.max(samples, 1)) * 10) / 10 }));
    },
  };
}
