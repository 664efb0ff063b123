import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { openPglite, openPostgres, runMigrations } from "./client.server";

/**
 * Names the migrated template of this test run: a dumped data directory (a file) on PGlite, a
 * database on PostgreSQL. Set by the global setup below; the workers inherit it.
 */
export const TEST_TEMPLATE_ENV = "PITLANE_TEST_TEMPLATE";

/**
 * Vitest's global setup: migrates one database per run, which every test file's database then
 * starts as a copy of (test-database.ts). Migrating per file cost seconds each, and on a busy
 * machine more than a minute when several workers migrated at once.
 */
export default async function migrateTemplate(): Promise<() => Promise<void>> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const handle = await openPglite(null);
    let dump: Blob;
    try {
      await runMigrations(handle);
      // Without a checkpoint every copy would replay the migrations' log as it starts.
      await handle.pglite!.query("checkpoint");
      dump = await handle.pglite!.dumpDataDir("none");
    } finally {
      await handle.close();
    }
    // A folder of this run's own: concurrent runs each have theirs.
    const dir = mkdtempSync(path.join(tmpdir(), "pitlane-test-template-"));
    const file = path.join(dir, "pgdata.tar");
    writeFileSync(file, new Uint8Array(await dump.arrayBuffer()));
    process.env[TEST_TEMPLATE_ENV] = file;
    return async () => rmSync(dir, { recursive: true, force: true });
  }

  const name = uniqueDatabaseName("pitlane_template");
  const drop = () => maintenance(serverUrl, `drop database if exists "${name}" with (force)`);
  await maintenance(serverUrl, `create database "${name}"`);
  try {
    const handle = await openPostgres(databaseUrl(serverUrl, name), 2);
    try {
      await runMigrations(handle);
    } finally {
      await handle.close();
    }
    // CREATE DATABASE ... TEMPLATE refuses while any session is connected to the template: wait
    // for ours to be gone, and let no one connect again.
    await untilDisconnected(serverUrl, name);
    await maintenance(serverUrl, `alter database "${name}" with allow_connections false`);
  } catch (error) {
    await drop();
    throw error;
  }
  process.env[TEST_TEMPLATE_ENV] = name;
  return drop;
}

/** Unique across parallel workers and concurrent runs on the same server. */
export function uniqueDatabaseName(prefix: string) {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
}

export function databaseUrl(serverUrl: string, name: string) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Waits until the server has seen the connections to `name` go. The pool's end() resolves once its
 * clients are told to close, not once they have, and a forced drop that cuts one mid-goodbye
 * surfaces as an uncaught "terminating connection" error in whichever test file is running.
 */
export async function untilDisconnected(serverUrl: string, name: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    for (let attempt = 0; attempt < 100; attempt++) {
      const { rows } = await client.query<{ open: number }>(
        "select count(*)::int as open from pg_stat_activity where datname = $1",
        [name],
      );
      if (rows[0]?.open === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}

/** Runs one statement on the server's maintenance database (the one DATABASE_URL names). */
export async function maintenance(serverUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
