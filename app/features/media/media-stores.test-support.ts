import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { s3SettingsOf, s3Storage } from "~/server/storage/s3.server";
import { startS3Server } from "~/server/storage/s3rver.test-support";
import { localStorage, type Storage } from "~/server/storage/storage.server";

export type MediaStore = { name: string; storage: Storage; stop(): Promise<void> };

/**
 * The store the media tests run on: the local disk, or, when S3_BUCKET is set (the S3 run in
 * .ci/run), an S3-compatible bucket: the one S3_ENDPOINT names, else an s3rver this test starts
 * on a free port.
 */
export async function mediaStore(): Promise<MediaStore> {
  const bucket = process.env.S3_BUCKET;
  if (!bucket) {
    const storage = localStorage(path.join(mkdtempSync(path.join(tmpdir(), "pitlane-media-")), "media"));
    return { name: "local disk", storage, stop: async () => {} };
  }
  if (process.env.S3_ENDPOINT) {
    const settings = s3SettingsOf({
      S3_BUCKET: bucket,
      S3_REGION: process.env.S3_REGION,
      S3_ENDPOINT: process.env.S3_ENDPOINT,
      S3_ACCESS_KEY_ID: process.env.S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: process.env.S3_SECRET_ACCESS_KEY,
      S3_PUBLIC_URL: process.env.S3_PUBLIC_URL,
      S3_FORCE_PATH_STYLE: ["1", "true", "yes", "on"].includes(process.env.S3_FORCE_PATH_STYLE ?? ""),
    });
    if (!settings) throw new Error("S3 settings missing");
    return { name: `S3 bucket ${bucket}`, storage: s3Storage(settings), stop: async () => {} };
  }
  const server = await startS3Server(bucket);
  return { name: "S3-compatible server (s3rver)", storage: server.storage, stop: server.stop };
}

/** Every key in the store. */
export async function storedKeys(storage: Storage) {
  const keys: string[] = [];
  for await (const key of storage.list()) keys.push(key);
  return keys.sort();
}
