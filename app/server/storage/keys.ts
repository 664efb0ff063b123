/**
 * Where uploaded files live. Keys are content-addressed ("avatars/<sha256>.webp"), so a stored
 * file never changes; most may be cached for a year, but a car photo can stop being shown
 * (`cacheControlOf`). The local adapter keeps files under
 * DATA_DIR/media and the site serves them at /media/*; the S3 adapter (./s3.server.ts) keeps
 * them in a bucket and answers `url` with the bucket's public address, except for car photos,
 * which the site always serves itself after checking who may see them.
 *
 * Keys under `private/` (the clean originals new blurs are made from) are never public: the
 * local adapter keeps them outside the served folder, the S3 adapter outside the bucket's
 * public prefix, `url` refuses them and /media/* answers 404.
 */
export type Storage = {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The address a browser loads the file from. */
  url(key: string): string;
  /** What `url` puts before a key: "/media/" locally, the bucket's public address with S3. */
  readonly publicBase: string;
  delete(key: string): Promise<void>;
  /** The stored bytes; null when there is no such file. */
  get(key: string): Promise<{ bytes: Uint8Array; contentType: string } | null>;
  exists(key: string): Promise<boolean>;
  /** Every stored key starting with `prefix`, public and private. */
  list(prefix?: string): AsyncIterable<string>;
};

export const MEDIA_PATH = "/media/";
export const PRIVATE_PREFIX = "private/";

export const isPrivateKey = (key: string) => key.startsWith(PRIVATE_PREFIX);

/**
 * Files whose showing can be taken back: a car photo is hidden by a moderator, blurred again or
 * removed, or its car is made private. Caches keep them five minutes and then ask again, so a
 * browser or CDN stops showing them within that time (docs/deploy.md for a CDN's purge).
 */
const REVOCABLE_PREFIXES = ["cars/"];
export const isRevocableKey = (key: string) => REVOCABLE_PREFIXES.some((prefix) => key.startsWith(prefix));
const REVOCABLE_CACHE = "public, max-age=300, must-revalidate";
const IMMUTABLE_CACHE = "public, max-age=31536000, immutable";

/** The Cache-Control a public file is served with: a year for what never changes who sees it. */
export function cacheControlOf(key: string) {
  if (isPrivateKey(key)) return "private, no-store";
  return isRevocableKey(key) ? REVOCABLE_CACHE : IMMUTABLE_CACHE;
}

const CONTENT_TYPES: Record<string, string> = {
  avif: "image/avif",
  webp: "image/webp",
  jpg: "image/jpeg",
  png: "image/png",
};

/** Lowercase path segments and one known extension: no "..", no absolute paths, no surprises. */
const KEY_PATTERN = /^(?:[a-z0-9][a-z0-9_-]{0,63}\/){0,4}[a-z0-9][a-z0-9_-]{0,127}\.([a-z0-9]{2,5})$/;

export function isValidKey(key: string) {
  const match = KEY_PATTERN.exec(key);
  return Boolean(match && CONTENT_TYPES[match[1]!]);
}

export function contentTypeOf(key: string) {
  return CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1)] ?? "application/octet-stream";
}

export function checkKey(key: string) {
  if (!isValidKey(key)) throw new Error(`Invalid storage key: ${key}`);
}
