import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoAccountsSeeder } from "~/demo/demo-accounts.server";
import { demoApplicationsSeeder } from "~/demo/demo-applications.server";
import { demoCarsSeeder } from "~/demo/demo-cars.server";
import { demoDrawsSeeder } from "~/demo/demo-draws.server";
import { demoEventsSeeder } from "~/demo/demo-events.server";
import { createBuyers, createTestEvent } from "~/features/checkout/stock.test-support";
import { legalPagesSeeder } from "~/features/content/legal-pages.server";
import { paidOrder } from "~/features/orders/paid-orders.test-support";
import { BackupError, createBackup, type Manifest, openBackup, restoreBackup } from "~/server/backup/backup.server";
import { TEST_SEAL } from "~/server/backup/site-with-keys.test-support";
import { connect } from "~/server/backup/tables.server";
import { type DatabaseHandle, openPglite } from "~/server/db/client.server";
import { createTestDatabase, queryRows, type TestDatabase } from "~/server/db/test-database";
import { runSeeders } from "~/server/seed.server";
import { startS3Server } from "~/server/storage/s3rver.test-support";
import { localStorage, type Storage } from "~/server/storage/storage.server";

/**
 * A site with the demo content, a paid order with its tickets, draw entries and garage cars
 * with photos is backed up and restored into fresh databases and media stores: every order,
 * ticket, entry, car and photo must be found again, row for row and byte for byte. On
 * PostgreSQL (DATABASE_URL) the restores also cross engines both ways.
 */

const scratch = mkdtempSync(path.join(tmpdir(), "pitlane-backup-test-"));
let source: TestDatabase;
let sourceStorage: Storage;
let backupFile: string;
let manifest: Manifest;
const opened: { cleanup(): Promise<void> }[] = [];

/** The tables whose every row the restore must bring back unchanged, with their generated columns. */
const CHECKED = ["orders", "order_items", "tickets", "draw_entries", "draws", "cars", "car_photos", "events", "users"];

/**
 * Every row's text form, which holds every column (generated ones, the search vectors,
 * included), with timestamps in UTC on both sides.
 */
async function rowsOf(handle: DatabaseHandle, table: string) {
  const connection = await connect(handle);
  try {
    await connection.query("begin");
    await connection.query("set local timezone to 'UTC'");
    const rows = await connection.query<{ row: string }>(`select t::text as row from public.${table} t order by 1`);
    await connection.query("commit");
    return rows.map((row) => row.row);
  } finally {
    connection.release();
  }
}

async function countsOf(handle: DatabaseHandle) {
  const tables = await queryRows<{ name: string }>(
    handle,
    "select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' order by 1",
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await queryRows<{ count: number }>(handle, `select count(*)::int as count from public."${name}"`);
    counts[name] = row!.count;
  }
  return counts;
}

async function keysOf(storage: Storage) {
  const keys: string[] = [];
  for await (const key of storage.list()) keys.push(key);
  return keys.sort();
}

/** Every row of the checked tables and every media file, as the source has them. */
async function expectSameSite(target: DatabaseHandle, targetStorage: Storage) {
  for (const table of CHECKED) expect(await rowsOf(target, table), table).toEqual(await rowsOf(source, table));
  expect(await countsOf(target)).toEqual(await countsOf(source));
  const [sequence] = await queryRows<{ value: string }>(
    target,
    "select last_value::text as value from orders_number_seq",
  );
  const [original] = await queryRows<{ value: string }>(
    source,
    "select last_value::text as value from orders_number_seq",
  );
  expect(sequence!.value).toBe(original!.value);

  const keys = await keysOf(sourceStorage);
  expect(await keysOf(targetStorage)).toEqual(keys);
  for (const key of keys) {
    const [before, after] = await Promise.all([sourceStorage.get(key), targetStorage.get(key)]);
    expect(Buffer.from(after!.bytes).equals(Buffer.from(before!.bytes)), key).toBe(true);
  }
  // Each car photo's renditions and the private original it is re-blurred from came back.
  const photos = await queryRows<{ hash: string; source_key: string }>(
    target,
    "select hash, source_key from car_photos",
  );
  expect(photos.length).toBeGreaterThan(0);
  for (const photo of photos) {
    expect(await targetStorage.exists(`cars/${photo.hash}-640.webp`)).toBe(true);
    expect(await targetStorage.exists(photo.source_key)).toBe(true);
  }
}

const freshStorage = () => localStorage(mkdtempSync(path.join(scratch, "media-")));

async function freshDatabase() {
  const database = await createTestDatabase({ migrate: false });
  opened.push(database);
  return database;
}

beforeAll(async () => {
  source = await createTestDatabase();
  sourceStorage = freshStorage();
  const { db } = source;
  // The demo content that holds events, draws with their entries, and cars with their photos
  // (the shop's and the blog's seeders add photos of the same kind and a minute on a busy machine).
  await runSeeders(
    db,
    [legalPagesSeeder, demoAccountsSeeder, demoCarsSeeder, demoEventsSeeder, demoApplicationsSeeder, demoDrawsSeeder],
    { demo: true, storage: sourceStorage },
  );
  const event = await createTestEvent(db, { types: [{ name: "Adult", price: 2500 }] });
  const [buyer] = await createBuyers(db, 1);
  await paidOrder(db, buyer!, [{ ticketTypeId: event.typeIds[0]!, quantity: 2, attendeeNames: ["Ada", "Émile"] }]);

  backupFile = path.join(scratch, "site.tar.gz");
  // The demo's live draws keep secret seeds: the backup is encrypted, as it must be.
  manifest = (
    await createBackup({ database: source, storage: sourceStorage, mediaName: "local", seal: TEST_SEAL }, backupFile)
  ).manifest;
}, 300_000);

afterAll(async () => {
  for (const database of opened) await database.cleanup();
  await source?.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

describe("npm run backup", () => {
  it("writes every table, every media file and the migration level into one archive", async () => {
    const counts = Object.fromEntries(manifest.tables.map((table) => [table.name, table.rows]));
    expect(counts.orders).toBeGreaterThanOrEqual(1);
    expect(counts.tickets).toBeGreaterThanOrEqual(2);
    expect(counts.draw_entries).toBeGreaterThan(0);
    expect(counts.cars).toBeGreaterThan(0);
    expect(counts.car_photos).toBeGreaterThan(0);
    expect(manifest.media.length).toBe((await keysOf(sourceStorage)).length);
    expect(manifest.migration.tag).toMatch(/^\d{4}_/);
    expect(manifest.tables.find((table) => table.name === "events")!.columns).not.toContain("search");
    expect(statSync(backupFile).mode & 0o077).toBe(0);
  });
});

/** Restoring hundreds of media files and comparing every byte takes a while on a busy machine. */
const SLOW = 240_000;

describe("npm run restore", () => {
  it(
    "brings back every order, ticket, entry, car and photo into a fresh database and media folder",
    async () => {
      const target = await freshDatabase();
      const storage = freshStorage();
      const backup = await openBackup(backupFile, TEST_SEAL.passphrase);
      try {
        const report = await restoreBackup(backup, { database: target, storage });
        expect(report.media).toBe(manifest.media.length);
      } finally {
        await backup.close();
      }
      await expectSameSite(target, storage);

      // The restored site takes the next order number, not one it already gave.
      const [next] = await queryRows<{ value: string }>(target, "select nextval('orders_number_seq')::text as value");
      const [highest] = await queryRows<{ value: string }>(target, "select max(number)::text as value from orders");
      expect(BigInt(next!.value)).toBeGreaterThan(BigInt(highest!.value));

      // That database now holds a site: a second restore is refused, and replaces it with force.
      const again = await openBackup(backupFile, TEST_SEAL.passphrase);
      try {
        await expect(restoreBackup(again, { database: target, storage })).rejects.toThrow(BackupError);
        await expect(restoreBackup(again, { database: target, storage })).rejects.toThrow(/already holds a site/);
        await restoreBackup(again, { database: target, storage, force: true });
      } finally {
        await again.close();
      }
      await expectSameSite(target, storage);
    },
    SLOW,
  );

  it(
    "puts the media into an S3 bucket when the new install uses one",
    async () => {
      const s3 = await startS3Server("pitlane-restore");
      try {
        const target = await freshDatabase();
        const backup = await openBackup(backupFile, TEST_SEAL.passphrase);
        try {
          await restoreBackup(backup, { database: target, storage: s3.storage });
        } finally {
          await backup.close();
        }
        await expectSameSite(target, s3.storage);

        // A site on S3 backs up from its bucket too.
        const again = path.join(scratch, "from-s3.tar.gz");
        const { manifest: fromS3 } = await createBackup(
          { database: target, storage: s3.storage, mediaName: "s3", seal: TEST_SEAL },
          again,
        );
        expect(fromS3.media.map((entry) => [entry.key, entry.sha256])).toEqual(
          manifest.media.map((entry) => [entry.key, entry.sha256]),
        );
      } finally {
        await s3.stop();
      }
    },
    SLOW,
  );

  it(
    "refuses an archive cut short before touching any database",
    async () => {
      const cut = path.join(scratch, "cut.tar.gz");
      const bytes = readFileSync(backupFile);
      writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
      await expect(openBackup(cut, TEST_SEAL.passphrase)).rejects.toThrow(/unexpected end of file|cut short|damaged/);
    },
    SLOW,
  );

  it.runIf(process.env.DATABASE_URL)(
    "crosses engines: PostgreSQL to PGlite, and back",
    async () => {
      const pglite = await openPglite(null);
      opened.push({ cleanup: () => pglite.close() });
      const pgliteStorage = freshStorage();
      const backup = await openBackup(backupFile, TEST_SEAL.passphrase);
      try {
        await restoreBackup(backup, { database: pglite, storage: pgliteStorage });
      } finally {
        await backup.close();
      }
      await expectSameSite(pglite, pgliteStorage);

      const fromPglite = path.join(scratch, "from-pglite.tar.gz");
      await createBackup({ database: pglite, storage: pgliteStorage, mediaName: "local", seal: TEST_SEAL }, fromPglite);
      const postgres = await freshDatabase();
      const postgresStorage = freshStorage();
      const back = await openBackup(fromPglite, TEST_SEAL.passphrase);
      try {
        expect(back.manifest.source.engine).toBe("pglite");
        await restoreBackup(back, { database: postgres, storage: postgresStorage });
      } finally {
        await back.close();
      }
      await expectSameSite(postgres, postgresStorage);
    },
    SLOW,
  );
});
