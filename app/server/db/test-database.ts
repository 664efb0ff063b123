import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { type DatabaseHandle, openPglite, openPostgres, runMigrations } from "./client.server";

export type TestDatabase = DatabaseHandle & {
  /** The connection string of the database made for this file; unset on PGlite. */
  url?: string;
  /** Closes the connections and, on PostgreSQL, drops the database. */
  cleanup(): Promise<void>;
};

/**
 * A fresh database for one test file, so tests never share state with the dev database or with
 * each other's files. In-memory PGlite by default; with DATABASE_URL, a new database on that
 * PostgreSQL server (the URL names the maintenance database used to create and drop it).
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const handle = await openPglite(null);
    if (options.migrate !== false) await runMigrations(handle);
    return { ...handle, cleanup: () => handle.close() };
  }

  // Unique across parallel workers and concurrent runs on the same server.
  const name = `pitlane_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await maintenance(serverUrl, `create database "${name}"`);
  const drop = () => maintenance(serverUrl, `drop database if exists "${name}" with (force)`);

  let handle: DatabaseHandle | undefined;
  try {
    handle = await openPostgres(url.toString(), 5);
    if (options.migrate !== false) await runMigrations(handle);
  } catch (error) {
    await handle?.close();
    await drop();
    throw error;
  }
  const opened = handle;
  return {
    ...opened,
    url: url.toString(),
    async cleanup() {
      await opened.close();
      await untilDisconnected(serverUrl, name);
      await drop();
    },
  };
}

/**
 * Waits until the server has seen the test's connections go. The pool's end() resolves once its
 * clients are told to close, not once they have, and a forced drop that cuts one mid-goodbye
 * surfaces as an uncaught "terminating connection" error in whichever test file is running.
 */
async function untilDisconnected(serverUrl: string, name: string) {
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

async function maintenance(serverUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Registers the hooks that give the calling test file its own database and returns an accessor
 * for it (the database exists only once `beforeAll` has run).
 */
export function freshDatabasePerFile(options: { migrate?: boolean } = {}): () => TestDatabase {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(options);
  });
  afterAll(async () => {
    await database?.cleanup();
  });
  return () => {
    if (!database) throw new Error("The test database is created in beforeAll: use it inside a test or hook");
    return database;
  };
}

/** Runs raw SQL on either engine and returns the rows, for assertions on tables the app does not model. */
export async function queryRows<T extends Record<string, unknown>>(
  handle: DatabaseHandle,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  if (handle.engine === "pglite") return (await handle.pglite!.query<T>(text, params)).rows;
  return (await handle.pool!.query<T>(text, params)).rows;
}
