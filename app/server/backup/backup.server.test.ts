import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openPglite, runMigrations } from "../db/client.server";
import { createTestDatabase, queryRows, type TestDatabase } from "../db/test-database";
import { localStorage } from "../storage/storage.server";
import { ArchiveError, createArchive } from "./archive.server";
import {
  BackupError,
  compareAuthSecret,
  createBackup,
  openBackup,
  restoreAuthSecret,
  restoreBackup,
} from "./backup.server";
import { knownMigrations } from "./migrations.server";
import { createSiteWithKeys, TEST_SEAL } from "./site-with-keys.test-support";
import { connect } from "./tables.server";

/**
 * Every kind of column the schema uses (and a few it may), with awkward values, through a
 * backup and a restore on each engine and across them.
 */

const scratch = mkdtempSync(path.join(tmpdir(), "pitlane-backup-kinds-"));
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

const KINDS_TABLE = `create table public.kinds (
  id bigint generated always as identity primary key,
  parent bigint references public.kinds (id),
  at timestamptz,
  local_at timestamp,
  day date,
  data jsonb,
  bytes bytea,
  amount numeric(30, 6),
  ratio double precision,
  tags text[],
  numbers integer[],
  uid uuid,
  flag boolean,
  span interval,
  body text,
  search tsvector generated always as (to_tsvector('simple', coalesce(body, ''))) stored
)`;

const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, index) => index)).toString("hex");

// Row 1 points at row 2, inserted after it: the load must not care about order.
const KINDS_ROWS = `
insert into public.kinds (at, local_at, day, data, bytes, amount, ratio, tags, numbers, uid, flag, span, body) values
  ('2027-05-01 10:00:00.123456+02', '2027-05-01 10:00:00.5', '2027-02-28',
   '{"name": "Émile \\"E\\" 🏎", "list": [1, 2.5, null, true], "nested": {"line": "a\\nb\\u2028c"}}',
   '\\x${ALL_BYTES}', 12345678901234567890.123456, 0.1 + 0.2, array['a,b', 'quote"d', 'back\\slash', null, ''],
   array[1, -2, null], 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', true, '1 day 02:03:04.5',
   e'line one\\nline two\\ttab\\r\\u2028 and ''quotes'''),
  ('1970-01-01 00:00:00+00', null, '0001-01-01', '[]', '\\x', 'NaN', 'Infinity', '{}', '{}', null, false,
   '-3 mons', 'second row'),
  (null, null, null, 'null', null, null, '-0', null, null, null, null, null, null);
update public.kinds set parent = 2 where id = 1;
update public.kinds set parent = 3 where id = 3`;

async function rowsOf(handle: DatabaseHandle) {
  const connection = await connect(handle);
  try {
    await connection.query("begin");
    await connection.query("set local timezone to 'UTC'");
    const rows = await connection.query<{ row: string }>("select k::text as row from public.kinds k order by id");
    await connection.query("commit");
    return rows.map((row) => row.row);
  } finally {
    connection.release();
  }
}

async function exec(handle: DatabaseHandle, statements: string) {
  if (handle.engine === "pglite") await handle.pglite!.exec(statements);
  else await handle.pool!.query(statements);
}

type Engine = "pglite" | "postgres";

async function database(engine: Engine, migrated: boolean): Promise<DatabaseHandle> {
  if (engine === "postgres") {
    const made: TestDatabase = await createTestDatabase({ migrate: migrated });
    cleanups.push(() => made.cleanup());
    return made;
  }
  const handle = await openPglite(null);
  if (migrated) await runMigrations(handle);
  cleanups.push(() => handle.close());
  return handle;
}

/** Each test opens, migrates and fills two databases: longer than the usual 30 s on a busy machine. */
const SLOW = 180_000;

const pairs: [Engine, Engine][] = process.env.DATABASE_URL
  ? [
      ["pglite", "pglite"],
      ["postgres", "postgres"],
      ["pglite", "postgres"],
      ["postgres", "pglite"],
    ]
  : [["pglite", "pglite"]];

describe.each(pairs)("a backup from %s restored into %s", (from, to) => {
  it(
    "keeps every value of every column type, the identity's next value and forward references",
    async () => {
      const source = await database(from, true);
      await exec(source, `${KINDS_TABLE};\n${KINDS_ROWS}`);
      const file = path.join(scratch, `${from}-${to}.tar.gz`);
      const empty = localStorage(mkdtempSync(path.join(scratch, "media-")));
      const { manifest } = await createBackup({ database: source, storage: empty, mediaName: "local" }, file);
      const kinds = manifest.tables.find((table) => table.name === "kinds")!;
      expect(kinds.rows).toBe(3);
      expect(kinds.columns).not.toContain("search");

      // The new install has the table (a migration this test stands in for) and nothing else.
      const target = await database(to, false);
      await exec(target, KINDS_TABLE);
      const backup = await openBackup(file);
      try {
        await restoreBackup(backup, { database: target, storage: empty });
      } finally {
        await backup.close();
      }
      expect(await rowsOf(target)).toEqual(await rowsOf(source));
      await exec(target, "insert into public.kinds (body) values ('after the restore')");
      const connection = await connect(target);
      try {
        expect(await connection.query("select id::int from public.kinds where body = 'after the restore'")).toEqual([
          { id: 4 },
        ]);
        const [constraint] = await connection.query<{ deferrable: boolean }>(
          "select condeferrable as deferrable from pg_constraint where conname = 'kinds_parent_fkey'",
        );
        expect(constraint?.deferrable).toBe(false);
      } finally {
        connection.release();
      }
    },
    SLOW,
  );
});

describe("a restore", () => {
  it(
    "is refused by a database with newer migrations than the backup",
    async () => {
      const source = await database("pglite", true);
      const file = path.join(scratch, "newer.tar.gz");
      const empty = localStorage(mkdtempSync(path.join(scratch, "media-")));
      await createBackup({ database: source, storage: empty, mediaName: "local" }, file);
      // The backup says it was made at the first migration; the target has them all.
      const backup = await openBackup(file);
      try {
        backup.manifest.migration.when = 0;
        await expect(restoreBackup(backup, { database: source, storage: empty, force: true })).rejects.toThrow(
          /newer Pitlane/,
        );
        const first = knownMigrations()[0]!;
        backup.manifest.migration.when = first.when;
        await expect(restoreBackup(backup, { database: source, storage: empty, force: true })).rejects.toThrow(
          /newer migrations than the backup/,
        );
      } finally {
        await backup.close();
      }
    },
    SLOW,
  );

  it("refuses an archive whose file does not match the manifest's checksum", async () => {
    const file = path.join(scratch, "tampered.tar.gz");
    const tar = await createArchive(file, null);
    await tar.addBytes("tables/users.jsonl", Buffer.from('["changed"]\n'));
    const manifest = {
      format: "pitlane-backup",
      version: 1,
      tables: [
        { name: "users", file: "tables/users.jsonl", columns: ["id"], rows: 1, bytes: 12, sha256: "0".repeat(64) },
      ],
      media: [],
      sequences: [],
      authSecret: null,
    };
    await tar.addBytes("manifest.json", Buffer.from(JSON.stringify(manifest)));
    await tar.finish();
    await expect(openBackup(file)).rejects.toThrow(BackupError);
    await expect(openBackup(file)).rejects.toThrow(/does not match its checksum/);
    writeFileSync(file, readFileSync(file).subarray(0, 40));
    await expect(openBackup(file)).rejects.toThrow();
  });
});

describe("a backup's secrets", () => {
  /** The archive's bytes as tar reads them: gzip is no lock. */
  const unzipped = (file: string) => gunzipSync(readFileSync(file)).toString("latin1");

  it(
    "are never written in clear: without BACKUP_PASSPHRASE a backup holding the auth secret or a live draw's seed is refused",
    async () => {
      const site = await createSiteWithKeys();
      cleanups.push(site.cleanup);
      const source = { database: site.database, storage: site.storage, mediaName: "local" };

      const withSecret = path.join(scratch, "secret", "refused.tar.gz");
      await expect(createBackup({ ...source, authSecret: site.authSecret }, withSecret)).rejects.toThrow(
        /signing secret.*must never be written in clear[\s\S]*Set BACKUP_PASSPHRASE/,
      );
      // The live draw's seed alone is refused too (AUTH_SECRET set: no secret file to carry).
      const withSeed = path.join(scratch, "seed", "refused.tar.gz");
      await expect(createBackup({ ...source, authSecretSet: true }, withSeed)).rejects.toThrow(
        /secret seed of a draw not yet drawn[\s\S]*Set BACKUP_PASSPHRASE/,
      );
      for (const file of [withSecret, withSeed]) {
        const folder = path.dirname(file);
        expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
      }

      // Once the draw is drawn and its seed public, a site signing with AUTH_SECRET may back up
      // without a passphrase.
      await queryRows(site.database, "update draws set status = 'drawn'");
      const plain = path.join(scratch, "plain.tar.gz");
      const { sealed } = await createBackup({ ...source, authSecretSet: true }, plain);
      expect(sealed).toBe(false);
      expect(unzipped(plain)).toContain(site.email);
    },
    SLOW,
  );

  it(
    "are encrypted with the passphrase: the archive shows no row, seed or secret, and opens only with it",
    async () => {
      const site = await createSiteWithKeys();
      cleanups.push(site.cleanup);
      const file = path.join(scratch, "sealed.tar.gz");
      const { sealed } = await createBackup(
        {
          database: site.database,
          storage: site.storage,
          mediaName: "local",
          authSecret: site.authSecret,
          seal: TEST_SEAL,
        },
        file,
      );
      expect(sealed).toBe(true);
      const bytes = unzipped(file);
      for (const secret of [site.authSecret, site.drawSeed, site.email, "pitlane-backup", "AGE-SECRET-KEY"]) {
        expect(bytes).not.toContain(secret);
      }
      expect(bytes).not.toContain(site.photo.bytes.toString("latin1"));

      await expect(openBackup(file)).rejects.toThrow(ArchiveError);
      await expect(openBackup(file)).rejects.toThrow(/This backup is encrypted: set BACKUP_PASSPHRASE/);
      await expect(openBackup(file, "another passphrase entirely")).rejects.toThrow(
        /BACKUP_PASSPHRASE does not open this backup/,
      );

      const backup = await openBackup(file, TEST_SEAL.passphrase);
      try {
        expect(backup.sealed).toBe(true);
        const target = await createTestDatabase({ migrate: false });
        cleanups.push(() => target.cleanup());
        const storage = localStorage(mkdtempSync(path.join(scratch, "media-")));
        await restoreBackup(backup, { database: target, storage });
        const [draw] = await queryRows<{ seed: string }>(target, "select seed from draws");
        expect(draw!.seed).toBe(site.drawSeed);
        expect(Buffer.from((await storage.get(site.photo.key))!.bytes).equals(site.photo.bytes)).toBe(true);
        const secretFile = path.join(mkdtempSync(path.join(scratch, "data-")), "auth-secret");
        expect(await compareAuthSecret(backup, secretFile)).toBe("absent");
        await restoreAuthSecret(backup, secretFile);
        expect(readFileSync(secretFile, "utf8")).toBe(site.authSecret);
      } finally {
        await backup.close();
      }
    },
    SLOW,
  );
});
