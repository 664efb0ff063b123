import { createHash } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DatabaseHandle } from "../db/client.server";
import { contentTypeOf, isValidKey, type Storage } from "../storage/keys";
import { type ArchiveWriter, createArchive, KEY_MEMBER, readArchive, type Seal } from "./archive.server";
import { backedUpValue, forgetKeys, isLeftOut, LEFT_OUT_TABLES, undrawnDraws } from "./left-out.server";
import { migrateUpTo, migrationAt } from "./migrations.server";
import {
  appliedMigration,
  type Connection,
  connect,
  countRows,
  dumpTable,
  fixTextForms,
  ident,
  immediateForeignKeys,
  listTables,
  loadTable,
  readSequences,
  type Sequence,
} from "./tables.server";

/**
 * `npm run backup` and `npm run restore` (docs/backup.md): one .tar.gz holding every table's
 * rows, every media file and the generated auth secret, described by `manifest.json`, which
 * is written last so an archive cut short has none and is refused. Sessions and unused sign-in
 * links and codes are left out (./left-out.server.ts); with a passphrase every member is
 * encrypted (./archive.server.ts), and without one a backup that would hold a secret (the auth
 * secret, the seed of a draw not yet drawn) is refused.
 */

const BACKUP_FORMAT = "pitlane-backup";
/** 2: sessions and sign-in tokens left out, members sealed with a passphrase. 1 still restores. */
const BACKUP_VERSION = 2;

export type Manifest = {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  source: {
    engine: "pglite" | "postgres";
    serverVersion: string;
    media: string;
    /** Whether the site signed with AUTH_SECRET from its environment (then not in the backup). */
    authSecretSet: boolean;
  };
  /** The last migration the database had: a restore brings the new database to it first. */
  migration: { tag: string | null; when: number; hash: string };
  tables: { name: string; file: string; columns: string[]; rows: number; bytes: number; sha256: string }[];
  sequences: Sequence[];
  media: { key: string; file: string; bytes: number; sha256: string }[];
  /** The generated DATA_DIR/auth-secret, when the site used one instead of AUTH_SECRET. */
  authSecret: { file: string; sha256: string } | null;
  /** The tables whose rows were not backed up (format 2 on): sessions and sign-in tokens. */
  leftOut?: string[];
};

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export type BackupSource = {
  database: DatabaseHandle;
  storage: Storage;
  /** Said in the manifest: "local" or the bucket's name. */
  mediaName: string;
  /** The contents of DATA_DIR/auth-secret when the site signs with it (AUTH_SECRET unset). */
  authSecret?: string | null;
  /** Whether AUTH_SECRET is set instead. */
  authSecretSet?: boolean;
  /** The operator's passphrase (BACKUP_PASSPHRASE): every member is encrypted with it. */
  seal?: Seal | null;
};

/** The message for a backup that would hold a secret and has no passphrase to encrypt it with. */
function needsPassphrase(secrets: string[]) {
  return new BackupError(
    `This backup would hold ${secrets.join(" and ")}, which must never be written in clear.\n` +
      "Set BACKUP_PASSPHRASE to a passphrase of at least 12 characters (keep a copy away from the backups): " +
      "the backup is then encrypted with it, and npm run restore asks for the same. See docs/backup.md.",
  );
}

/** What a sealed archive says in clear about itself: how to open it without Pitlane. */
function readmeOf(createdAt: string) {
  return `A Pitlane backup made ${createdAt} (npm run backup; docs/backup.md in Pitlane's source).

Every other file in it is encrypted with age (https://age-encryption.org). ${KEY_MEMBER} holds
this backup's key, encrypted with the passphrase it was made with (BACKUP_PASSPHRASE); each
<name>.age is encrypted to that key. To restore it, run npm run restore with the same
BACKUP_PASSPHRASE. To read one file by hand, with the standard age tool:

  age -d -i ${KEY_MEMBER} -o manifest.json manifest.json.age     # asks for the passphrase
`;
}

export type BackupProgress = (message: string) => void;

/**
 * Writes a backup to `out`. The rows come from one read-only REPEATABLE READ transaction, so
 * orders, tickets and payments agree with each other even while the site takes orders on
 * PostgreSQL; the media are copied after it.
 */
export async function createBackup(source: BackupSource, out: string, progress: BackupProgress = () => {}) {
  const seal = source.seal ?? null;
  if (source.authSecret && !seal) throw needsPassphrase(["the site's signing secret (DATA_DIR/auth-secret)"]);
  const staging = await mkdtemp(path.join(tmpdir(), "pitlane-backup-"));
  const partial = `${out}.partial`;
  let tar: ArchiveWriter | undefined;
  try {
    await mkdir(path.join(staging, "tables"));
    const connection = await connect(source.database);
    let snapshot: Awaited<ReturnType<typeof dumpDatabase>>;
    try {
      snapshot = await dumpDatabase(connection, staging, seal !== null, progress);
    } finally {
      connection.release();
    }

    await mkdir(path.dirname(path.resolve(out)), { recursive: true });
    const createdAt = new Date().toISOString();
    tar = await createArchive(partial, seal, readmeOf(createdAt));
    for (const table of snapshot.tables) {
      await tar.addFile(table.file, path.join(staging, table.file), table.bytes);
    }

    const media: Manifest["media"] = [];
    for await (const key of source.storage.list()) {
      const object = await source.storage.get(key);
      if (!object) continue; // deleted since it was listed
      const entry = { key, file: `media/${key}`, bytes: object.bytes.byteLength, sha256: sha256(object.bytes) };
      await tar.addBytes(entry.file, object.bytes);
      media.push(entry);
      if (media.length % 500 === 0) progress(`  ${media.length} media files`);
    }

    let authSecret: Manifest["authSecret"] = null;
    if (source.authSecret) {
      const bytes = Buffer.from(source.authSecret);
      authSecret = { file: "auth-secret", sha256: sha256(bytes) };
      await tar.addBytes("auth-secret", bytes);
    }

    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt,
      source: {
        engine: source.database.engine,
        serverVersion: snapshot.serverVersion,
        media: source.mediaName,
        authSecretSet: source.authSecretSet ?? false,
      },
      migration: snapshot.migration,
      tables: snapshot.tables,
      sequences: snapshot.sequences,
      media,
      authSecret,
      leftOut: [...LEFT_OUT_TABLES],
    };
    await tar.addBytes("manifest.json", Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    await tar.finish();
    await rename(partial, out);
    return { file: out, bytes: (await stat(out)).size, sealed: seal !== null, manifest };
  } catch (error) {
    tar?.abort();
    await rm(partial, { force: true });
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function dumpDatabase(connection: Connection, staging: string, sealed: boolean, progress: BackupProgress) {
  await connection.query("begin transaction isolation level repeatable read, read only");
  try {
    await fixTextForms(connection);
    const draws = await undrawnDraws(connection);
    if (draws > 0 && !sealed) {
      throw needsPassphrase([`the secret seed of ${draws === 1 ? "a draw" : `${draws} draws`} not yet drawn`]);
    }
    const [version] = await connection.query<{ version: string }>(
      "select current_setting('server_version') as version",
    );
    const applied = await appliedMigration(connection);
    if (!applied) throw new BackupError("This database has no Pitlane tables yet: there is nothing to back up.");
    const migration = { tag: migrationAt(applied.when)?.tag ?? null, ...applied };
    const tables: Manifest["tables"] = [];
    for (const table of await listTables(connection)) {
      if (isLeftOut(table.name)) {
        progress(`  ${table.name}: left out`);
        continue;
      }
      const file = `tables/${table.name}.jsonl`;
      const rows = await dumpTable(connection, table, path.join(staging, file), (column) =>
        backedUpValue(table.name, column),
      );
      tables.push({ name: table.name, file, columns: table.columns.map((column) => column.name), ...rows });
      progress(`  ${table.name}: ${rows.rows} rows`);
    }
    const sequences = await readSequences(connection);
    await connection.query("commit");
    return { serverVersion: version!.version, migration, tables, sequences };
  } catch (error) {
    await connection.query("rollback").catch(() => {});
    throw error;
  }
}

/** A backup unpacked into a scratch folder, every file checked against the manifest. */
export type OpenedBackup = {
  folder: string;
  manifest: Manifest;
  /** Whether it was encrypted with a passphrase. */
  sealed: boolean;
  close(): Promise<void>;
};

/**
 * Unpacks `file` into a scratch folder, opening an encrypted backup with `passphrase`, and
 * checks it: the format, and each file's size and SHA-256 against the manifest. Nothing is
 * written anywhere else.
 */
export async function openBackup(file: string, passphrase: string | null = null): Promise<OpenedBackup> {
  const folder = await mkdtemp(path.join(tmpdir(), "pitlane-restore-"));
  const close = () => rm(folder, { recursive: true, force: true });
  try {
    const found = new Map<string, { bytes: number; sha256: string }>();
    const { sealed } = await readArchive(file, passphrase, async (name, pieces) => {
      if (!isArchiveName(name)) throw new BackupError(`The archive holds ${JSON.stringify(name)}, which no backup has`);
      const target = path.join(folder, ...name.split("/"));
      await mkdir(path.dirname(target), { recursive: true });
      const hash = createHash("sha256");
      const out = createWriteStream(target, { mode: 0o600 });
      let bytes = 0;
      for await (const piece of pieces) {
        hash.update(piece);
        bytes += piece.length;
        if (!out.write(piece)) await once(out, "drain");
      }
      out.end();
      await once(out, "close");
      found.set(name, { bytes, sha256: hash.digest("hex") });
    });
    if (!found.has("manifest.json")) {
      throw new BackupError(`${file} has no manifest.json: it is not a Pitlane backup, or it was cut short`);
    }
    const manifest = JSON.parse(await readFile(path.join(folder, "manifest.json"), "utf8")) as Manifest;
    if (manifest.format !== BACKUP_FORMAT) throw new BackupError(`${file} is not a Pitlane backup`);
    if (manifest.version > BACKUP_VERSION) {
      throw new BackupError(
        `${file} was written by a newer Pitlane (format ${manifest.version}): update this install first`,
      );
    }
    const expected = [
      ...manifest.tables.map((table) => ({ file: table.file, bytes: table.bytes, sha256: table.sha256 })),
      ...manifest.media,
      ...(manifest.authSecret ? [{ ...manifest.authSecret, bytes: undefined }] : []),
    ];
    for (const entry of expected) {
      const got = found.get(entry.file);
      if (!got) throw new BackupError(`${file} lacks ${entry.file}, which its manifest lists`);
      if (got.sha256 !== entry.sha256 || (entry.bytes !== undefined && got.bytes !== entry.bytes)) {
        throw new BackupError(`${entry.file} in ${file} does not match its checksum: the archive is damaged`);
      }
    }
    return { folder, manifest, sealed, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Only the names a backup writes, so nothing in an archive can land outside the scratch folder. */
function isArchiveName(name: string) {
  if (name === "manifest.json" || name === "auth-secret") return true;
  if (name.startsWith("tables/")) return /^tables\/[a-z0-9_]{1,63}\.jsonl$/.test(name);
  return name.startsWith("media/") && isValidKey(name.slice("media/".length));
}

export type RestoreTarget = {
  database: DatabaseHandle;
  storage: Storage;
  /** Replace what the database holds instead of refusing. */
  force?: boolean;
};

export type RestoreReport = {
  tables: number;
  rows: number;
  media: number;
  migration: string;
};

/**
 * Loads an opened backup into `target`: checks the database is empty (or `force`), migrates it
 * to the backup's migration, loads every table in one transaction with the foreign keys checked
 * at its end, sets the sequences, compares every table's count with the manifest, applies the
 * newer migrations, then puts back every media file. No session or sign-in token survives it,
 * whatever the backup holds: everyone signs in again.
 */
export async function restoreBackup(
  backup: OpenedBackup,
  target: RestoreTarget,
  progress: BackupProgress = () => {},
): Promise<RestoreReport> {
  const { manifest } = backup;
  const level = migrationAt(manifest.migration.when);
  if (!level) {
    throw new BackupError(
      "This backup was made by a newer Pitlane (its database has a migration this install does not know). " +
        "Update this install to the release the backup was made with, or a later one, then restore.",
    );
  }

  const connection = await connect(target.database);
  try {
    await checkTarget(connection, level.when, target.force ?? false);
  } finally {
    connection.release();
  }

  progress(`Bringing the database to migration ${level.tag}…`);
  await migrateUpTo(target.database, level.tag);

  const loading = await connect(target.database);
  let rows = 0;
  try {
    rows = await loadTables(loading, backup, progress);
  } finally {
    loading.release();
  }

  progress("Applying the newer migrations…");
  await migrateUpTo(target.database);

  progress(`Copying ${manifest.media.length} media files…`);
  let media = 0;
  for (const entry of manifest.media) {
    const bytes = await readFile(path.join(backup.folder, ...entry.file.split("/")));
    await target.storage.put(entry.key, bytes, contentTypeOf(entry.key));
    media += 1;
    if (media % 500 === 0) progress(`  ${media} media files`);
  }
  return { tables: manifest.tables.length, rows, media, migration: level.tag };
}

/** Refuses a database that holds a site (rows in any table) or is ahead of the backup. */
async function checkTarget(connection: Connection, backupWhen: number, force: boolean) {
  const applied = await appliedMigration(connection);
  if (applied && applied.when > backupWhen) {
    throw new BackupError(
      "This database has newer migrations than the backup. Restore into an empty database (a new DATA_DIR, " +
        "or a new PostgreSQL database): the restore brings it to the backup's migration, loads it, then applies the newer ones.",
    );
  }
  if (force) return;
  const holding: string[] = [];
  for (const table of await listTables(connection)) {
    const count = await countRows(connection, table.name);
    if (count > 0) holding.push(`${table.name} (${count})`);
  }
  if (holding.length) {
    throw new BackupError(
      `This database already holds a site: ${holding.slice(0, 6).join(", ")}${holding.length > 6 ? "…" : ""}.\n` +
        "Restoring replaces everything in it. Restore into an empty database, or run again with --force.",
    );
  }
}

async function loadTables(connection: Connection, backup: OpenedBackup, progress: BackupProgress) {
  const { manifest } = backup;
  await connection.query("begin");
  try {
    await fixTextForms(connection);
    const tables = new Map((await listTables(connection)).map((table) => [table.name, table]));
    const absent = manifest.tables.filter((table) => !tables.has(table.name)).map((table) => table.name);
    if (absent.length)
      throw new BackupError(`This database has no table ${absent.join(", ")}: the backup does not fit it`);

    // Rows go in table by table in any order: each foreign key is made deferred for this
    // transaction (a table such as `transactions` refers to itself) and checked before commit.
    const foreignKeys = await immediateForeignKeys(connection);
    for (const key of foreignKeys) {
      await connection.query(
        `alter table public.${ident(key.table)} alter constraint ${ident(key.name)} deferrable initially deferred`,
      );
    }
    if (tables.size) {
      const names = [...tables.keys()].map((name) => `public.${ident(name)}`).join(", ");
      await connection.query(`truncate table ${names} restart identity cascade`);
    }

    // A backup made before sessions and sign-in tokens were left out still holds them: they
    // stay out, so after any restore everyone signs in again.
    const loading = manifest.tables.filter((table) => !isLeftOut(table.name));
    let rows = 0;
    for (const table of loading) {
      const loaded = await loadTable(
        connection,
        tables.get(table.name)!,
        table.columns,
        path.join(backup.folder, table.file),
      );
      if (loaded !== table.rows)
        throw new BackupError(`${table.file} holds ${loaded} rows, its manifest says ${table.rows}`);
      rows += loaded;
      progress(`  ${table.name}: ${loaded} rows`);
    }
    for (const sequence of manifest.sequences) {
      await connection.query("select setval($1::text::regclass, $2::text::bigint, $3::text::boolean)", [
        `public.${ident(sequence.name)}`,
        sequence.lastValue,
        String(sequence.isCalled),
      ]);
    }

    await connection.query("set constraints all immediate");
    for (const key of foreignKeys) {
      await connection.query(
        `alter table public.${ident(key.table)} alter constraint ${ident(key.name)} not deferrable`,
      );
    }
    for (const table of loading) {
      const count = await countRows(connection, table.name);
      if (count !== table.rows)
        throw new BackupError(`${table.name} has ${count} rows after the restore, not ${table.rows}`);
    }
    await forgetKeys(connection, tables, manifest.createdAt);
    await connection.query("commit");
    return rows;
  } catch (error) {
    await connection.query("rollback").catch(() => {});
    throw error;
  }
}

/**
 * The backup's auth secret against the one in `file` (DATA_DIR/auth-secret): "none" when the
 * backup has none, "same", "absent" (it will be written) or "different".
 */
export async function compareAuthSecret(backup: OpenedBackup, file: string) {
  if (!backup.manifest.authSecret) return "none" as const;
  const secret = await readFile(path.join(backup.folder, backup.manifest.authSecret.file), "utf8");
  const current = await readFile(file, "utf8").catch(() => null);
  if (current === null) return "absent" as const;
  return current.trim() === secret.trim() ? ("same" as const) : ("different" as const);
}

/**
 * Puts the backup's auth secret in `file`. Sessions, two-factor secrets and the links in sent
 * emails are signed or sealed with it: without it staff could not sign in with their codes.
 */
export async function restoreAuthSecret(backup: OpenedBackup, file: string) {
  if (!backup.manifest.authSecret) return;
  const secret = await readFile(path.join(backup.folder, backup.manifest.authSecret.file), "utf8");
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, secret, { mode: 0o600 });
}
