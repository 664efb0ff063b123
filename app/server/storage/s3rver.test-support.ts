import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { Env } from "../env.server";
import { s3SettingsOf, s3Storage } from "./s3.server";
import type { Storage } from "./storage.server";

/**
 * A real S3-compatible server (s3rver) on a free loopback port, with one empty bucket, for the
 * tests of the S3 adapter and of the media pipeline on S3. Nothing is mocked: the AWS SDK talks
 * HTTP to it as it would to a bucket.
 */
export async function startS3Server(bucket = "pitlane-test") {
  const directory = mkdtempSync(path.join(tmpdir(), "pitlane-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const address = await server.run();
  const env: Partial<Env> = {
    S3_BUCKET: bucket,
    S3_REGION: "us-east-1",
    S3_ENDPOINT: `http://127.0.0.1:${address.port}`,
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    S3_FORCE_PATH_STYLE: true,
  };
  const settings = s3SettingsOf(env);
  if (!settings) throw new Error("no S3 settings");
  return {
    env,
    storage: s3Storage(settings) as Storage,
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
