import { existsSync, openAsBlob } from "node:fs";
import { afterAll, beforeAll } from "vitest";
import { type DatabaseHandle, openPglite, openPostgres, runMigrations } from "./client.server";
import { databaseUrl, maintenance, TEST_TEMPLATE_ENV, uniqueDatabaseName, untilDisconnected } from "./test-template";

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
 *
 * A migrated database is copied from the template that Vitest's global setup migrated once for
 * the whole run (test-template.ts); outside Vitest there is none, and it is migrated here.
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  const template = options.migrate === false ? undefined : process.env[TEST_TEMPLATE_ENV];
  if (!serverUrl) {
    const fromTemplate = template && existsSync(template);
    const handle = await openPglite(null, fromTemplate ? { from: await openAsBlob(template) } : {});
    if (options.migrate !== false && !fromTemplate) await runMigrations(handle);
    return { ...handle, cleanup: () => handle.close() };
  }

  const name = uniqueDatabaseName("pitlane_test");
  const url = databaseUrl(serverUrl, name);
  await maintenance(
    serverUrl,
    template ? `create database "${name}" template "${template}"` : `create database "${name}"`,
  );
  const drop = () => maintenance(serverUrl, `drop database if exists "${name}" with (force)`);

  let handle: DatabaseHandle | undefined;
  try {
    handle = await openPostgres(url, 5);
    if (options.migrate !== false && !template) await runMigrations(handle);
  } catch (error) {
    await handle?.close();
    await drop();
    throw error;
  }
  const opened = handle;
  return {
    ...opened,
    url,
    async cleanup() {
      await opened.close();
      await untilDisconnected(serverUrl, name);
      await drop();
    },
  };
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
