import type { Storage } from "~/server/storage/storage.server";

export type MigrationCounts = { copied: number; skipped: number; failed: { key: string; reason: string }[] };

/**
 * Copies every stored file, public and private, from one store to another (the local disk to
 * an S3 bucket). Keys are content-addressed, so a key already in the target holds the same
 * bytes: it is skipped, and running the copy again after an interruption finishes the job.
 */
export async function migrateMedia(
  source: Storage,
  target: Storage,
  progress?: (counts: MigrationCounts, key: string) => void,
): Promise<MigrationCounts> {
  const counts: MigrationCounts = { copied: 0, skipped: 0, failed: [] };
  for await (const key of source.list()) {
    try {
      if (await target.exists(key)) {
        counts.skipped += 1;
      } else {
        const file = await source.get(key);
        if (!file) continue;
        await target.put(key, file.bytes, file.contentType);
        counts.copied += 1;
      }
    } catch (error) {
      counts.failed.push({ key, reason: error instanceof Error ? error.message : String(error) });
    }
    progress?.(counts, key);
  }
  return counts;
}
