import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import journal from "../../../db/migrations/meta/_journal.json";
import * as schema from "../../../db/schema";
import { outboundMessages } from "../../../db/schema";
import { startJobQueue } from "../jobs/queue.server";
import {
  type DatabaseHandle,
  DataDirLockedError,
  JOB_QUEUE_SCHEMA,
  NOTICES_APPLICATION_NAME,
  openPglite,
  openPostgres,
  runMigrations,
} from "./client.server";
import { createTestDatabase, freshDatabasePerFile, queryRows } from "./test-database";

const root = path.resolve(import.meta.dirname, "../../..");
const clientModule = path.join(root, "app/server/db/client.server.ts");

async function publicTables(handle: DatabaseHandle) {
  const rows = await queryRows<{ table_name: string }>(
    handle,
    "select table_name from information_schema.tables where table_schema = 'public' order by table_name",
  );
  return rows.map((row) => row.table_name);
}

async function appliedMigrations(handle: DatabaseHandle) {
  const [row] = await queryRows<{ count: number }>(
    handle,
    "select count(*)::int as count from drizzle.__drizzle_migrations",
  );
  return row!.count;
}

describe("runMigrations", () => {
  const database = freshDatabasePerFile({ migrate: false });

  it("creates the schema and, run again, changes nothing", async () => {
    const handle = database();
    expect(await publicTables(handle)).toEqual([]);

    await runMigrations(handle);
    // The migrations create exactly the tables the Drizzle schema declares.
    const declared = Object.values(schema)
      .filter((value) => is(value, PgTable))
      .map((table) => getTableConfig(table).name)
      .sort();
    expect(await publicTables(handle)).toEqual(declared);
    expect(await appliedMigrations(handle)).toBe(journal.entries.length);

    await handle.db
      .insert(outboundMessages)
      .values({ channel: "sms", to: "+447700900001", text: "hi", transport: "mailbox" });
    await runMigrations(handle);
    expect(await appliedMigrations(handle)).toBe(journal.entries.length);
    expect(await handle.db.$count(outboundMessages)).toBe(1);
  });
});

describe.runIf(process.env.DATABASE_URL)("runMigrations on PostgreSQL", () => {
  it("lets several instances start together on an empty database", async () => {
    const database = await createTestDatabase({ migrate: false });
    const others = await Promise.all([openPostgres(database.url!, 2), openPostgres(database.url!, 2)]);
    try {
      // Without the advisory lock two of these would both try to create the tables.
      await Promise.all([database, ...others].map((handle) => runMigrations(handle)));
      expect(await appliedMigrations(database)).toBe(journal.entries.length);
    } finally {
      await Promise.all(others.map((handle) => handle.close()));
      await database.cleanup();
    }
  });

  it("lets several instances start their job queues together on an empty database", async () => {
    const database = await createTestDatabase({ migrate: false });
    const others = await Promise.all([openPostgres(database.url!, 3), openPostgres(database.url!, 3)]);
    try {
      // As servers do at start-up: migrate, then start the queue. pg-boss installing its schema on
      // its own in two servers at once failed with a duplicate schema.
      const queues = await Promise.all(
        [database, ...others].map(async (handle) => {
          await runMigrations(handle);
          return startJobQueue(handle, []);
        }),
      );
      await Promise.all(queues.map((queue) => queue.stop()));
      const [row] = await queryRows<{ version: number }>(database, `select version from ${JOB_QUEUE_SCHEMA}.version`);
      expect(row?.version).toBeGreaterThan(0);
    } finally {
      await Promise.all(others.map((handle) => handle.close()));
      await database.cleanup();
    }
  });
});

/** Runs `openPglite(dataDir)` in a separate Node process and reports what happened. */
function openInChildProcess(dataDir: string) {
  const script = `
    const { openPglite } = await import(${JSON.stringify(clientModule)});
    try {
      const handle = await openPglite(${JSON.stringify(dataDir)});
      await handle.close();
      console.log(JSON.stringify({ opened: true, pid: process.pid }));
    } catch (error) {
      console.log(JSON.stringify({ opened: false, name: error.name, message: error.message }));
    }
  `;
  return new Promise<{ opened: boolean; pid?: number; name?: string; message?: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const line = stdout.trim().split("\n").at(-1);
      if (code !== 0 || !line) return reject(new Error(`child exited with ${code}: ${stderr}`));
      resolve(JSON.parse(line));
    });
  });
}

/** The pid of a process that has exited, as a crashed server would leave in its lock file. */
function deadPid() {
  return new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    child.on("error", reject);
    child.on("exit", () => resolve(child.pid!));
  });
}

// Each test makes a PGlite cluster on disk (its initdb writes tens of megabytes), and some migrate
// it: seconds on a quiet machine, more than the default 30 s on a busy one.
describe("openPglite on a data directory", { timeout: 120_000 }, () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), "pitlane-db-"));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  const lockFile = () => path.join(dataDir, "pglite.lock");

  it("keeps data across a restart", async () => {
    const first = await openPglite(dataDir);
    await runMigrations(first);
    await first.db
      .insert(outboundMessages)
      .values({ channel: "sms", to: "+447700900002", text: "kept", transport: "mailbox" });
    await first.close();

    const second = await openPglite(dataDir);
    try {
      await runMigrations(second);
      const rows = await second.db.select({ text: outboundMessages.text }).from(outboundMessages);
      expect(rows).toEqual([{ text: "kept" }]);
    } finally {
      await second.close();
    }
  });

  it("refuses a second process while one holds the directory, and lets it in afterwards", async () => {
    const holder = await openPglite(dataDir);
    expect(readFileSync(lockFile(), "utf8")).toBe(String(process.pid));
    try {
      const refused = await openInChildProcess(dataDir);
      expect(refused).toEqual({
        opened: false,
        name: "DataDirLockedError",
        message: new DataDirLockedError(dataDir, process.pid).message,
      });
      expect(refused.message).toContain(`is already open in another process (pid ${process.pid})`);
      // The refused process must not have removed the holder's lock on its way out.
      expect(readFileSync(lockFile(), "utf8")).toBe(String(process.pid));
    } finally {
      await holder.close();
    }
    expect(existsSync(lockFile())).toBe(false);

    const after = await openInChildProcess(dataDir);
    expect(after.opened).toBe(true);
    expect(existsSync(lockFile())).toBe(false);
  });

  it("takes over a lock left by a process that died", async () => {
    const pid = await deadPid();
    writeFileSync(lockFile(), String(pid));

    const handle = await openPglite(dataDir);
    try {
      expect(readFileSync(lockFile(), "utf8")).toBe(String(process.pid));
      await handle.ping();
    } finally {
      await handle.close();
    }
    expect(existsSync(lockFile())).toBe(false);
  });

  it("refuses a lock held by a live process without opening the database", async () => {
    // The vitest main process is alive for as long as this test runs.
    writeFileSync(lockFile(), String(process.ppid));
    await expect(openPglite(dataDir)).rejects.toThrow(new DataDirLockedError(dataDir, process.ppid));
    expect(readFileSync(lockFile(), "utf8")).toBe(String(process.ppid));
  });
});

describe.runIf(process.env.DATABASE_URL)("notices on PostgreSQL", () => {
  const database = freshDatabasePerFile();

  async function listeningConnections() {
    const rows = await queryRows<{ count: number }>(
      database(),
      "select count(*)::int as count from pg_stat_activity where datname = current_database() and application_name = $1",
      [NOTICES_APPLICATION_NAME],
    );
    return rows[0]!.count;
  }

  it("listens to every channel on one connection, and hears each again after that connection drops", async () => {
    const heard: { channel: string; payload: string | null }[] = [];
    const hear = (channel: string) => (payload: string | null) => heard.push({ channel, payload });
    const stops = [
      await database().listen("first_notices", hear("first")),
      await database().listen("second_notices", hear("second")),
      await database().listen("second_notices", hear("second, again")),
    ];
    expect(await listeningConnections()).toBe(1);

    await queryRows(database(), "select pg_notify('first_notices', 'a'), pg_notify('second_notices', 'b')");
    await vi.waitFor(() => expect(heard).toHaveLength(3));
    expect(heard).toEqual(
      expect.arrayContaining([
        { channel: "first", payload: "a" },
        { channel: "second", payload: "b" },
        { channel: "second, again", payload: "b" },
      ]),
    );

    heard.length = 0;
    await queryRows(
      database(),
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1",
      [NOTICES_APPLICATION_NAME],
    );
    await vi.waitFor(() => expect(heard).toHaveLength(3), { timeout: 5_000 });
    expect(heard.every((notice) => notice.payload === null)).toBe(true);
    expect(await listeningConnections()).toBe(1);

    heard.length = 0;
    await queryRows(database(), "select pg_notify('first_notices', 'c'), pg_notify('second_notices', 'd')");
    await vi.waitFor(() => expect(heard).toHaveLength(3));

    for (const stop of stops) await stop();
    await vi.waitFor(async () => expect(await listeningConnections()).toBe(0));
  });

  it("stops hearing a channel once its last listener stops, and keeps the others, whichever listener fails", async () => {
    const heard: string[] = [];
    const stopFirst = await database().listen("first_notices", (payload) => heard.push(`first ${payload}`));
    const stopFailing = await database().listen("second_notices", () => {
      throw new Error("a listener that fails");
    });
    const stopSecond = await database().listen("second_notices", (payload) => heard.push(`second ${payload}`));
    await stopFirst();
    await queryRows(database(), "select pg_notify('first_notices', 'a'), pg_notify('second_notices', 'b')");
    await vi.waitFor(() => expect(heard).toEqual(["second b"]));
    await stopFailing();
    await stopSecond();
  });
});
