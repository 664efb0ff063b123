import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import type { Env } from "../env.server";
import {
  cacheControlOf,
  checkKey,
  contentTypeOf,
  isPrivateKey,
  isRevocableKey,
  isValidKey,
  MEDIA_PATH,
  PRIVATE_PREFIX,
  type Storage,
} from "./keys";

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

/**
 * Files whose showing can be taken back (car photos) live under this prefix, outside the public
 * one: the site serves them itself at /media/* after asking who may see the photo now, so a
 * hidden photo is not left readable at a bucket address.
 */
const GUARDED_PREFIX = "guarded/";

/** Where car photos were kept before they moved under `guarded/`: read until `npm run media:guard`. */
const LEGACY_PREFIX = PUBLIC_PREFIX;

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

const objectKey = (key: string) =>
  isPrivateKey(key) ? key : isRevocableKey(key) ? `${GUARDED_PREFIX}${key}` : `${PUBLIC_PREFIX}${key}`;

function keyOf(objectName: string) {
  if (objectName.startsWith(PRIVATE_PREFIX)) return objectName;
  if (objectName.startsWith(GUARDED_PREFIX)) return objectName.slice(GUARDED_PREFIX.length);
  if (objectName.startsWith(PUBLIC_PREFIX)) return objectName.slice(PUBLIC_PREFIX.length);
  return null;
}

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === "NoSuchKey" || error.name === "NotFound" || error.$metadata.httpStatusCode === 404);

/** Media in an S3-compatible bucket, through the AWS SDK. */
function clientOf(settings: S3Settings) {
  return new S3Client({
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
}

async function* objectNames(client: S3Client, Bucket: string, Prefix: string) {
  let ContinuationToken: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
    for (const object of page.Contents ?? []) if (object.Key) yield object.Key;
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
}

/**
 * Moves car photos stored before they were guarded from `media/cars/` to `guarded/cars/`, so no
 * bucket address reaches them any more. Safe to run again; answers how many it moved.
 */
export async function guardLegacyCarPhotos(settings: S3Settings) {
  const client = clientOf(settings);
  const Bucket = settings.bucket;
  let moved = 0;
  for await (const name of objectNames(client, Bucket, PUBLIC_PREFIX)) {
    const key = name.slice(PUBLIC_PREFIX.length);
    if (!isValidKey(key) || !isRevocableKey(key)) continue;
    await client.send(
      new CopyObjectCommand({
        Bucket,
        Key: objectKey(key),
        // Keys hold only lowercase letters, digits, "-", "_", "." and "/": nothing to escape.
        CopySource: `${Bucket}/${name}`,
        MetadataDirective: "REPLACE",
        ContentType: contentTypeOf(key),
        CacheControl: cacheControlOf(key),
      }),
    );
    await client.send(new DeleteObjectCommand({ Bucket, Key: name }));
    moved += 1;
  }
  return moved;
}

export function s3Storage(settings: S3Settings): Storage {
  const client = clientOf(settings);
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
          CacheControl: cacheControlOf(key),
        }),
      );
    },
    url(key) {
      checkKey(key);
      if (isPrivateKey(key)) throw new Error(`${key} is private and has no address`);
      return isRevocableKey(key) ? `${MEDIA_PATH}${key}` : `${publicBase}${key}`;
    },
    async delete(key) {
      checkKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
      if (isRevocableKey(key)) await client.send(new DeleteObjectCommand({ Bucket, Key: `${LEGACY_PREFIX}${key}` }));
    },
    async get(key) {
      if (!isValidKey(key)) return null;
      const read = async (Key: string) => {
        try {
          const answer = await client.send(new GetObjectCommand({ Bucket, Key }));
          if (!answer.Body) return null;
          return { bytes: await answer.Body.transformToByteArray(), contentType: contentTypeOf(key) };
        } catch (error) {
          if (isMissing(error)) return null;
          throw error;
        }
      };
      return (await read(objectKey(key))) ?? (isRevocableKey(key) ? await read(`${LEGACY_PREFIX}${key}`) : null);
    },
    async exists(key) {
      if (!isValidKey(key)) return false;
      const found = async (Key: string) => {
        try {
          await client.send(new HeadObjectCommand({ Bucket, Key }));
          return true;
        } catch (error) {
          if (isMissing(error)) return false;
          throw error;
        }
      };
      return (await found(objectKey(key))) || (isRevocableKey(key) && (await found(`${LEGACY_PREFIX}${key}`)));
    },
    async *list(prefix = "") {
      // A prefix names keys; their objects sit under `media/`, `guarded/` or `private/`.
      const prefixes = isPrivateKey(prefix)
        ? [prefix]
        : [
            `${GUARDED_PREFIX}${prefix}`,
            `${PUBLIC_PREFIX}${prefix}`,
            ...(PRIVATE_PREFIX.startsWith(prefix) ? [PRIVATE_PREFIX] : []),
          ];
      const guarded = new Set<string>();
      for (const Prefix of prefixes) {
        for await (const name of objectNames(client, Bucket, Prefix)) {
          const key = keyOf(name);
          if (!key || !isValidKey(key)) continue;
          if (name.startsWith(GUARDED_PREFIX)) guarded.add(key);
          // A car photo not yet moved from its old public place is listed once, from there.
          else if (isRevocableKey(key) && guarded.has(key)) continue;
          yield key;
        }
      }
    },
  };
}
