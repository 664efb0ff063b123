// `npm run restore -- <file> [--force]`: a backup made by `npm run backup` into this install's
// database and media store. See docs/backup.md.
import { parseArgs } from "node:util";
import { ArchiveError } from "../app/server/backup/archive.server";
import {
  BackupError,
  compareAuthSecret,
  type OpenedBackup,
  openBackup,
  restoreAuthSecret,
  restoreBackup,
} from "../app/server/backup/backup.server";
import { openSiteDatabase, SiteDatabaseError, siteSettings } from "../app/server/backup/site.server";
import type { DatabaseHandle } from "../app/server/db/client.server";
import { EnvError } from "../app/server/env.server";

const usage = `Usage: npm run restore -- <file> [--force]

  Loads a backup made by npm run backup into the database (DATABASE_URL, or the embedded one in
  DATA_DIR) and the media store (the S3_ settings, or DATA_DIR/media) this install is set up with.
  An encrypted backup opens with BACKUP_PASSPHRASE, the passphrase it was made with. Stop the
  site first. A database that already holds a site is refused unless --force, which replaces
  everything in it. No session is restored: everyone signs in again.`;

async function main() {
  let parsed: { values: { force?: boolean; help?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({
      options: { force: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(usage);
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(`Which backup? Give one file.\n\n${usage}`);
    return 2;
  }
  const force = values.force ?? false;
  let backup: OpenedBackup | undefined;
  let handle: DatabaseHandle | undefined;
  try {
    const settings = siteSettings();
    console.log(`Checking ${positionals[0]}…`);
    backup = await openBackup(positionals[0]!, settings.backupPassphrase);
    const { manifest } = backup;
    const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
    console.log(
      `${backup.sealed ? "Encrypted backup" : "Backup"} of ${manifest.createdAt} ` +
        `(${manifest.source.engine}, migration ${manifest.migration.tag ?? "unknown"}): ` +
        `${manifest.tables.length} tables, ${rows} rows, ${manifest.media.length} media files; every checksum matches.`,
    );

    const secret = settings.authSecretFile ? await compareAuthSecret(backup, settings.authSecretFile) : "none";
    if (secret === "different" && !force) {
      throw new BackupError(
        `${settings.authSecretFile} holds another secret than the backup's. Run again with --force to replace it ` +
          "(the restored site needs the backup's to accept two-factor codes and the links in sent emails).",
      );
    }

    handle = await openSiteDatabase(settings, { create: true, command: "npm run restore" });
    const report = await restoreBackup(backup, { database: handle, storage: settings.storage, force }, (message) =>
      console.log(message),
    );
    if (settings.authSecretFile && (secret === "absent" || secret === "different")) {
      await restoreAuthSecret(backup, settings.authSecretFile);
      console.log(`Wrote the site's auth secret to ${settings.authSecretFile}.`);
    }
    console.log(
      `Restored ${report.rows} rows in ${report.tables} tables and ${report.media} media files ` +
        `(${settings.mediaName === "local" ? `${settings.dataDir}/media` : settings.mediaName}), now at migration ${report.migration}.`,
    );
    if (manifest.authSecret && !settings.authSecretFile) {
      console.log(
        "AUTH_SECRET is set here, so the site signs with it. Two-factor codes and links in emails sent before the backup " +
          "need the backed-up site's secret: set AUTH_SECRET to the auth-secret file inside the backup.",
      );
    } else if (manifest.source.authSecretSet) {
      console.log("The backed-up site had AUTH_SECRET set: start this one with the same AUTH_SECRET.");
    }
    console.log("No session or unused sign-in link was restored: everyone signs in again.");
    console.log("Start the site.");
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
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as { code?: string }).code === "Z_DATA_ERROR") {
      console.error(`${positionals[0]} could not be read: ${(error as Error).message}`);
      return 1;
    }
    throw error;
  } finally {
    await handle?.close();
    await backup?.close();
  }
}

process.exitCode = await main();
