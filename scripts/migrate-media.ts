// `npm run media:migrate`: copies the media on this machine (DATA_DIR/media and its private
// originals) to the S3 bucket the S3_* settings name. Safe to run again: files already in the
// bucket are skipped. Then it moves car photos a bucket holds at their old public place under
// `guarded/`, where only the site reaches them. See docs/media.md.
import { migrateMedia } from "../app/features/media/migrate.server";
import { EnvError, parseEnv } from "../app/server/env.server";
import { guardLegacyCarPhotos, s3SettingsOf } from "../app/server/storage/s3.server";
import { localStorageFor, storageFor } from "../app/server/storage/storage.server";

async function main() {
  let env: ReturnType<typeof parseEnv>;
  try {
    env = parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  if (!env.S3_BUCKET) {
    console.error("Set S3_BUCKET (and the other S3_ settings) to the bucket the media should be copied to.");
    return 2;
  }
  const source = localStorageFor(env);
  const target = storageFor(env);
  console.log(`Copying media from ${env.DATA_DIR}/media to the bucket ${env.S3_BUCKET}…`);
  let seen = 0;
  const counts = await migrateMedia(source, target, () => {
    seen += 1;
    if (seen % 200 === 0) console.log(`  ${seen} files looked at`);
  });
  console.log(`Copied ${counts.copied}, already in the bucket ${counts.skipped}, failed ${counts.failed.length}.`);
  for (const failure of counts.failed) console.error(`  ${failure.key}: ${failure.reason}`);
  const settings = s3SettingsOf(env);
  if (settings)
    console.log(`Moved ${await guardLegacyCarPhotos(settings)} car photos out of the bucket's public part.`);
  if (counts.failed.length === 0) console.log(`Pages now link to ${target.publicBase}`);
  return counts.failed.length === 0 ? 0 : 1;
}

process.exitCode = await main();
