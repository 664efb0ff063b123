import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import type { Env } from "../env.server";
import { checkKey, contentTypeOf, isPrivateKey, isValidKey, PRIVATE_PREFIX, type Storage } from "./keys";

export type S3Setting =
  | "S3_BUCKET"
  | "S3_REGION"
  | "S3_ENDPOINT"
  | "S3_ACCESS_KEY_ID"
  | "S3_SECRET_ACCESS_KEY"
  | "S3_PUBLIC_URL"
  | "S3_FORCE_PATH_STYLE";

export type S3Settings = {
  bucket: string;
  region: string;
  /** An S3-compatible service's address (MinIO, R2, B2…); unset for AWS. */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** The address browsers load public files from (the bucket's website, or a CDN in front of it). */
  publicUrl: string;
  forcePathStyle: boolean;
};

/**
 * Public files live under this prefix in the bucket and private ones under `private/`, so a
 * bucket policy granting public reads on `media/*` alone (docs/media.md) never exposes an original.
 */
export const PUBLIC_PREFIX = "media/";

export function s3SettingsOf(env: Partial<Pick<Env, S3Setting>>): S3Settings | null {
  if (!env.S3_BUCKET) return null;
  const region = env.S3_REGION ?? "us-east-1";
  const endpoint = env.S3_ENDPOINT?.replace(/\/+$/, "");
  const forcePathStyle = Boolean(env.S3_FORCE_PATH_STYLE);
  const defaultUrl = endpoint
    ? forcePathStyle
      ? `${endpoint}/${env.S3_BUCKET}`
      : endpoint.replace("://", `://${env.S3_BUCKET}.`)
    : `https://${env.S3_BUCKET}.s3.${region}.amazonaws.com`;
  return {
    bucket: env.S3_BUCKET,
    region,
    endpoint,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    publicUrl: (env.S3_PUBLIC_URL ?? defaultUrl).replace(/\/+$/, ""),
    forcePathStyle,
  };
}

const objectKey = (key: string) => (isPrivateKey(key) ? key : `${PUBLIC_PREFIX}${key}`);

function keyOf(objectName: string) {
  if (objectName.startsWith(PRIVATE_PREFIX)) return objectName;
  if (objectName.startsWith(PUBLIC_PREFIX)) return objectName.slice(PUBLIC_PREFIX.length);
  return null;
}

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === "NoSuchKey" || error.name === "NotFound" || error.$metadata.httpStatusCode === 404);

/** Media in an S3-compatible bucket, through the AWS SDK. */
export function s3Storage(settings: S3Settings): Storage {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
    // Several S3-compatible services refuse the newer default checksums; S3 needs none here.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 3,
  });
  const Bucket = settings.bucket;
  const publicBase = `${settings.publicUrl}/${PUBLIC_PREFIX}`;
  return {
    publicBase,
    async put(key, bytes, contentType) {
      checkKey(key);
      if (contentType !== contentTypeOf(key)) throw new Error(`${key} cannot be stored as ${contentType}`);
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: objectKey(key),
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.byteLength,
          CacheControl: isPrivateKey(key) ? "private, no-store" : "public, max-age=31536000, immutable",
        }),
      );
    },
    url(key) {
      checkKey(key);
      if (isPrivateKey(key)) throw new Error(`${key} is private and has no address`);
      return `${publicBase}${key}`;
    },
    async delete(key) {
      checkKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async get(key) {
      if (!isValidKey(key)) return null;
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        if (!answer.Body) return null;
        return { bytes: await answer.Body.transformToByteArray(), contentType: contentTypeOf(key) };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async exists(key) {
      if (!isValidKey(key)) return false;
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async *list(prefix = "") {
      // A prefix names keys; their objects sit under `media/` or `private/`.
      const prefixes = isPrivateKey(prefix)
        ? [prefix]
        : PRIVATE_PREFIX.startsWith(prefix)
          ? [`${PUBLIC_PREFIX}${prefix}`, PRIVATE_PREFIX]
          : [`${PUBLIC_PREFIX}${prefix}`];
      for (const Prefix of prefixes) {
        let ContinuationToken: string | undefined;
        do {
          const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
          for (const object of page.Contents ?? []) {
            const key = object.Key ? keyOf(object.Key) : null;
            if (key && isValidKey(key)) yield key;
          }
          ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (ContinuationToken);
      }
    },
  };
}
