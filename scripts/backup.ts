// `npm run backup -- [--out <file>]`: the site's database and media in one .tar.gz, by default
// backups/pitlane-<time>.tar.gz, encrypted with BACKUP_PASSPHRASE. See docs/backup.md.
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { ArchiveError } from "../app/server/backup/archive.server";
import { BackupError, createBackup } from "../app/server/backup/backup.server";
import { openSiteDatabase, SiteDatabaseError, siteSettings } from "../app/server/backup/site.server";
import type { DatabaseHandle } from "../app/server/db/client.server";
import { EnvError } from "../app/server/env.server";

const usage = `Usage: npm run backup -- [--out <file>]

  Writes the database (every table's rows, without sessions or sign-in tokens) and every media
  file to one .tar.gz, by default backups/pitlane-<date>-<time>Z.tar.gz, each file in it
  encrypted with age and BACKUP_PASSPHRASE. Uses DATABASE_URL or the embedded database in
  DATA_DIR, and the S3_ settings or DATA_DIR/media, as the server does. Without
  BACKUP_PASSPHRASE, a backup that would hold a secret (DATA_DIR/auth-secret, the seed of a draw
  not yet drawn) is refused. Restore with npm run restore.`;

/** backups/pitlane-20270501-101500Z.tar.gz, in UTC so names sort by time on any machine. */
function defaultName(now = new Date()) {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace("T", "-")
    .replace(/\.\d+Z$/, "Z");
  return `backups/pitlane-${stamp}.tar.gz`;
}

async function main() {
  let values: { out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { out: { type: "string" }, help: { type: "boolean", short: "h" } },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (values.help) {
    console.log(usage);
    return 0;
  }
  let handle: DatabaseHandle | undefined;
  try {
    const settings = siteSettings();
    handle = await openSiteDatabase(settings, { create: false, command: "npm run backup" });
    const authSecret = settings.authSecretFile
      ? await readFile(settings.authSecretFile, "utf8").catch(() => null)
      : null;
    const out = values.out ?? defaultName();
    console.log(
      `Backing up the ${handle.engine === "pglite" ? `embedded database in ${settings.dataDir}` : "PostgreSQL database"} ` +
        `and the media (${settings.mediaName === "local" ? `${settings.dataDir}/media` : settings.mediaName})…`,
    );
    const started = Date.now();
    const result = await createBackup(
      {
        database: handle,
        storage: settings.storage,
        mediaName: settings.mediaName,
        authSecret,
        authSecretSet: !settings.authSecretFile,
        seal: settings.backupPassphrase ? { passphrase: settings.backupPassphrase } : null,
      },
      out,
      (message) => console.log(message),
    );
    const rows = result.manifest.tables.reduce((sum, table) => sum + table.rows, 0);
    console.log(
      `Wrote ${result.file} (${(result.bytes / 1024 / 1024).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
        `${result.manifest.tables.length} tables, ${rows} rows, ${result.manifest.media.length} media files, ` +
        `at migration ${result.manifest.migration.tag ?? result.manifest.migration.when}.`,
    );
    console.log("Sessions and unused sign-in links were left out: after a restore everyone signs in again.");
    if (!settings.authSecretFile)
      console.log("AUTH_SECRET is set, so it is not in the backup: keep it with the backup, apart from it.");
    if (result.sealed) {
      console.log(
        "Every file in it is encrypted with BACKUP_PASSPHRASE: without the passphrase it cannot be read or restored.",
      );
    } else {
      console.log(
        "It is NOT encrypted (BACKUP_PASSPHRASE is unset): it holds personal data and password hashes, " +
          "so keep it as safe as the database, or set BACKUP_PASSPHRASE.",
      );
    }
    return 0;
  } catch (error) {
    if (
      error instanceof EnvError ||
      error instanceof SiteDatabaseError ||
      error instanceof BackupError ||
      error instanceof ArchiveError
    ) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await handle?.close();
  }
}

process.exitCode = await main();
