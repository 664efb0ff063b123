import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openPglite, runMigrations } from "../db/client.server";
import { createTestDatabase, type TestDatabase } from "../db/test-database";
import { localStorage } from "../storage/storage.server";
import { BackupError, createBackup, openBackup, restoreBackup } from "./backup.server";
import { knownMigrations } from "./migrations.server";
import { connect } from "./tables.server";
import { readTar, tarWriter } from "./tar.server";

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
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on("data", (chunk: Buffer) => chunks.push(chunk));
    const tar = tarWriter(out);
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
    out.end();
    writeFileSync(file, gzipSync(Buffer.concat(chunks)));
    await expect(openBackup(file)).rejects.toThrow(BackupError);
    await expect(openBackup(file)).rejects.toThrow(/does not match its checksum/);
    writeFileSync(file, readFileSync(file).subarray(0, 40));
    await expect(openBackup(file)).rejects.toThrow();
  });
});

describe("the archive", () => {
  it("keeps names longer than a tar header holds", async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on("data", (chunk: Buffer) => chunks.push(chunk));
    const tar = tarWriter(out);
    const long = `media/${"a".repeat(60)}/${"b".repeat(60)}/${"c".repeat(100)}.webp`;
    await tar.addBytes(long, Buffer.from("long"));
    await tar.addBytes("short.txt", Buffer.alloc(513, 7));
    await tar.finish();
    out.end();
    const read: [string, number][] = [];
    const input = new PassThrough();
    input.end(Buffer.concat(chunks));
    await readTar(input, async (name, size, pieces) => {
      let total = 0;
      for await (const piece of pieces) total += piece.length;
      expect(total).toBe(size);
      read.push([name, size]);
    });
    expect(read).toEqual([
      [long, 4],
      ["short.txt", 513],
    ]);
  });
});
