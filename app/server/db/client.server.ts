import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { getConstructionPlans } from "pg-boss";
import * as schema from "../../../db/schema";
import { getLog } from "../log.server";
import { PreparingClient } from "./prepared-statements.server";

type Schema = typeof schema;
/** A database or a transaction: feature functions accept either. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseHandle = {
  db: Db;
  engine: "pglite" | "postgres";
  /** Runs one raw SQL statement; used by readiness checks and the job queue. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Calls `onMessage` with the payload of every notification on `channel` (PostgreSQL's
   * LISTEN/NOTIFY, which the embedded database has too), and with null after a lost connection
   * came back, when notifications may have been missed. Resolves to a function that stops it.
   */
  listen(channel: string, onMessage: (payload: string | null) => void): Promise<() => Promise<void>>;
  pglite?: PGlite;
  pool?: pg.Pool;
};

export const MIGRATIONS_FOLDER = path.resolve(process.cwd(), "db/migrations");

export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database in ${dir} is already open in another process (pid ${pid}). ` +
        "Stop that process, use another DATA_DIR, or set DATABASE_URL to share a PostgreSQL database.",
    );
    this.name = "DataDirLockedError";
  }
}

/**
 * PGlite has no lock of its own: two processes on one directory would corrupt it. A lock file
 * holding our pid makes the second process refuse to start; a lock left by a dead process is
 * taken over.
 */
function lockDataDir(dir: string) {
  const lockFile = path.join(dir, "pglite.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(readFileSync(lockFile, "utf8").trim());
      if (pid && pid !== process.pid && isAlive(pid)) throw new DataDirLockedError(dir, pid);
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock ${dir}`);
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Opens the embedded database in `dataDir`, or in memory when it is null. An in-memory one may
 * start `from` a data directory dumped with `dumpDataDir()`: the tests' databases start from one
 * migrated copy (test-template.ts) instead of each running every migration.
 */
export async function openPglite(dataDir: string | null, options: { from?: Blob } = {}): Promise<DatabaseHandle> {
  let unlock = () => {};
  let client: PGlite;
  if (dataDir) {
    const dir = path.join(dataDir, "pglite");
    mkdirSync(dir, { recursive: true });
    unlock = lockDataDir(dataDir);
    client = new PGlite(dir);
  } else {
    client = new PGlite({ loadDataDir: options.from });
  }
  try {
    await client.waitReady;
  } catch (error) {
    unlock();
    throw error;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    engine: "pglite",
    pglite: client,
    ping: async () => {
      await client.query("select 1");
    },
    listen: (channel, onMessage) => client.listen(checkedChannel(channel), (payload) => onMessage(payload)),
    close: async () => {
      await client.close();
      unlock();
    },
  };
}

/** How long a pooled connection may sit idle before it is closed. */
const IDLE_CONNECTION_KEPT_MS = 10 * 60_000;

export async function openPostgres(url: string, poolSize = 10): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 10_000,
    // A connection left idle is kept for ten minutes, not the driver's ten seconds: a connection
    // that has run a statement keeps it prepared, with its plan (prepared-statements.server.ts),
    // so a rush after a quiet spell starts on connections that need no planning.
    idleTimeoutMillis: IDLE_CONNECTION_KEPT_MS,
    Client: PreparingClient,
  });
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const listen = postgresNotices(url);
  return {
    db,
    engine: "postgres",
    pool,
    ping: async () => {
      await pool.query("select 1");
    },
    listen: (channel, onMessage) => listen(checkedChannel(channel), onMessage),
    close: () => pool.end(),
  };
}

function checkedChannel(channel: string) {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  return channel;
}

/** How the connection that listens for notices names itself to PostgreSQL (`pg_stat_activity`). */
export const NOTICES_APPLICATION_NAME = "pitlane-notices";

/**
 * LISTEN needs a connection of its own, kept open (a pooled one would be handed to others): one
 * per database handle, listening to every channel asked for. When it drops it is opened again
 * every second until it comes back, listening again to the same channels, and every listener's
 * `onMessage(null)` then says that notifications may have been missed in between. Opening,
 * listening and stopping run one at a time, so a channel asked for while the connection opens is
 * listened to once.
 */
function postgresNotices(url: string) {
  const listeners = new Map<string, Set<(payload: string | null) => void>>();
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  function inTurn<T>(step: () => Promise<T>): Promise<T> {
    const run = queue.then(step);
    queue = run.catch(() => {});
    return run;
  }

  async function connect() {
    let ended = false;
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: 10_000,
      application_name: NOTICES_APPLICATION_NAME,
    });
    client.on("notification", (message) => {
      for (const onMessage of listeners.get(message.channel) ?? []) {
        // One listener failing must neither keep the notice from the others nor end the process.
        try {
          onMessage(message.payload ?? "");
        } catch (error) {
          getLog().error({ err: error, channel: message.channel }, "a listener failed on a notice");
        }
      }
    });
    client.on("error", () => {});
    client.once("end", () => {
      ended = true;
      if (current !== client) return;
      current = undefined;
      reconnectSoon();
    });
    try {
      await client.connect();
      for (const channel of listeners.keys()) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (ended) throw new Error("The connection for notices closed as it opened");
    current = client;
  }

  /** Tells every listener (but those of a channel just asked for) that notices may have been missed. */
  function missedWhileDown(except?: string) {
    for (const [channel, set] of listeners) if (channel !== except) for (const onMessage of set) onMessage(null);
  }

  function reconnectSoon() {
    if (retry || listeners.size === 0) return;
    retry = setTimeout(() => {
      retry = undefined;
      void inTurn(async () => {
        if (current || listeners.size === 0) return;
        await connect();
        missedWhileDown();
      }).catch(reconnectSoon);
    }, 1000).unref();
  }

  return function listen(channel: string, onMessage: (payload: string | null) => void) {
    return inTurn(async () => {
      const known = listeners.get(channel);
      if (known) known.add(onMessage);
      else {
        listeners.set(channel, new Set([onMessage]));
        try {
          if (current) await current.query(`LISTEN ${channel}`);
          else {
            await connect();
            // Back after a drop that the others were listening through.
            missedWhileDown(channel);
          }
        } catch (error) {
          // The first connection failing is the caller's to handle; a later one is retried.
          listeners.delete(channel);
          if (!current) reconnectSoon();
          throw error;
        }
      }
      return () =>
        inTurn(async () => {
          const set = listeners.get(channel);
          if (!set?.delete(onMessage) || set.size > 0) return;
          listeners.delete(channel);
          const client = current;
          if (listeners.size > 0) return void (await client?.query(`UNLISTEN ${channel}`).catch(() => {}));
          current = undefined;
          clearTimeout(retry);
          retry = undefined;
          await client?.end().catch(() => {});
        });
    });
  };
}

/** The job queue's own schema (app/server/jobs/queue.server.ts starts pg-boss in it). */
export const JOB_QUEUE_SCHEMA = "pgboss";

/**
 * Applies the committed migrations. On PostgreSQL an advisory lock keeps concurrent instances in
 * line: servers started together wait for the first to migrate, then find nothing left to do.
 */
export async function runMigrations(handle: DatabaseHandle) {
  if (handle.engine === "pglite") {
    await migratePglite(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  const client = await handle.pool!.connect();
  try {
    await client.query("select pg_advisory_lock(727274)");
    await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    await installJobQueue(client);
  } finally {
    await client.query("select pg_advisory_unlock(727274)").catch(() => {});
    client.release();
  }
}

/**
 * The job queue's tables on a new database, made here under the migration lock. pg-boss makes
 * them itself when it starts, under a lock of its own taken inside the installing transaction;
 * but a server that waited on that lock still sees the catalog as it was before it waited, and
 * two servers starting together on an empty database failed with a duplicate "pgboss" schema.
 * Here each step is a transaction of its own begun after the lock was granted, so the second
 * server sees the first one's install and skips it. Upgrades of an existing install are left to
 * pg-boss, which a rolling restart runs one server at a time.
 */
async function installJobQueue(client: pg.PoolClient) {
  const { rows } = await client.query<{ installed: boolean }>("select to_regclass($1) is not null as installed", [
    `${JOB_QUEUE_SCHEMA}.version`,
  ]);
  if (!rows[0]?.installed) await client.query(getConstructionPlans(JOB_QUEUE_SCHEMA));
}
