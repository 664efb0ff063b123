import { existsSync } from "node:fs";
import path from "node:path";
import { type DatabaseHandle, DataDirLockedError, openPglite, openPostgres } from "../db/client.server";
import { parseEnv } from "../env.server";
import { storageFor } from "../storage/storage.server";

/**
 * The database, media store and auth secret the site on this machine uses, read from the same
 * variables the server reads (DATABASE_URL, DATA_DIR, S3_*, AUTH_SECRET), and the passphrase
 * backups are encrypted with (BACKUP_PASSPHRASE). Only those are checked: payments, mail and
 * the rest of the configuration need not be set to back up.
 */
export function siteSettings(source: Record<string, string | undefined> = process.env) {
  const picked = Object.fromEntries(
    Object.entries(source).filter(
      ([name]) => ["DATA_DIR", "DATABASE_URL", "BACKUP_PASSPHRASE"].includes(name) || name.startsWith("S3_"),
    ),
  );
  // A stand-in secret keeps parseEnv from generating DATA_DIR/auth-secret: a restore writes the backup's.
  const env = parseEnv({ ...picked, AUTH_SECRET: "x".repeat(32), PAYMENTS: "test", NODE_ENV: "development" });
  const authSecretSet = Boolean(source.AUTH_SECRET?.trim());
  return {
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    storage: storageFor(env),
    mediaName: env.S3_BUCKET ? `s3:${env.S3_BUCKET}` : "local",
    /** The generated secret's file, or null when AUTH_SECRET is set and signs instead. */
    authSecretFile: authSecretSet ? null : path.join(env.DATA_DIR, "auth-secret"),
    backupPassphrase: env.BACKUP_PASSPHRASE ?? null,
  };
}

export class SiteDatabaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SiteDatabaseError";
  }
}

/**
 * Opens the site's database for a backup or a restore. The embedded database can be open in one
 * process only: while the server runs on it, this says so instead of waiting or corrupting it.
 */
export async function openSiteDatabase(
  settings: ReturnType<typeof siteSettings>,
  options: { create: boolean; command: string },
): Promise<DatabaseHandle> {
  if (settings.databaseUrl) return openPostgres(settings.databaseUrl, 2);
  if (!options.create && !existsSync(path.join(settings.dataDir, "pglite"))) {
    throw new SiteDatabaseError(
      `There is no embedded database in ${settings.dataDir}. Set DATA_DIR to the site's data folder, or DATABASE_URL for PostgreSQL.`,
    );
  }
  try {
    return await openPglite(settings.dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new SiteDatabaseError(
        `The site is running on the embedded database in ${settings.dataDir}, which only one process can open.\n` +
          `Stop the server (Ctrl+C in its terminal, or systemctl stop), run ${options.command}, then start it again.\n` +
          "Sites on PostgreSQL (DATABASE_URL) can be backed up while they serve.",
      );
    }
    throw error;
  }
}
