import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { type DatabaseHandle, MIGRATIONS_FOLDER } from "../db/client.server";

/**
 * A backup names the last migration its database had; a restore brings the new database to
 * exactly that migration, loads the rows, and only then applies the newer ones, so a backup
 * from an older release goes through the same migrations its data would have.
 */

type JournalEntry = { idx: number; tag: string; when: number };
type Journal = { entries: JournalEntry[] } & Record<string, unknown>;

function readJournal(folder = MIGRATIONS_FOLDER): Journal {
  return JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as Journal;
}

/** The committed migrations, oldest first. */
export function knownMigrations(folder = MIGRATIONS_FOLDER) {
  return readJournal(folder).entries.map((entry) => ({ tag: entry.tag, when: entry.when }));
}

/** The migration drizzle recorded as `when` (its `created_at`), if this release has it. */
export function migrationAt(when: number, folder = MIGRATIONS_FOLDER) {
  return knownMigrations(folder).find((entry) => entry.when === when) ?? null;
}

/**
 * Applies the committed migrations up to and including `tag` (all of them when `tag` is
 * omitted), the way the server does at start. On PostgreSQL the server's advisory lock keeps
 * a starting server from migrating at the same time.
 */
export async function migrateUpTo(handle: DatabaseHandle, tag?: string) {
  let folder = MIGRATIONS_FOLDER;
  let scratch: string | undefined;
  if (tag) {
    const journal = readJournal();
    const last = journal.entries.findIndex((entry) => entry.tag === tag);
    if (last === -1) throw new Error(`No migration ${tag} in ${MIGRATIONS_FOLDER}`);
    scratch = mkdtempSync(path.join(tmpdir(), "pitlane-migrations-"));
    mkdirSync(path.join(scratch, "meta"));
    const entries = journal.entries.slice(0, last + 1);
    writeFileSync(path.join(scratch, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
    for (const entry of entries) {
      copyFileSync(path.join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), path.join(scratch, `${entry.tag}.sql`));
    }
    folder = scratch;
  }
  try {
    if (handle.engine === "pglite") {
      await migratePglite(handle.db as never, { migrationsFolder: folder });
      return;
    }
    const client = await handle.pool!.connect();
    try {
      await client.query("select pg_advisory_lock(727274)");
      await migratePg(drizzlePg(client), { migrationsFolder: folder });
    } finally {
      await client.query("select pg_advisory_unlock(727274)").catch(() => {});
      client.release();
    }
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}
